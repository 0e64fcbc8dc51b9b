"""Word ladders: links and groups, shortest and least-rare searches, the checker, known figures."""

from __future__ import annotations

import random
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords import api, verify
from cpwords.errors import InputError
from cpwords.lexicon import Lexicon
from cpwords.puzzles.ladder import store as ladder_index
from cpwords.puzzles.ladder.index import build_index, one_letter_links, wildcard_buckets, word_groups
from cpwords.puzzles.ladder.landmarks import landmark_tables
from cpwords.puzzles.ladder.search import (
    least_rare_ladders,
    least_rare_shortest_ladders,
    meet_in_the_middle,
    random_shortest_ladder,
    shortest_ladder_graph,
)
from cpwords.puzzles.ladder.solution import LadderSolution
from cpwords.puzzles.ladder.spec import LadderSpec
from cpwords.results import Status

#: Knuth's Stanford GraphBase five-letter words, shipped in tests/data (see its README).
SGB_WORDS = Path(__file__).parent / "data" / "sgb-words.txt"

SMALL = ["cold", "cord", "card", "ward", "warm", "word", "worm", "corm", "wold", "zzzz", "cool", "pool"]


def small_spec(**fields) -> LadderSpec:
    return LadderSpec(**{"start": "cold", "target": "warm", "dictionary": {"words": SMALL}, **fields})


def graph_of(words: list[str]) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(range(len(words)))
    for i, row in enumerate(one_letter_links(words)):
        g.add_edges_from((i, j) for j in row)
    return g


# ---------------------------------------------------------------- known figures (outside data, in tests/data)


@pytest.fixture(scope="module")
def sgb_spec_data() -> dict:
    return {"kind": "ladder", "dictionary": {"path": str(SGB_WORDS)}}


def test_sgb_links_and_groups():
    words = SGB_WORDS.read_text().split()
    index = build_index(Lexicon.from_words(words, name="sgb"))
    assert len(index) == 5757
    assert index.n_links == 14135
    assert index.n_groups == 853
    assert sum(index.group_sizes) == 5757


def test_sgb_chaos_order_needs_12_steps(sgb_spec_data):
    spec = {**sgb_spec_data, "start": "chaos", "target": "order", "seed": 3}
    result = api.solve(spec)
    assert result.status == Status.OPTIMAL
    shortest = [s for s in result.solutions if s.mode == "shortest"]
    assert [s.steps for s in shortest] == [12]
    common = [s for s in result.solutions if s.mode == "common"][0]
    assert common.rareness <= shortest[0].rareness
    assert verify.check(_spec(spec), result) == []


def _spec(data: dict) -> LadderSpec:
    from cpwords.puzzles.loading import parse_spec

    return parse_spec(data)  # type: ignore[return-value]


def test_sgb_pound_marks_has_no_ladder(sgb_spec_data):
    result = api.solve({**sgb_spec_data, "start": "pound", "target": "marks"})
    assert result.status == Status.INFEASIBLE
    assert result.exit_code() == 1
    assert result.message.startswith("no ladder: POUND is in group")
    assert "MARKS in group" in result.message


def test_sgb_all_shortest_counts_match_networkx(sgb_spec_data):
    words = SGB_WORDS.read_text().split()
    spec = _spec({**sgb_spec_data, "start": "chaos", "target": "order", "mode": "shortest",
                  "all_shortest": True, "limit": 5})
    result = api.solve(spec)
    g = graph_of(words)
    expected = sum(1 for _ in nx.all_shortest_paths(g, words.index("chaos"), words.index("order")))
    assert result.count == expected and result.count_exact is True
    listed = [s.words for s in result.solutions]
    assert len(listed) == min(5, expected)
    assert listed == sorted(listed)  # alphabetical order of the ladders
    assert verify.check(spec, result) == []


# ---------------------------------------------------------------- the index


def test_buckets_never_pair_words_twice():
    words = ["cat", "cot", "cut", "cog", "dog", "dot", "act"]
    buckets = wildcard_buckets(words)
    pairs = [(i, j) for b in buckets for i in b for j in b if i < j]
    assert len(pairs) == len(set(pairs))
    adjacency = one_letter_links(words, buckets)
    brute = [[j for j, v in enumerate(words)
              if len(v) == len(w) and sum(a != b for a, b in zip(w, v, strict=True)) == 1]
             for w in words]
    assert adjacency == brute


