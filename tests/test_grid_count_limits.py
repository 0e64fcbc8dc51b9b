"""Open word-grid counts keep the time limit, in bounded memory (issue 24, item 5).

An open grid (no black cell) makes every cell a crossing: the sum-product's networks are far
too large. With ``--time-limit 3`` an open 5×5 count took 7–14 s and 6 GB to find that out (the
leaves of a six-letter cut grown all at once) and an open 6×6 one 42–52 s and 2.4 GB (its 4.2
million partitions of twelve slots listed before anything was planned). Now the term that counts
the grids themselves is planned first and in bounded memory; with distinct words and a time
limit a sum-product that cannot finish is not started, and the grids listed one by one bound the
count from below.

The commands run as a user runs them, after a first run that puts the dictionary into the cache;
the whole command must end within the limit plus a second on top of what starting Python takes
on this machine, as in tests/test_time_limits.py (marked ``timing`` the same way: it runs alone,
after the other tests; the second and the start-up are processor work, stretched by the machine's
contention: tests/pace.py). The README's test command keeps the open 5×5 in ``--json``; the other
three are marked ``sweep``.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pace import Stopwatch, run_cpwords, startup_cpu_s, warm_cache_of_command

import cpwords
from cpwords.engines.budget import Budget
from cpwords.puzzles.word_grid import count_cut, count_dense
from cpwords.puzzles.word_grid.count import BeyondTimeLeft, grids_plan, set_partitions, slot_partitions
from cpwords.puzzles.word_grid.count_network import Factor, word_arrays
from cpwords.puzzles.word_grid.problem import prepare
from cpwords.puzzles.word_grid.spec import WordGridSpec
from cpwords.results import Result

LIMIT = 2.0
#: The promise: the limit plus a second for printing, checking and stopping (start-up aside).
MARGIN = 1.0


def _open_shape(folder: Path, n: int) -> Path:
    path = folder / f"open{n}.yaml"
    path.write_text(f"name: open{n}\nrows:\n" + "".join(f'  - "{"." * n}"\n' for _ in range(n)))
    return path


def _run(argv: list[str], limit: float) -> tuple[Stopwatch, Any]:
    with Stopwatch() as watch:
        run = run_cpwords([*argv, "--time-limit", str(limit)])
    return watch, run


# ---------------------------------------------------------------- the whole command


@pytest.mark.parametrize(("n", "json_mode"), [
    pytest.param(n, json_mode, id=f"{n}-{'json' if json_mode else 'text'}",
                 marks=[pytest.mark.timing] + ([] if (n, json_mode) == (5, True) else [pytest.mark.sweep]))
    for n in (5, 6) for json_mode in (False, True)])
def test_an_open_grid_count_keeps_the_limit_and_says_so(n: int, json_mode: bool, tmp_path: Path) -> None:
    argv = ["grid", "--shape", str(_open_shape(tmp_path, n)), "--count"]
    warm_cache_of_command(argv)  # the dictionary's word lists into the cache, as on a second use
    watch, run = _run(argv + (["--json"] if json_mode else []), LIMIT)
    assert run.returncode in (0, 1), run.stderr[-3000:]
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    if json_mode:
        result = Result.model_validate(json.loads(run.stdout))
        assert result.status in ("feasible", "unknown")
        assert result.count_exact is False and result.count is not None and result.count >= 0
        assert result.message and result.message.startswith("the time limit was reached"), result.message
        assert result.stats["method"] == "enumeration" and result.stats["stopped"] == "time_limit"
    else:
        assert "the time limit was reached" in run.stdout and "(at least)" in run.stdout, run.stdout
        assert "optimal" not in run.stdout
    watch.assert_within(LIMIT, startup_cpu_s() + MARGIN, f"open {n}×{n}")


# ---------------------------------------------------------------- what keeps it within the limit


@pytest.fixture(scope="module")
def open4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _open_shape(tmp_path_factory.mktemp("open"), 4)


def test_a_count_that_cannot_finish_in_the_time_left_is_not_started(open4: Path) -> None:
    """The open 4×4's own term alone is estimated at about 10 s of work: with distinct words and
    2 s left the planner refuses it (estimated, or planning took its share of the time); without
    a deadline, or with repeats allowed (a partial sum is a lower bound), it is planned."""
    problem = prepare(WordGridSpec(shape=str(open4), task="count", engine="native"))
    arrays = word_arrays(problem)
    with pytest.raises(BeyondTimeLeft) as refused:
        grids_plan(problem, arrays, Budget(2.0), workers=1)
    assert refused.value.seconds > refused.value.left
    assert grids_plan(problem, arrays, None).leaves >= 1
    assert grids_plan(problem, arrays, Budget(2.0), workers=None).leaves >= 1  # shards: no refusal by time
    repeats = prepare(WordGridSpec(shape=str(open4), task="count", engine="native", distinct_words=False))
    assert grids_plan(repeats, word_arrays(repeats), Budget(2.0), workers=1).leaves >= 1


def test_a_count_that_finishes_in_time_is_still_exact(tmp_path: Path) -> None:
    """The refusal looks at the estimate: a small open grid is counted exactly within its limit,
    the same count as without one."""
    words = ["ab", "ba", "aa", "bb", "ca", "ac", "cc", "bc", "cb"]
    spec = {"kind": "word_grid", "shape": str(_open_shape(tmp_path, 2)), "task": "count", "engine": "native",
            "dictionary": {"words": words}}
    free, limited = cpwords.solve(spec), cpwords.solve({**spec, "time_limit": 60})
    assert limited.stats["method"] == free.stats["method"] == "sum-product"
    assert (limited.count, limited.stats["raw_count"], limited.count_exact) == \
        (free.count, free.stats["raw_count"], True)
    assert limited.status == "optimal"


@st.composite
def _factors(draw: st.DrawFn) -> tuple[list[Factor], int, int]:
    nvars = draw(st.integers(2, 5))
    size = draw(st.integers(2, 4))
    factors = []
    for _ in range(draw(st.integers(1, 4))):
        vars_ = tuple(draw(st.lists(st.integers(0, nvars - 1), min_size=1, max_size=3, unique=True)))
        rows = draw(st.lists(st.tuples(*[st.integers(0, size - 1)] * len(vars_)), min_size=1, max_size=12,
                             unique=True))
        factors.append(Factor(vars_, np.array(rows, dtype=np.int64), np.ones(len(rows), dtype=np.int64)))
    return factors, nvars, size


@settings(max_examples=60, deadline=None)
@given(case=_factors(), expand=st.integers(1, 9), lookup=st.booleans())
def test_cut_leaves_listed_in_pieces_are_every_consistent_assignment(case: tuple[list[Factor], int, int],
                                                                     expand: int, lookup: bool) -> None:
    """The leaves grown a few rows at a time (table or search for the allowed codes) are exactly
    the assignments of the cut that every factor's projection allows, in lexicographic order."""
    factors, nvars, size = case
    cut = sorted({v for f in factors for v in f.vars})[:3]
    dom = np.ones((nvars, size), dtype=bool)
    mp = pytest.MonkeyPatch()
    mp.setattr(count_cut, "EXPAND_ROWS", expand)
    mp.setattr(count_cut, "LOOKUP_CODES", 1 << 24 if lookup else 0)
    try:
        leaves = count_cut._cut_leaves(factors, cut, dom)
        few = count_cut._cut_leaves(factors, cut, dom, limit=0)
    finally:
        mp.undo()
    allowed = []
    for letters in itertools.product(range(size), repeat=len(cut)):
        value = dict(zip(cut, letters, strict=True))
        if all({tuple(value[v] for v in f.vars if v in value)}
               <= {tuple(int(x) for x, v in zip(row, f.vars, strict=True) if v in value) for row in f.letters}
               for f in factors if any(v in value for v in f.vars)):
            allowed.append(letters)
    assert leaves is not None and [tuple(int(x) for x in row) for row in leaves] == allowed
    assert few is None if allowed else (few is None or len(few) == 0)


