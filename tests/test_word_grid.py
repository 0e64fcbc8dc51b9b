"""Word grids: engines agree, counts by sum-product equal enumeration, answers pass verify, CLI."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest
from conftest import shared_file
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cpwords
from cpwords import verify
from cpwords.cli import main
from cpwords.puzzles.word_grid.count import count_grids, set_partitions
from cpwords.puzzles.word_grid.native_tasks import enumerate_grids
from cpwords.puzzles.word_grid.problem import prepare
from cpwords.puzzles.word_grid.spec import WordGridSpec as SPEC
from cpwords.puzzles.word_grid.unscramble import swaps_of
from cpwords.results import Result, Status

RING = "rows: ['...', '.#.', '...']\nfixed: [[1, 1], [1, 3], [3, 1], [3, 3]]\n"
THREE = ["cat", "car", "tar", "ate", "tea", "rat", "art", "ear", "era", "are", "act", "arc", "eat", "tee", "ore",
         "toe", "roe", "ace", "tic", "ice", "rot", "cot", "orc", "tor", "ire", "tie", "rec", "cor"]


@pytest.fixture(scope="module")
def ring(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("shapes") / "ring.yaml"
    path.write_text(RING)
    return str(path)


def spec_of(**fields: object):
    return SPEC.model_validate({"kind": "word_grid", **fields})


def solve_checked(spec, **kw: object) -> Result:
    result = cpwords.solve(spec, **kw)
    assert verify.check(spec, result) == [], verify.check(spec, result)
    return result


def test_set_partitions_are_bell_numbers() -> None:
    assert [len(list(set_partitions(list(range(n))))) for n in range(1, 7)] == [1, 2, 5, 15, 52, 203]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.sampled_from(THREE), min_size=3, max_size=14, unique=True), distinct=st.booleans())
def test_engines_agree_on_counts(ring: str, words: list[str], distinct: bool) -> None:
    spec = spec_of(shape=ring, dictionary={"words": words}, task="count", distinct_words=distinct)
    problem = prepare(spec)
    formula = count_grids(problem)
    _, count, raw, complete, _ = enumerate_grids(problem, keep=False)
    assert complete and (formula.raw, formula.modulo_symmetry) == (raw, count)
    for engine in ("cpsat", "sat", "native"):
        result = cpwords.solve(spec, engine=engine)
        assert (result.count, result.stats["raw_count"]) == (count, raw), engine
        assert result.count_exact is True
        assert result.status == (Status.OPTIMAL if count else Status.INFEASIBLE)
    listed = cpwords.solve(spec_of(shape=ring, dictionary={"words": words}, task="enumerate",
                                   distinct_words=distinct, limit=None), engine="cpsat")
    assert listed.count == count and verify.check(spec, listed) == []
    assert len({tuple(s.rows) for s in listed.solutions}) == count
    listed_sat = cpwords.solve(spec_of(shape=ring, dictionary={"words": words}, task="enumerate",
                                       distinct_words=distinct, limit=None), engine="sat")
    assert {tuple(s.rows) for s in listed_sat.solutions} == {tuple(s.rows) for s in listed.solutions}


TWO = ["at", "ta", "to", "ot", "it", "ti", "oi", "io", "on", "no", "in", "ni", "an", "na", "ai", "ia"]


@pytest.mark.parametrize("distinct", [True, False])
def test_burnside_with_symmetric_grids(tmp_path: Path, distinct: bool) -> None:
    """A full 2×2 grid: without distinct words some grids equal their transpose (fixed points)."""
    shape = tmp_path / "square.yaml"
    shape.write_text("rows: ['..', '..']\n")
    spec = spec_of(shape=str(shape), dictionary={"words": TWO}, task="count", distinct_words=distinct)
    problem = prepare(spec)
    formula = count_grids(problem)
    _, count, raw, complete, _ = enumerate_grids(problem, keep=False)
    assert complete and (formula.raw, formula.modulo_symmetry) == (raw, count)
    assert (formula.fixed_points["transpose"] > 0) == (not distinct)
    for engine in ("cpsat", "sat", "native"):
        result = cpwords.solve(spec, engine=engine)
        assert (result.count, result.stats["raw_count"]) == (count, raw), engine


def test_non_square_shape_has_no_transpose(tmp_path: Path) -> None:
    shape = tmp_path / "wide.yaml"
    shape.write_text("rows: ['...', '...']\n")
    words = ["abc", "def", "abf", "dec", "ad", "be", "cf", "fc", "ab", "ba"]  # any [a-z]+ strings will do
    spec = spec_of(shape=str(shape), dictionary={"words": words}, task="count")
    problem = prepare(spec)
    assert [g.name for g in problem.group] == ["identity"]
    results = {e: cpwords.solve(spec, engine=e) for e in ("cpsat", "sat", "native")}
    assert len({(r.count, r.stats["raw_count"]) for r in results.values()}) == 1
    assert results["native"].count == results["native"].stats["raw_count"] == 2


def test_sum_product_equals_enumeration_on_gridle_subsample() -> None:
    words = shared_file("gridle-words-5.txt").read_text().split()[:400]
    for distinct in (True, False):
        problem = prepare(spec_of(dictionary={"words": words}, distinct_words=distinct))
        formula = count_grids(problem)
        _, count, raw, complete, _ = enumerate_grids(problem, keep=False)
        assert complete and formula.raw == raw and formula.modulo_symmetry == count
        assert formula.raw == 2 * formula.modulo_symmetry - formula.fixed_points["transpose"]


def test_full_gridle_count() -> None:
    path = shared_file("gridle-words-5.txt")
    result = cpwords.solve(spec_of(dictionary={"path": str(path)}, task="count"), engine="native")
    assert result.stats["method"] == "sum-product"
    assert result.stats["words"] == {5: 2315}
    # Distinct words: no grid equals its transpose, so raw = 2 × modulo symmetry.
    assert (result.count, result.stats["raw_count"]) == (168_239_310, 336_478_620)


# CP-SAT's generate on the whole list takes seconds (engines agree on generate: test_common_objective_engines_agree)
@pytest.mark.parametrize("engine", [pytest.param("cpsat", marks=pytest.mark.sweep), "sat", "native"])
def test_generate_distinct_grids(engine: str) -> None:
    path = shared_file("gridle-words-5.txt")
    spec = spec_of(dictionary={"path": str(path)}, task="generate", count=2, seed=5)
    result = solve_checked(spec, engine=engine)
    assert result.status == Status.OPTIMAL and len(result.solutions) == 2
    assert result.solutions[0].rows != result.solutions[1].rows
    for sol in result.solutions:
        assert len(set(sol.words)) == 6
    again = cpwords.solve(spec, engine=engine)
    assert [s.rows for s in again.solutions] == [s.rows for s in result.solutions]  # same seed, same grids


@pytest.mark.parametrize("engine", ["cpsat", "sat", "native"])
def test_fill_respects_given(engine: str) -> None:
    spec = spec_of(task="fill", given=["crane", "?#?#?", "?????", "?#?#?", "????s"])
    result = solve_checked(spec, engine=engine)
    assert result.status == Status.OPTIMAL
    rows = result.solutions[0].rows
    assert rows[0] == "crane" and rows[4][4] == "s"


def test_common_objective_engines_agree(ring: str) -> None:
    spec = spec_of(shape=ring, dictionary={"words": THREE}, task="generate", objective="common", count=2)
    a = solve_checked(spec, engine="cpsat")
    b = solve_checked(spec, engine="native")
    assert a.objective == b.objective
    assert [s.rareness for s in a.solutions] == [s.rareness for s in b.solutions]


def test_infeasible_has_reason(ring: str) -> None:
    spec = spec_of(shape=ring, dictionary={"words": ["cat", "dog"]}, task="generate")
    for engine in ("cpsat", "sat", "native"):
        result = cpwords.solve(spec, engine=engine)
        assert result.status == Status.INFEASIBLE and result.message


def test_swaps_of_moves_every_item() -> None:
    for perm in itertools.permutations(range(5)):
        items = list("abcde")
        for a, b in swaps_of(list(perm)):
            items[a], items[b] = items[b], items[a]
        assert items == ["abcde"[perm[j]] for j in range(5)]


def _min_swaps_brute(scrambled: list[str], target: list[str]) -> int:
    n = len(scrambled)
    best = None
    for perm in itertools.permutations(range(n)):
        if all(scrambled[perm[j]] == target[j] for j in range(n)):
            best = len(swaps_of(list(perm))) if best is None else min(best, len(swaps_of(list(perm))))
    return best


def test_unscramble_is_minimal_by_brute_force(ring: str) -> None:
    words = THREE
    problem = prepare(spec_of(shape=ring, dictionary={"words": words}, distinct_words=True))
    problem.group = [g for g in problem.group if g.is_identity]
    grids, *_ = enumerate_grids(problem)
    assert grids
    movable = [i for i, (r, c) in enumerate(problem.cells) if (r + 1, c + 1) not in problem.shape.fixed]
    checked = 0
    for grid in grids[:6]:
        rows = problem.rows_of(grid)
        letters = [rows[r][c] for r, c in problem.cells]
        # scramble: rotate the movable letters by one
        moved = letters[:]
        for k, i in enumerate(movable):
            moved[i] = letters[movable[(k + 1) % len(movable)]]
        scrambled = problem.rows_of(moved)
        spec = spec_of(shape=ring, dictionary={"words": words}, task="unscramble", scrambled=scrambled)
        result = solve_checked(spec)
        assert result.status == Status.OPTIMAL
        sol = result.solutions[0]
        assert Counter("".join(sol.rows)) == Counter("".join(scrambled))
        # brute force: every valid grid with the same letters and fixed cells needs at least as many swaps
        best = None
        for other in grids:
            orows = problem.rows_of(other)
            target = [orows[problem.cells[i][0]][problem.cells[i][1]] for i in movable]
            source = [scrambled[problem.cells[i][0]][problem.cells[i][1]] for i in movable]
            fixed_ok = all(orows[r - 1][c - 1] == scrambled[r - 1][c - 1] for r, c in problem.shape.fixed)
            if fixed_ok and Counter(target) == Counter(source):
                k = _min_swaps_brute(source, target)
                best = k if best is None else min(best, k)
        assert best is not None and len(sol.swaps) == best == result.objective
        checked += 1
    assert checked


def test_checker_catches_errors() -> None:
    spec = spec_of(task="fill", given=["crane", "?#?#?", "?????", "?#?#?", "?????"])
    result = cpwords.solve(spec, engine="native")
    sol = result.solutions[0].model_copy(deep=True)
    sol.rows[0] = "crone"
    assert verify.check_solution(spec, sol)
    sol = result.solutions[0].model_copy(deep=True)
    sol.rows[1] = "x" + sol.rows[1][1:]
    assert verify.check_solution(spec, sol)


def test_cli_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str], ring: str) -> None:
    assert main(["grid", "--seed", "1", "--engine", "native", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    result = Result.model_validate(data)
    assert result.kind == "word_grid" and len(result.solutions) == 1
    words = tmp_path / "w.txt"
    words.write_text("cat\ndog\n")
    assert main(["grid", "--shape", ring, "--dict", str(words), "--engine", "native"]) == 1
    capsys.readouterr()
    partial = tmp_path / "p.txt"
    partial.write_text("crane\n?#?#?\n???\n")
    assert main(["grid", "--fill", str(partial)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert main(["grid", "--shape", "nope-3x3"]) == 2
    assert "unknown grid shape" in capsys.readouterr().err
    svg = tmp_path / "g.svg"
    assert main(["grid", "--seed", "2", "--engine", "native", "--svg", str(svg)]) == 0
    assert svg.read_text().startswith("<svg")


def test_sat_refuses_common_objective() -> None:
    from cpwords.errors import InputError

    with pytest.raises(InputError, match="common"):
        cpwords.solve({"kind": "word_grid", "objective": "common", "engine": "sat"})


def test_bad_spec_fields() -> None:
    with pytest.raises(Exception, match="unscramble"):
        spec_of(task="unscramble")
    from cpwords.errors import InputError

    with pytest.raises(InputError):
        cpwords.solve({"kind": "word_grid", "given": ["cr?ne"]})


def test_threads_are_cpsats_search_workers(ring: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``threads`` is CP-SAT's search workers in this process (not the run's ``workers``): two
    threads give valid grids for generate and for the least rare fill, and reach CP-SAT; the
    defaults are 1 (generate) and CP-SAT's own (objective common); a bad value is a one-line input
    error; ``cpwords schema`` documents the field."""
    from cpwords.engines import cpsat as engine

    asked: list[int | None] = []
    solve = engine.solve

    def recording(*args: object, **kw: object) -> object:
        asked.append(kw.get("workers"))
        return solve(*args, **kw)

    monkeypatch.setattr(engine, "solve", recording)
    base = {"shape": ring, "dictionary": {"words": THREE}, "engine": "cpsat", "seed": 3}
    for fields in ({"task": "generate", "count": 2}, {"task": "fill", "objective": "common", "given": ["c??", "?#?", "???"]}):
        for threads, default in ((2, 2), (None, 1 if "objective" not in fields else None)):
            asked.clear()
            result = solve_checked(spec_of(**base, **fields, threads=threads))
            assert result.solutions and result.status in (Status.OPTIMAL, Status.FEASIBLE), fields
            assert asked and set(asked) == {default}, (fields, threads, asked)
    bad = tmp_path / "bad.yaml"
    for value in ("0", "two"):
        bad.write_text(f"kind: word_grid\nengine: cpsat\nthreads: {value}\n")
        assert main(["solve", str(bad)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "threads" in err and "Traceback" not in err, err
    assert main(["schema", "word_grid"]) == 0
    schema = capsys.readouterr().out
    assert "threads" in schema and "CP-SAT search workers (threads)" in schema


def test_cli_fill_and_unscramble_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    partial = tmp_path / "partial.yaml"
    partial.write_text("rows: ['crane', '?#?#?', '?????', '?#?#?', '?????']\n")
    assert main(["grid", "--fill", str(partial), "--json"]) == 0
    result = Result.model_validate(json.loads(capsys.readouterr().out))
    assert result.solutions[0].rows[0] == "crane"
    scrambled = tmp_path / "scrambled.txt"
    scrambled.write_text("aobut\ng#t#a\nauhes\ni#e#t\nnsrse\n")
    assert main(["grid", "--unscramble", str(scrambled), "--json"]) == 0
    result = Result.model_validate(json.loads(capsys.readouterr().out))
    assert result.objective == 2 and result.solutions[0].rows[0] == "about"
    scrambled.write_text("zzzzz\nz#z#z\nzzzzz\nz#z#z\nzzzzz\n")
    assert main(["grid", "--unscramble", str(scrambled)]) == 1
    assert "no valid grid" in capsys.readouterr().out


@pytest.mark.parametrize("distinct", [True, False])
def test_7x7_count_stopped_by_the_time_limit_says_how_far_it_got(distinct: bool) -> None:
    """The 7×7 Gridle count is a sum-product now (about a minute here): half a second stops it on
    any machine, with no exact claim; repeats allowed give a proven lower bound from the sum-product.
    With distinct words a partial sum-product bounds nothing, and one that cannot finish in the time
    left is not started (issue 24, item 5): the grids listed one by one bound the count instead
    (the refusal itself: tests/test_grid_count_limits.py). The busier the machine, the earlier the
    stop: one during the planning has nothing to bound yet, and says so."""
    path = shared_file("gridle-words-7.txt")
    spec = spec_of(shape="gridle-7x7", dictionary={"path": str(path)}, task="count", time_limit=0.5,
                   distinct_words=distinct)
    result = solve_checked(spec, engine="native")
    assert result.stats["stopped"] == "time_limit"
    assert result.status in (Status.FEASIBLE, Status.UNKNOWN) and result.message
    assert result.message.startswith("the time limit was reached")
    assert not result.count_exact
    if result.count is None:
        assert result.status == Status.UNKNOWN and "no bound to report yet" in result.message
    elif distinct:
        assert result.stats["method"] == "enumeration" and "sum-product" in result.message
        assert result.count_exact is False
        assert result.count <= result.stats["raw_count"] <= 1_968_870_389_818
    else:
        assert result.stats["method"] == "sum-product"
        assert result.stats["terms_done"] < result.stats["terms"]
        assert result.count_exact is False
        assert 0 <= result.count <= 1_968_870_389_818  # the exact figure (docs/word_grid.md)
        assert result.count >= result.stats["raw_count"] / 2


def test_count_falls_back_to_enumeration_when_too_large(monkeypatch: pytest.MonkeyPatch, ring: str) -> None:
    """A network the planner refuses is counted by enumeration: exact when it finishes."""
    from cpwords.puzzles.word_grid import native_tasks
    from cpwords.puzzles.word_grid.count import TooLargeToContract

    def refuse(*args: object, **kwargs: object) -> None:
        raise TooLargeToContract

    spec = spec_of(shape=ring, dictionary={"words": THREE}, task="count", distinct_words=False)
    expected = solve_checked(spec, engine="native")
    monkeypatch.setattr(native_tasks, "count_grids", refuse)
    result = solve_checked(spec, engine="native")
    assert result.stats["method"] == "enumeration" and expected.stats["method"] == "sum-product"
    assert (result.count, result.stats["raw_count"], result.count_exact) == \
        (expected.count, expected.stats["raw_count"], True)


FIVE = ["abcde", "bcdea", "cdeab", "aabbc", "abcab", "bacde", "edcba", "ccaab", "abeca", "caebd", "dbace"]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.sampled_from(THREE), min_size=4, max_size=16, unique=True), distinct=st.booleans(),
       given_corner=st.booleans())