def test_groups_numbered_by_length_then_first_word():
    words = ["dog", "cog", "zzz", "ab", "ac", "xy"]
    group, sizes, lengths = word_groups(words, one_letter_links(words))
    # length 2 first: {ab, ac} (first word 'ab') then {xy}; length 3: {cog, dog} then {zzz}
    assert group == [3, 3, 4, 1, 1, 2]
    assert sizes == [0, 2, 1, 2, 1] and lengths == [0, 2, 2, 3, 3]


def test_index_cache_is_found_again_without_the_lexicon(tmp_path, monkeypatch):
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path))
    path = tmp_path / "words.txt"
    path.write_text("\n".join(SMALL) + "\n")
    ref = {"path": str(path)}
    first = ladder_index.load_index(_spec({"kind": "ladder", "start": "cold", "target": "warm",
                                           "dictionary": ref}).dictionary)
    ladder_index._load_index.cache_clear()

    def no_lexicon(*args, **kwargs):
        raise AssertionError("the lexicon was loaded although the index is cached")

    monkeypatch.setattr("cpwords.lexicon.load_lexicon", no_lexicon)
    again = ladder_index.load_index(first_ref := _spec({"kind": "ladder", "start": "cold", "target": "warm",
                                                        "dictionary": ref}).dictionary)
    assert again.words == first.words and list(again.links) == list(first.links)
    assert first_ref.path == path
    ladder_index._load_index.cache_clear()


def test_most_linked_and_lookups():
    index = build_index(Lexicon.from_words(SMALL))
    assert index.most_linked(4) in ("cord", "word", "ward")
    assert index.linked_words("cold") == ["cord", "wold"]
    with pytest.raises(KeyError):
        index.id_of("nope")
    assert "cold" in index and "nope" not in index


# ---------------------------------------------------------------- searches agree with networkx


words_strategy = st.lists(st.text(alphabet="abcd", min_size=3, max_size=3), min_size=2, max_size=40, unique=True)


@settings(max_examples=120, deadline=None)
@given(words=words_strategy, data=st.data())
def test_bfs_agrees_with_networkx(words, data):
    g = graph_of(words)
    adjacency = [tuple(r) for r in one_letter_links(words)]
    s = data.draw(st.integers(0, len(words) - 1))
    t = data.draw(st.integers(0, len(words) - 1))
    meeting = meet_in_the_middle(adjacency.__getitem__, s, t)
    if not nx.has_path(g, s, t):
        assert meeting is None
        return
    assert meeting.steps == nx.shortest_path_length(g, s, t)
    graph = shortest_ladder_graph(meeting, adjacency.__getitem__)
    every = sorted(nx.all_shortest_paths(g, s, t))
    assert graph.count == len(every)
    assert sorted(graph.ladders(words.__getitem__)) == every or \
        sorted(map(tuple, graph.ladders(words.__getitem__))) == sorted(map(tuple, every))
    rng = random.Random(data.draw(st.integers(0, 99)))
    assert graph.sample(rng) in every
    assert random_shortest_ladder(meeting, adjacency.__getitem__, rng) in every


@settings(max_examples=120, deadline=None)
@given(words=words_strategy, data=st.data())
def test_least_rare_agrees_with_networkx_dijkstra(words, data):
    n = len(words)
    # Some huge values too: landmark distances are capped to 32 bits and must stay valid bounds.
    rareness = data.draw(st.lists(st.integers(1, 50) | st.integers(10**9, 10**10), min_size=n, max_size=n))
    adjacency = [tuple(r) for r in one_letter_links(words)]
    s = data.draw(st.integers(0, n - 1))
    t = data.draw(st.integers(0, n - 1))
    dg = nx.DiGraph()
    dg.add_nodes_from(range(n))
    dg.add_weighted_edges_from((u, v, rareness[v]) for u in range(n) for v in adjacency[u])
    group, _, _ = word_groups(words, adjacency)
    members = [[v for v in range(n) if group[v] == g] for g in sorted(set(group))]
    tables = landmark_tables(n, members, adjacency.__getitem__, rareness, k=3, min_group=2)
    plain = least_rare_ladders(adjacency.__getitem__, rareness, s, t)
    steered = least_rare_ladders(adjacency.__getitem__, rareness, s, t, tables)
    if not nx.has_path(dg, s, t):
        assert plain is None and steered is None
        return
    best = nx.dijkstra_path_length(dg, s, t)
    every = list(nx.all_shortest_paths(dg, s, t, weight="weight"))
    for found in (plain, steered):
        assert found.cost == best
        assert found.count == len(every)
        ladder = found.sample(random.Random(n))
        assert ladder in every