def test_a_step_over_several_tensors_reports_what_it_makes(monkeypatch: pytest.MonkeyPatch) -> None:
    """np.einsum_path's greedy order may join four tensors in one step and call its largest
    intermediate 1 element; the plan's figure is what the contraction really makes, so that the
    memory cap on dense plans holds."""
    var_lists: list[tuple[int, ...]] = [(0, 1, 2), (2, 3, 4), (4, 5, 0), (1, 3, 5)]
    sizes = dict.fromkeys(range(6), 6)
    path, _flops, largest = count_dense.einsum_plan(var_lists, sizes, optimal=False)
    made: list[int] = []
    pair = count_dense._pair

    def recording(*args: object) -> tuple[tuple[int, ...], np.ndarray]:
        out = pair(*args)  # type: ignore[arg-type]
        made.append(out[1].size)
        return out

    monkeypatch.setattr(count_dense, "_pair", recording)
    rng = np.random.default_rng(1)
    ops: list[tuple[tuple[int, ...], np.ndarray]] = [(vs, rng.integers(0, 3, size=[6] * 3).astype(np.float64))
                                                     for vs in var_lists]
    value = count_dense.contract(ops, path)
    assert value == int(np.einsum("abc,cde,efa,bdf->", *[o for _, o in ops]))
    assert made and largest >= max(made)