def test_projected_model_count_equals_sum_product(ring: str, words: list[str], distinct: bool,
                                                  given_corner: bool) -> None:
    """Ganak's count of the SAT engine's counting CNF, per symmetry, equals the sum-product's
    Burnside fixed points (raw count included), with and without a given letter."""
    pytest.importorskip("pyganak")
    from cpwords.engines.counting import count_models
    from cpwords.puzzles.word_grid.sat import counting_cnf

    given_rows = ["a??", "?#?", "???"] if given_corner else None
    spec = spec_of(shape=ring, dictionary={"words": words}, task="count", distinct_words=distinct, given=given_rows)
    problem = prepare(spec)
    formula = count_grids(problem)
    for g, sym in enumerate(problem.group):
        assert count_models(*counting_cnf(problem, g)) == formula.fixed_points[sym.name], sym.name


def test_sat_engine_counts_by_projected_model_counting_on_the_5x5() -> None:
    """The Ganak half of the SAT engine's count, alone, on a small 5×5 list: same counts as the
    sum-product, through the worker pool; and the raced count agrees too."""
    pytest.importorskip("pyganak")
    from cpwords.engines.budget import Budget
    from cpwords.puzzles.word_grid import sat

    words = FIVE + ["aceca", "bdbdb", "ebcae"]
    for distinct in (False, True):
        spec = spec_of(dictionary={"words": words}, task="count", distinct_words=distinct)
        problem = prepare(spec)
        formula = count_grids(problem)
        found = sat.projected_count(problem, spec, Budget(None))
        assert found.complete and "Ganak" in found.stats["method"]
        assert (found.count, found.stats["raw_count"]) == (formula.modulo_symmetry, formula.raw)
        assert found.stats["fixed_points"] == formula.fixed_points
        result = solve_checked(spec, engine="sat")
        assert (result.count, result.stats["raw_count"], result.count_exact) == \
            (formula.modulo_symmetry, formula.raw, True)
