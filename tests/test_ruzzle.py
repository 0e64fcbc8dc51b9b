"""Ruzzle / Boggle: the three word finders agree, path counts are exact, scores follow the tables."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords import api, verify
from cpwords.lexicon import Lexicon, load_lexicon
from cpwords.puzzles.loading import parse_spec
from cpwords.puzzles.ruzzle.active import DictionaryIndex, active_words, word_paths
from cpwords.puzzles.ruzzle.annealing import LETTER_FREQUENCIES
from cpwords.puzzles.ruzzle.board import Board, boggle_points, king_neighbours, parse_row, path_score
from cpwords.puzzles.ruzzle.paths import HashedDictionary, count_paths, enumerate_words
from cpwords.puzzles.ruzzle.solution import RuzzleSolution
from cpwords.puzzles.ruzzle.trie import build_trie, load_trie, trie_words

LETTERS, WEIGHTS = list(LETTER_FREQUENCIES), list(LETTER_FREQUENCIES.values())


def brute_force_paths(rows: int, cols: int) -> dict[int, int]:
    """Simple king paths by length, by plain depth-first search (for small boards)."""
    neighbours = king_neighbours(rows, cols)
    counts: dict[int, int] = {}

    def walk(cell: int, used: int, length: int) -> None:
        counts[length] = counts.get(length, 0) + 1
        for nb in neighbours[cell]:
            if not used >> nb & 1:
                walk(nb, used | 1 << nb, length + 1)

    for cell in range(rows * cols):
        walk(cell, 1 << cell, 1)
    return dict(sorted(counts.items()))


# ---------------------------------------------------------------- path counts


def test_path_counts_known_figures():
    assert count_paths(2, 2) == {1: 4, 2: 12, 3: 24, 4: 24}
    assert sum(n for k, n in count_paths(3, 3).items() if k >= 2) == 10_296
    four = count_paths(4, 4)
    assert sum(n for k, n in four.items() if k >= 2) == 12_029_624
    assert four[16] == 343_184  # Hamiltonian paths of the 4x4 king graph, both directions


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 5), (2, 3), (3, 2), (3, 3), (2, 4)])
def test_path_counts_match_brute_force(rows, cols):
    assert count_paths(rows, cols) == brute_force_paths(rows, cols)


def test_count_paths_task_via_api():
    result = api.solve({"kind": "ruzzle", "task": "count_paths", "grid": ["abcd", "efgh", "ijkl", "mnop"]})
    assert result.status == "optimal" and result.count == 12_029_624 and result.count_exact
    assert result.stats["paths_by_length"]["2"] == 84


# ---------------------------------------------------------------- the three algorithms agree


def _finders(words):
    lex = Lexicon.from_words(words, name="test")
    trie, index, hashed = build_trie(lex), DictionaryIndex(lex), HashedDictionary(lex)
    return (
        lambda b, m, s: trie_words(b, trie, min_letters=m, scoring=s),
        lambda b, m, s: active_words(b, index, min_letters=m, scoring=s),
        lambda b, m, s: enumerate_words(b, hashed, min_letters=m, scoring=s)[0],
    )


SMALL_WORDS = [w for w in load_lexicon("common-10k") if len(w) <= 9]
SMALL_FINDERS = _finders(SMALL_WORDS)


def _scores(board, found, scoring):
    return {w: path_score(board, p, scoring) for w, p in found.items()}


@settings(max_examples=150, deadline=None)
@given(
    rows=st.integers(1, 3), cols=st.integers(1, 4), seed=st.integers(0, 10**6),
    scoring=st.sampled_from(["ruzzle", "boggle", "none"]), min_letters=st.integers(1, 4),
    multi_letter_tiles=st.booleans(),
)
def test_algorithms_agree_on_random_boards(rows, cols, seed, scoring, min_letters, multi_letter_tiles):
    rng = random.Random(seed)
    if multi_letter_tiles:  # Big Boggle style tiles: th, in, er, qu, and a lone q
        tiles = rng.choices(LETTERS + ["th", "in", "er", "qu", "q"], WEIGHTS + [6, 6, 6, 4, 1], k=rows * cols)
    else:
        tiles = rng.choices(LETTERS, WEIGHTS, k=rows * cols)
    bonuses = {}
    for _ in range(rng.randrange(4)):
        bonuses[(rng.randint(1, rows), rng.randint(1, cols))] = rng.choice(["DL", "TL", "DW", "TW"])
    board = Board.from_tiles([tiles[r * cols:(r + 1) * cols] for r in range(rows)], bonuses)
    results = [find(board, min_letters, scoring) for find in SMALL_FINDERS]
    assert results[0].keys() == results[1].keys() == results[2].keys()
    # Each finder keeps a best-scoring path of each word.
    assert _scores(board, results[0], scoring) == _scores(board, results[1], scoring) == _scores(
        board, results[2], scoring)
    for found in results:
        for word, path in found.items():
            assert board.word_of(path) == word and len(word) >= min_letters and word in SMALL_WORDS


@pytest.mark.parametrize("seed", [1])
def test_algorithms_agree_on_full_boards_with_scowl_80(seed):
    rng = random.Random(seed)
    tiles = rng.choices(LETTERS, WEIGHTS, k=16)
    spec = {"kind": "ruzzle", "grid": [tiles[i:i + 4] for i in range(0, 16, 4)], "bonuses": "ruzzle-4x4",
            "seed": 1}
    results = {alg: api.solve({**spec, "engine": alg}) for alg in ("trie", "active", "enumerate")}
    words = {alg: {s.word: s.score for s in r.solutions} for alg, r in results.items()}
    assert words["trie"] == words["active"] == words["enumerate"]
    assert len(words["trie"]) > 20
    assert results["enumerate"].stats["paths_walked"] == 12_029_624 + 16
    for alg, result in results.items():
        assert result.status == "optimal", (alg, result.message)
        assert verify.check(parse_spec({**spec, "engine": alg}), result) == []


def test_trie_from_cache_equals_fresh_build(tmp_path, monkeypatch):
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path))
    lex = Lexicon.from_words(["cat", "cats", "act", "tact", "quit", "quite", "at"], name="t")
    first, stats1 = load_trie(lex)
    again, stats2 = load_trie(lex)
    assert stats1["trie_built"] == 1 and stats2["trie_built"] == 0
    assert (first.base, first.check, first.is_word) == (again.base, again.check, again.is_word)
    board = Board.from_tiles([["qu", "i", "t"], ["c", "a", "e"], ["t", "s", "x"]])
    assert set(trie_words(board, again, min_letters=2)) == {"quit", "quite", "cat", "cats", "act", "tact", "at"}


# ---------------------------------------------------------------- tiles, paths and scores


def test_parse_rows_and_qu_tiles():
    assert parse_row("QUEST") == ["qu", "e", "s", "t"]
    assert parse_row("th e qu a") == ["th", "e", "qu", "a"]
    assert parse_row(["Q", "U"]) == ["q", "u"]
    board = Board.from_tiles([["qu", "i"], ["t", "e"]])
    assert sorted(word_paths(board, "quite")) == [(0, 1, 2, 3)]
    assert list(word_paths(board, "qite")) == []


def test_scores_follow_the_tables():
    assert [boggle_points(n) for n in range(2, 10)] == [0, 1, 1, 2, 3, 5, 11, 11]
    board = Board.from_tiles([["c", "a"], ["t", "s"]], {(1, 1): "TL", (2, 2): "DW", (1, 2): "DL"})
    # c=4*3, a=1*2, t=1, s=1 -> 16, doubled by DW -> 32; four letters: no length bonus
    assert path_score(board, [0, 1, 2, 3], "ruzzle") == 32
    assert path_score(board, [0, 1, 2], "ruzzle") == 15
    assert path_score(board, [0, 1, 2, 3], "boggle") == 1
    long_board = Board.from_tiles([["s", "t", "a"], ["e", "r", "s"]])
    assert path_score(long_board, [0, 1, 2, 4, 3], "ruzzle") == 5 + 5  # 5 one-point letters + 5 for length 5
    assert path_score(Board.from_tiles([["qu", "a"]]), [0, 1], "ruzzle") == 13


def test_best_path_is_chosen_when_bonuses_differ():
    # "aa" can start on either a; the path starting on the TW square is not better than the one
    # ending on it (same cells), but the DL square makes the path through it score more.
    board = Board.from_tiles([["t", "a", "t"]], {(1, 1): "TL"})
    found = trie_words(board, build_trie(["at", "ta"]), min_letters=2, scoring="ruzzle")
    assert found["ta"] == (0, 1) and found["at"] == (1, 0)
    result = api.solve({"kind": "ruzzle", "grid": ["tat"], "bonuses": {"TL": [[1, 1]]},
                        "dictionary": {"words": ["at", "ta"]}})
    assert {s.word: (s.path, s.score) for s in result.solutions} == {"ta": ([[1, 1], [1, 2]], 4),
                                                                       "at": ([[1, 2], [1, 1]], 4)}


# ---------------------------------------------------------------- the checker


def _spec(**extra):
    return parse_spec({"kind": "ruzzle", "grid": ["cat", "ase", "tsn"], "seed": 1,
                       "dictionary": {"words": ["cat", "cats", "east", "seat", "sat"]}, **extra})


def test_checker_accepts_the_solver_and_rejects_broken_answers():
    spec = _spec(bonuses={"DW": [[3, 2]]})
    result = api.solve(spec)
    assert result.status == "optimal" and verify.check(spec, result) == []
    assert {s.word for s in result.solutions} == {"cat", "cats", "east", "seat", "sat"}

    def problems(**change):
        good = next(s for s in result.solutions if s.word == "cats").model_dump()
        return verify.check_solution(spec, RuzzleSolution(**{**good, **change}))

    assert any("king move" in p for p in problems(path=[[1, 1], [1, 2], [3, 1], [3, 2]]))
    assert any("reuses" in p for p in problems(path=[[1, 1], [1, 2], [1, 1], [2, 1]]))
    assert any("spells" in p for p in problems(path=[[1, 1], [1, 2], [1, 3], [2, 3]]))
    assert any("leaves" in p for p in problems(path=[[1, 1], [0, 2]]))
    assert any("score" in p for p in problems(score=999))
    assert any("not in the dictionary" in p for p in problems(word="acts", words=["acts"],
                                                              path=[[1, 2], [1, 1], [1, 3], [2, 3]]))
    # cats via [2,1], [3,1], [3,2] ends on the DW square (14 points); along the top row it scores 7
    best = next(s for s in result.solutions if s.word == "cats")
    assert (best.path, best.score) == ([[1, 1], [2, 1], [3, 1], [3, 2]], 14)
    assert any("another path scores 14" in p for p in problems(path=[[1, 1], [1, 2], [1, 3], [2, 2]], score=7))


# ---------------------------------------------------------------- tasks and specs


def test_best_board_is_seeded_and_improves():
    spec = {"kind": "ruzzle", "task": "best_board", "grid": ["xxx", "xxx", "xxx"], "iterations": 150,
            "dictionary": "common-10k", "seed": 7}
    a, b = api.solve(spec), api.solve(spec)
    assert a.stats["grid"] == b.stats["grid"] and a.objective == b.objective
    assert a.status == "feasible" and a.objective >= a.stats["start_value"] and a.objective > 0
    assert a.objective == a.stats["best_value"]
    assert verify.check(parse_spec(spec), a) == []
    assert all(s.grid == a.stats["grid"] for s in a.solutions)


@pytest.mark.parametrize("grid,bonuses,message", [
    (["abc", "ab"], None, "different numbers of tiles"),
    (["ab1", "abc"], None, "letters a-z"),
    (["abc", "abc"], {"DL": [[3, 1]]}, "off the 2x3 board"),
    (["abc", "abc"], {"DL": [[1, 1]], "TW": [[1, 1]]}, "two bonuses"),
    (["abc", "abc"], "no-such-layout", "unknown bonus layout"),
])
def test_bad_specs_are_input_errors(grid, bonuses, message):
    from cpwords.errors import InputError

    data = {"kind": "ruzzle", "grid": grid}
    if bonuses is not None:
        data["bonuses"] = bonuses
    with pytest.raises(InputError, match=message):
        parse_spec(data)


def test_enumerate_refuses_big_boards_and_count_refuses_huge():
    from cpwords.errors import InputError

    with pytest.raises(InputError, match="at most 16 cells"):
        parse_spec({"kind": "ruzzle", "grid": ["abcde"] * 5, "engine": "enumerate"})
    with pytest.raises(InputError, match="at most 20 cells"):
        api.solve({"kind": "ruzzle", "grid": ["abcde"] * 5, "task": "count_paths"})


def test_qu_tile_words_on_a_5x5_board():
    result = api.solve({"kind": "ruzzle", "grid": ["quiets", "andro", "otlem", "ainso", "rtsab"],
                        "scoring": "boggle", "dictionary": "scowl-70"})
    words = {s.word for s in result.solutions}
    assert {"quiet", "quiets", "quaint", "quaintness"} <= words
    assert all(len(w) >= 3 for w in words)


def test_algorithm_is_a_deprecated_alias_of_engine():
    from cpwords.errors import InputError

    with pytest.warns(FutureWarning, match="'algorithm' is deprecated"):
        spec = parse_spec({"kind": "ruzzle", "grid": ["cats", "dogs"], "algorithm": "active"})
    assert spec.engine == "active" and spec.algorithm is None
    with pytest.raises(InputError, match="old name of 'engine'"):
        parse_spec({"kind": "ruzzle", "grid": ["cats", "dogs"], "algorithm": "active", "engine": "trie"})


def test_engine_that_cannot_do_the_task_is_refused_at_load():
    from cpwords.errors import InputError

    with pytest.raises(InputError) as info:
        parse_spec({"kind": "ruzzle", "grid": ["cats", "dogs"], "task": "best_board", "engine": "active"})
    assert info.value.field == "engine" and "engine that can: trie" in info.value.message
    assert parse_spec({"kind": "ruzzle", "grid": ["cats"], "task": "count_paths"}).engine == "enumerate"


# ---------------------------------------------------------------- the double-array trie itself


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="abeäöüz", min_size=1, max_size=7), max_size=60),
       st.lists(st.text(alphabet="abeäöüz", min_size=1, max_size=8), max_size=30))
def test_the_trie_holds_exactly_the_words_and_their_prefixes(words: list[str], probes: list[str]) -> None:
    """Walked letter by letter, the trie reaches a state exactly for the prefixes of its words,
    and that state ends a word exactly for the words (repeated words included; letters beyond
    a–z (German's ä ö ü); ``kids`` and depths from the scoring tables agree)."""
    from cpwords.alphabet import GERMAN as alphabet
    from cpwords.puzzles.ruzzle.tables import _derived

    trie = build_trie(words + words[:3], alphabet)
    kids, depth, _ = _derived(trie, alphabet)
    wanted, prefixes = set(words), {""} | {w[:k] for w in words for k in range(len(w) + 1)}
    assert trie.nodes == len(prefixes)
    for text in sorted(prefixes | set(probes) | {p + "z" for p in probes}):
        state = 0
        for ch in text:
            letter = alphabet.index[ch]
            child = trie.child(state, letter)
            assert (child >= 0) == bool(kids[state] >> letter & 1)
            if child < 0:
                break
            state = child
        else:
            assert text in prefixes and depth[state] == len(text)
            assert bool(trie.is_word[state]) == (text in wanted), text
            continue
        assert text not in prefixes