@settings(max_examples=120, deadline=None)
@given(words=words_strategy, data=st.data())
def test_least_rare_shortest_is_optimal_by_brute_force(words, data):
    """Among every shortest ladder (networkx lists them all), the least total rareness of the words
    after the start is what the layered search finds, with the right count; its sample is one."""
    n = len(words)
    rareness = data.draw(st.lists(st.integers(1, 20), min_size=n, max_size=n))
    adjacency = [tuple(r) for r in one_letter_links(words)]
    g = graph_of(words)
    s = data.draw(st.integers(0, n - 1))
    t = data.draw(st.integers(0, n - 1))
    if not nx.has_path(g, s, t):
        return
    meeting = meet_in_the_middle(adjacency.__getitem__, s, t)
    graph, cost = least_rare_shortest_ladders(shortest_ladder_graph(meeting, adjacency.__getitem__), rareness)
    every = list(nx.all_shortest_paths(g, s, t))
    costs = [sum(rareness[v] for v in path[1:]) for path in every]
    best = min(costs)
    assert cost == best
    assert graph.count == costs.count(best)
    for seed in range(3):
        ladder = graph.sample(random.Random(seed))
        assert ladder in every and sum(rareness[v] for v in ladder[1:]) == best


def test_cold_warm_shortest_is_least_rare_for_every_seed():
    spec_data = {"kind": "ladder", "start": "cold", "target": "warm", "mode": "shortest"}
    shown = {tuple(api.solve(spec_data, seed=s).solutions[0].words) for s in range(12)}
    rareness = {api.solve(spec_data, seed=s).solutions[0].rareness for s in range(3)}
    assert rareness == {6}  # CORD, WORD, WARD ... never CORM or WOLD
    assert not {w for ladder in shown for w in ladder} & {"corm", "wold"}
    random_pick = {tuple(api.solve({**spec_data, "shortest_pick": "random"}, seed=s).solutions[0].words)
                   for s in range(40)}
    assert any({"corm", "wold"} & set(ladder) for ladder in random_pick)  # the option keeps them possible


# ---------------------------------------------------------------- solve, seeds, checker


def test_solve_small_both_modes_and_verify():
    spec = small_spec(seed=1)
    result = api.solve(spec)
    assert result.status == Status.OPTIMAL
    modes = [s.mode for s in result.solutions]
    assert modes == ["shortest", "common"]
    shortest, common = result.solutions
    assert shortest.steps == 4 and result.objective == 4
    assert common.rareness <= shortest.rareness
    assert shortest.rareness == sum(shortest.word_rareness[1:])
    assert result.stats["group_size"] == 9
    assert verify.check(spec, result) == []


def test_same_seed_same_ladder_different_seeds_differ():
    spec_data = {"kind": "ladder", "start": "cold", "target": "warm", "dictionary": {"words": SMALL},
                 "mode": "shortest", "shortest_pick": "random"}
    ladders = {tuple(api.solve(spec_data, seed=s).solutions[0].words) for s in range(40)}
    assert len(ladders) > 1  # cold-cord-word-ward-warm, cold-wold-word-worm-warm ... all come out
    assert api.solve(spec_data, seed=7).solutions[0].words == api.solve(spec_data, seed=7).solutions[0].words


def test_common_never_rarer_than_shortest_on_sgb(sgb_spec_data):
    words = SGB_WORDS.read_text().split()
    rng = random.Random(11)
    for _ in range(15):
        a, b = rng.sample(words[:2000], 2)
        spec = _spec({**sgb_spec_data, "start": a, "target": b, "seed": 1})
        result = api.solve(spec)
        if result.status == Status.INFEASIBLE:
            continue
        shortest, common = result.solutions
        assert common.rareness <= shortest.rareness
        assert common.steps >= shortest.steps
        assert verify.check(spec, result) == []