def test_partitions_come_in_the_same_order_as_before(tmp_path: Path) -> None:
    """Shards are named after their terms' partitions: generating the first group's partitions
    lazily must not change their order (all groups' partitions, the first group outermost)."""
    shape = tmp_path / "two-lengths.yaml"
    shape.write_text('rows:\n  - "....."\n  - ".#.#."\n  - "....."\n')
    problem = prepare(WordGridSpec.model_validate({
        "kind": "word_grid", "shape": str(shape), "task": "count", "engine": "native",
        "dictionary": {"words": ["abcde", "aaaaa", "edcba", "ada", "bob", "aba"]}}))
    groups: dict[int, list[int]] = {}
    for s, slot in enumerate(problem.slots):
        groups.setdefault(len(slot), []).append(s)
    assert len(groups) == 2
    eager = [sum(parts, []) for parts in itertools.product(*[list(set_partitions(g)) for g in groups.values()])]
    assert [p for _mu, p in slot_partitions(problem)] == eager


def test_a_sum_product_out_of_its_share_of_the_time_leaves_the_rest_to_listing(monkeypatch: pytest.MonkeyPatch,
                                                                               tmp_path: Path) -> None:
    """With distinct words and a time limit the sum-product gets 80% of the time; stopped there
    (it bounds nothing), the rest lists grids: here all of them, so the count is exact again."""
    from cpwords.engines.budget import SearchTimeout
    from cpwords.puzzles.word_grid import native_tasks

    shape = tmp_path / "ring.yaml"
    shape.write_text("rows: ['...', '.#.', '...']\n")
    spec = {"kind": "word_grid", "shape": str(shape), "task": "count", "engine": "native",
            "dictionary": {"words": ["cat", "car", "tar", "ate", "tea", "rat", "art", "ear", "era", "are", "act"]}}
    truth = cpwords.solve(spec)
    given: list[float] = []

    def out_of_its_share(problem: object, *, budget: Budget, **kw: object) -> None:
        given.append(budget.left() or 0.0)
        raise SearchTimeout("time_limit")  # as at the end of its share, at once: no waiting

    monkeypatch.setattr(native_tasks, "count_grids", out_of_its_share)
    result = cpwords.solve({**spec, "time_limit": 60.0})  # far more than listing the grids takes anywhere
    assert given and given[0] <= 0.8 * 60.0 + 0.01
    assert result.stats["method"] == "enumeration" and result.status == "optimal"
    assert (result.count, result.stats["raw_count"], result.count_exact) == (truth.count, truth.stats["raw_count"], True)
