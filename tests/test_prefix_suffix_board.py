"""Prefix/suffix boards: engines agree with a brute-force count modulo symmetry; checker; CLI."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from conftest import EXAMPLES, common_v1, common_v1_file
from hypothesis import given, settings
from hypothesis import strategies as st
from pace import Stopwatch, warm_cache

from cpwords import api, verify
from cpwords.cli import main
from cpwords.errors import InputError
from cpwords.geometry import canonical_form
from cpwords.puzzles.prefix_suffix_board.counting import count_colourings
from cpwords.puzzles.prefix_suffix_board.problem import build_problem
from cpwords.puzzles.prefix_suffix_board.spec import PrefixSuffixBoardSpec as SPEC
from cpwords.puzzles.prefix_suffix_board.tokens import playable_cuts
from cpwords.results import Result, Status

ENGINES = ("native", "cpsat", "sat")
ALL_SHORT = ["".join(t) for n in (3, 4) for t in itertools.product("abc", repeat=n)]


def small_spec(words: list[str], **extra: object) -> SPEC:
    data = {"kind": "prefix_suffix_board", "board": "square9", "dictionary": {"words": words},
            "prefix_length": [1, 2], "suffix_length": [2, 3], "seed": 1} | extra
    return SPEC.model_validate(data)


def brute_force(spec: SPEC) -> tuple[int, int]:
    """(boards modulo symmetry, raw boards): every board from a symmetry-free model, canonicalised."""
    from cpwords.engines import cpsat as engine
    from cpwords.engines.budget import Budget
    from cpwords.puzzles.prefix_suffix_board.cpsat import build_model

    problem = build_problem(spec)
    model, xs = build_model(problem, None)
    en = engine.enumerate_solutions(model, xs, Budget())
    assert en.complete
    forms = {canonical_form(x, problem.layout.group) for x in en.solutions}
    return len(forms), en.count


@settings(max_examples=6, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(20, 36), st.booleans())
def test_engines_agree_with_brute_force(rng: random.Random, n: int, distinct: bool) -> None:
    words = rng.sample(ALL_SHORT, n)
    spec = small_spec(words, task="count_boards", distinct_tokens=distinct)
    orbits, raw = brute_force(spec)
    assert raw == orbits * 8  # no board is fixed by a non-identity symmetry
    for engine in ENGINES:
        result = api.solve(spec, engine=engine)
        assert result.status in (Status.OPTIMAL, Status.INFEASIBLE), engine
        assert (result.count, result.stats["raw_count"], result.count_exact) == (orbits, raw, True), engine


@settings(max_examples=4, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(20, 30))
def test_suffix_sets_and_listing_agree(rng: random.Random, n: int) -> None:
    words = rng.sample(ALL_SHORT, n)
    counts = {e: api.solve(small_spec(words, task="count_suffix_sets"), engine=e).count for e in ENGINES}
    assert len(set(counts.values())) == 1, counts
    listed = {}
    for engine in ENGINES:
        spec = small_spec(words, task="enumerate", limit=None)
        result = api.solve(spec, engine=engine)
        assert verify.check(spec, result) == []
        # every engine lists each orbit's lex-leader: the same boards, token for token
        listed[engine] = (result.count, sorted(tuple(s.tokens.values()) for s in result.solutions))
    assert listed["native"] == listed["cpsat"] == listed["sat"]


def test_solve_counts_fillings_alike() -> None:
    words = random.Random(5).sample(ALL_SHORT, 40)
    board = api.solve(small_spec(words, task="generate"), engine="native").solutions[0]
    suffixes = {k: v for k, v in board.tokens.items() if k.startswith("s_")}
    found = {}
    for engine in ENGINES:
        spec = small_spec(words, task="solve", suffixes=suffixes, limit=None)
        result = api.solve(spec, engine=engine)
        assert verify.check(spec, result) == []
        found[engine] = (result.count, sorted(tuple(sorted(s.tokens.items())) for s in result.solutions))
    assert found["native"] == found["cpsat"] == found["sat"]
    assert found["native"][0] == len(found["native"][1]) > 0


def test_generate_is_reproducible_and_checked() -> None:
    words = random.Random(5).sample(ALL_SHORT, 40)
    for engine in ENGINES:
        spec = small_spec(words, task="generate", count=3, seed=7)
        first, second = api.solve(spec, engine=engine), api.solve(spec, engine=engine)
        assert first.status is Status.OPTIMAL and len(first.solutions) == 3
        assert verify.check(spec, first) == []
        assert [s.tokens for s in first.solutions] == [s.tokens for s in second.solutions]


def test_tokens_pruned_to_fixed_point() -> None:
    # 'b' starts two words but 'an' ends only 'ban' once 'tan' loses 't'... everything below 2 goes
    cuts = playable_cuts(["tan", "tin", "ban", "bin", "rot"], (1, 1), (2, 2), 2, 2)
    assert cuts == {("t", "an"), ("t", "in"), ("b", "an"), ("b", "in")}
    assert playable_cuts(["tan", "tin", "ban"], (1, 1), (2, 2), 2, 2) == set()


def test_count_colourings_small() -> None:
    # three slots, all different, from {1,2},{1,2},{1,2,3}: 2 ways for the first two, 1 left for the third
    full = [0b110, 0b101, 0b011]
    assert count_colourings([{1, 2}, {1, 2}, {1, 2, 3}], full) == 2
    assert count_colourings([{1, 2}, {1, 2}, {1, 2, 3}], [0, 0, 0]) == 12


def test_checker_catches_a_wrong_board() -> None:
    spec = small_spec(ALL_SHORT, task="generate")
    result = api.solve(spec, engine="native")
    bad = result.solutions[0].model_copy(deep=True)
    bad.tokens["c"] = "zz"
    assert verify.check_solution(spec, bad)


def test_default_board_checks_at_5k_scale() -> None:
    # 18 is a figure of the version-1 common-5k (docs/prefix_suffix_board.md): its copy is read
    spec = SPEC.model_validate({"kind": "prefix_suffix_board", "dictionary": common_v1(5000),
                                "task": "solve", "suffixes": {"s_n": "ce", "s_e": "ck", "s_s": "de", "s_w": "in"},
                                "limit": 3})
    result = api.solve(spec)
    assert result.status is Status.OPTIMAL and result.count == 18
    assert verify.check(spec, result) == []


def test_bad_input() -> None:
    with pytest.raises(InputError):
        api.solve(small_spec(ALL_SHORT, task="solve", suffixes={"s_x": "ab"}))
    with pytest.raises(InputError):
        api.solve({"kind": "prefix_suffix_board", "prefix_length": [4, 2]})
    with pytest.raises(InputError):
        api.solve({"kind": "prefix_suffix_board", "task": "solve"})


def test_cli(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    assert main(["board", "--dict", "common-5k", "--seed", "3"]) == 0
    assert "words:" in capsys.readouterr().out
    assert main(["board", "--dict", common_v1_file(2000, tmp_path), "--count"]) == 1  # no board: infeasible
    capsys.readouterr()
    assert main(["board", "--dict", common_v1_file(5000, tmp_path), "--solve", "s_n=ce,s_e=ck,s_s=de,s_w=in",
                 "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert Result.model_validate(payload).count == 18
    assert main(["board", "--solve", "s_n"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    out = tmp_path / "b.svg"
    assert main(["board", "--dict", "common-5k", "--seed", "1", "--svg", str(out)]) == 0
    assert out.read_text().startswith("<svg")


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("prefix_suffix_board*.yaml")), ids=lambda p: p.name)
def test_examples_solve(path) -> None:
    for spec in api.load(path):
        result = api.solve(spec)
        assert result.solved, result.message
        assert verify.check(spec, result) == []


@settings(max_examples=4, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(24, 34), st.booleans())
def test_counting_paths_agree_per_placement(rng: random.Random, n: int, distinct: bool) -> None:
    """Each way a solver engine counts one suffix placement gives the native figures: CP-SAT
    enumeration and its fallback to the native count (``few=0``), Ganak's projected count,
    and SAT enumeration of the fillings; and Ganak on the whole CNF gives the sum modulo symmetry."""
    from cpwords.engines import sat as sat_engine
    from cpwords.engines.budget import Budget
    from cpwords.puzzles.prefix_suffix_board import cpsat, native, sat

    words = rng.sample(ALL_SHORT, n)
    problem = build_problem(small_spec(words, task="count_boards", distinct_tokens=distinct))
    search = native.BoardSearch(problem)
    vectors, en = cpsat.placement_vectors(problem, Budget())
    assert en.complete
    # CP-SAT's placements hold every one that admits a board (the native search's may hold more)
    assert {v for v, c in search.placements() if search.fillings_count(v, c)} <= set(vectors)
    raw = orbits = 0
    for v in vectors:
        expected = native.count_placement(search, v)
        assert cpsat.count_placement(problem, v, search=search) == (expected, "enumeration")
        assert cpsat.count_placement(problem, v, few=0, search=search)[0] == expected
        assert sat.count_placement(problem, v) == expected
        cnf = sat.FillingsCnf(problem).cnf(v, False)
        listed = sat_engine.enumerate_models(cnf.model, cnf.projection(problem.layout.prefix_nodes), Budget())
        assert listed.count == expected.fillings
        raw, orbits = raw + expected.raw, orbits + expected.orbits
    assert raw == 8 * orbits
    # Ganak on the whole CNF with the board's lex-leader clauses: the count modulo symmetry in one
    # piece (the raw count in one piece takes seconds even here: that is why counts are split)
    assert sat.projected_board_count(problem, "board") == orbits


def test_sat_count_without_ganak_enumerates(monkeypatch: pytest.MonkeyPatch) -> None:
    from cpwords.engines import counting

    spec = small_spec(random.Random(3).sample(ALL_SHORT, 34), task="count_boards")
    with_ganak = api.solve(spec, engine="sat")
    monkeypatch.setattr(counting, "available", lambda: False)
    without = api.solve(spec, engine="sat")
    assert "no pyganak" in without.stats["method"] and "Ganak" in with_ganak.stats["method"]
    assert (without.count, without.stats["raw_count"]) == (with_ganak.count, with_ganak.stats["raw_count"])
    assert without.count == api.solve(spec, engine="native").count


def test_cpsat_lists_fillings_and_boards_of_a_big_dictionary() -> None:
    """The split listing reaches common-10k boards (the whole-board model found none in 30 s)."""
    suffixes = {"s_n": "ce", "s_e": "ck", "s_s": "de", "s_w": "in"}
    spec = SPEC.model_validate({"kind": "prefix_suffix_board", "dictionary": common_v1(5000), "task": "solve",
                                "suffixes": suffixes, "limit": None})  # figures of the version-1 common-5k
    listed = api.solve(spec, engine="cpsat")
    assert listed.status is Status.OPTIMAL and listed.count == len(listed.solutions) == 18
    assert verify.check(spec, listed) == []
    spec = SPEC.model_validate({"kind": "prefix_suffix_board", "dictionary": common_v1(5000), "task": "enumerate",
                                "limit": None})
    boards = {e: api.solve(spec, engine=e) for e in ("cpsat", "native")}
    assert boards["cpsat"].status is Status.OPTIMAL and boards["cpsat"].count == 111
    assert verify.check(spec, boards["cpsat"]) == []
    assert sorted(tuple(s.tokens.items()) for s in boards["cpsat"].solutions) == \
        sorted(tuple(s.tokens.items()) for s in boards["native"].solutions)


def test_a_native_count_runs_in_one_process_whatever_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kind's own count is one process: a run's workers (``budget.workers``, the spec's
    ``workers``) start no worker of the execution layer here (several workers are the cluster
    runner's, in shards: tests/test_cluster.py), and the kind reports no ``workers`` of its own."""
    from cpwords import puzzles
    from cpwords.engines.budget import Budget
    from cpwords.engines.parallel import parallel_map

    def no_workers(self: object) -> None:
        raise AssertionError("the kind started workers")

    monkeypatch.setattr(parallel_map, "_in_workers", no_workers)
    spec = SPEC.model_validate({"kind": "prefix_suffix_board", "dictionary": common_v1(5000), "task": "count_boards",
                                "workers": 2})  # figures of the version-1 common-5k
    result = puzzles.get("prefix_suffix_board").solve(spec, Budget(workers=2))
    assert (result.count, result.count_exact, result.stats["raw_count"]) == (111, True, 888)
    assert "workers" not in result.stats


@pytest.mark.timing  # it bounds seconds: run alone (see pyproject.toml)
@pytest.mark.sweep  # the README's command keeps the sharded counts' limits (tests/test_execution_layer.py)
def test_native_count_cut_short_reports_what_it_counted() -> None:
    """A count stopped by its time limit ends near it, with the boards of the placements it
    finished as a lower bound (not 0). The kind counts in this process; a sharded count's limit
    is tests/test_cluster.py's."""
    spec = SPEC.model_validate({"kind": "prefix_suffix_board", "dictionary": "common-40k", "task": "count_boards"})
    warm_cache(spec)  # the dictionary and its tokens loaded, not charged below
    with Stopwatch() as watch:
        result = api.solve(spec, time_limit=3.0)  # long enough for some placements on a busy machine
    # the clock bounds the limit; the placement counted when it came (one call that cannot stop
    # halfway), the check and the result are work
    watch.assert_within(3.0, 2.0, "a count in one process, 3 s")
    assert result.count_exact is False and result.stats["raw_count"] == 8 * (result.count or 0)
    # the boards of every placement finished are counted (a busy machine may finish none in 3 s)
    if result.stats["placements_searched"]:
        assert result.status is Status.FEASIBLE and result.count > 0, result.stats