def test_start_equals_target():
    result = api.solve(small_spec(target="cold"))
    assert [s.words for s in result.solutions] == [["cold"], ["cold"]]
    assert result.solutions[0].steps == 0


def test_all_shortest_small():
    spec = small_spec(mode="shortest", all_shortest=True, limit=2)
    result = api.solve(spec)
    expected = sum(1 for _ in nx.all_shortest_paths(graph_of(SMALL), SMALL.index("cold"), SMALL.index("warm")))
    assert expected == 6  # via cord-card-ward, cord-word-ward/worm, cord-corm-worm, wold-word-ward/worm
    assert result.count == expected and result.count_exact
    assert len(result.solutions) == 2
    assert verify.check(spec, result) == []


def test_checker_finds_broken_ladders():
    spec = small_spec()

    def sol(words, mode="common"):
        return LadderSolution(words=words, mode=mode, steps=len(words) - 1, rareness=0,
                              word_rareness=[0] * len(words))

    assert any("exactly one letter" in p for p in verify.check_solution(spec, sol(["cold", "ward", "warm"])))
    assert any("not in the dictionary" in p for p in verify.check_solution(spec, sol(["cold", "colm", "warm"])))
    assert any("starts with" in p for p in verify.check_solution(spec, sol(["cord", "word", "ward", "warm"])))
    shortcut = ["cold", "cord", "corm", "worm", "word", "ward", "warm"]
    assert any("not shortest" in p for p in verify.check_solution(spec, sol(shortcut, "shortest")))
    good = api.solve(spec).solutions[0]
    bad_total = good.model_copy(update={"rareness": good.rareness + 1})
    assert any("total rareness" in p for p in verify.check_solution(spec, bad_total))


# ---------------------------------------------------------------- bad input


def test_unknown_word_is_an_input_error_with_suggestions():
    with pytest.raises(InputError) as err:
        api.solve(small_spec(start="colt"))
    assert err.value.field == "start"
    assert "nearest dictionary words: cold" in err.value.message


def test_lengths_and_letters_are_checked_by_the_spec():
    with pytest.raises(InputError, match="same length"):
        _spec({"kind": "ladder", "start": "cold", "target": "warmer"})
    with pytest.raises(InputError, match="letters a-z"):
        _spec({"kind": "ladder", "start": "c0ld", "target": "warm"})
    with pytest.raises(InputError, match="unknown field"):
        _spec({"kind": "ladder", "start": "cold", "target": "warm", "steps": 3})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abc", min_size=3, max_size=3), min_size=1, max_size=12))
def test_shortcut_check_agrees_with_comparing_every_pair(words):
    from cpwords.puzzles.ladder.check import letters_changed, shortcuts

    pairs = [f"not shortest: {words[i]!r} links directly to {words[j]!r}"
             for i in range(len(words))
             for j in [next((j for j in range(i + 2, len(words)) if letters_changed(words[i], words[j]) == 1), None)]
             if j is not None]
    is_ladder = len(set(words)) == len(words) and all(letters_changed(a, b) == 1 for a, b in zip(words, words[1:], strict=False))
    assert shortcuts(words, is_ladder=is_ladder) == pairs  # the pattern count, when it applies, is exact
    assert shortcuts(words) == pairs


def test_a_step_pattern_used_twice_is_a_shortcut() -> None:
    """aac -> bac -> cac changes the first letter twice: aac links directly to cac (hypothesis found it)."""
    from cpwords.puzzles.ladder.check import shortcuts

    assert shortcuts(["aac", "bac", "cac"], is_ladder=True) == ["not shortest: 'aac' links directly to 'cac'"]


def test_a_dumped_ladder_spec_parses_back() -> None:
    """The server echoes a spec with every field: it must be accepted again as it is."""
    from cpwords.puzzles.loading import parse_spec

    spec = parse_spec({"kind": "ladder", "start": "cold", "target": "warm"})
    assert parse_spec(spec.model_dump(mode="json")).model_dump() == spec.model_dump()
