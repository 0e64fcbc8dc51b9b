"""The word-grid tasks on the native engine: bitset backtracking, sum-product counting."""

from __future__ import annotations

import random
import time

from cpwords.geometry import canonical_form, is_lex_leader
from cpwords.puzzles.word_grid import grid_result
from cpwords.puzzles.word_grid.count import TooLargeToContract, count_grids
from cpwords.puzzles.word_grid.native import GridSearch, SearchTimeout
from cpwords.puzzles.word_grid.problem import GridProblem, shuffled_order
from cpwords.results import Result, Status

#: Fresh random restarts allowed per wanted grid before ``generate`` gives up finding new ones.
RESTARTS_PER_GRID = 20


def _deadline(spec) -> float | None:  # noqa: ANN001
    return None if spec.time_limit is None else time.monotonic() + spec.time_limit


def frequency_orders(problem: GridProblem) -> dict[int, list[int]]:
    """Word ids in dictionary order (most frequent first)."""
    return {n: list(range(len(ws))) for n, ws in problem.words.items()}


def rareness_orders(problem: GridProblem) -> dict[int, list[int]]:
    """Word ids by increasing rareness (ties: more frequent first)."""
    return {n: sorted(range(len(ws)), key=lambda i, n=n: problem.rareness[n][i]) for n, ws in problem.words.items()}


def solve_native(spec, problem: GridProblem) -> Result:  # noqa: ANN001
    """Run one task with the native engine."""
    t0 = time.perf_counter()
    deadline = _deadline(spec)
    if spec.task == "count":
        return _count(spec, problem, deadline, t0)
    if spec.task == "enumerate":
        return _enumerate(spec, problem, deadline, t0)
    if spec.objective == "common":
        return _least_rare(spec, problem, deadline, t0)
    rng = random.Random(spec.seed)
    grids: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    nodes = 0
    status = Status.OPTIMAL
    message = None
    if spec.task == "fill":
        search = GridSearch(problem, frequency_orders(problem), deadline)
        try:
            for ids in search.solutions():
                key = canonical_form(problem.letters_of_words(ids), problem.group)
                if key not in seen:
                    seen.add(key)
                    grids.append(list(key))
                    if len(grids) == spec.count:
                        break
        except SearchTimeout:
            status = Status.FEASIBLE if grids else Status.UNKNOWN
        nodes = search.nodes
    else:
        attempts = 0
        while len(grids) < spec.count and attempts < RESTARTS_PER_GRID * spec.count:
            attempts += 1
            orders = {n: shuffled_order(len(ws), rng) for n, ws in problem.words.items()}
            search = GridSearch(problem, orders, deadline)
            try:
                ids = next(search.solutions(), None)
            except SearchTimeout:
                status = Status.FEASIBLE if grids else Status.UNKNOWN
                break
            finally:
                nodes += search.nodes
            if ids is None:
                break  # the search was complete: no grid at all
            key = canonical_form(problem.letters_of_words(ids), problem.group)
            if key not in seen:
                seen.add(key)
                grids.append(list(key))
        if status == Status.OPTIMAL and not grids:
            status = Status.INFEASIBLE
        elif status == Status.OPTIMAL and len(grids) < spec.count:
            status = Status.FEASIBLE  # random restarts cannot prove that no other grid exists
            message = (f"found {len(grids)} different grids of the {spec.count} asked for in {attempts} random "
                       "restarts; engine cpsat or task enumerate can list them all")
    if status == Status.UNKNOWN:
        message = "time limit reached before any grid was found"
    elif spec.task == "fill" and not grids and status == Status.OPTIMAL:
        status = Status.INFEASIBLE
    return grid_result(spec, problem, status=status, grids=grids, message=message,
                       stats={"nodes": nodes, "search_s": round(time.perf_counter() - t0, 6)})


def _least_rare(spec, problem: GridProblem, deadline: float | None, t0: float) -> Result:  # noqa: ANN001
    """The ``count`` least rare grids, one branch-and-bound search each (excluding earlier ones)."""
    grids: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    status = Status.OPTIMAL
    nodes = 0

    def accept(ids: list[int]) -> bool:
        letters = problem.letters_of_words(ids)
        return is_lex_leader(letters, problem.group) and tuple(letters) not in seen

    while len(grids) < spec.count:
        search = GridSearch(problem, rareness_orders(problem), deadline)
        ids, _cost, complete = search.least_rare(problem.rareness, accept)
        nodes += search.nodes
        if ids is not None:
            letters = problem.letters_of_words(ids)
            seen.add(tuple(letters))
            grids.append(letters)
        if not complete:
            status = Status.FEASIBLE if grids else Status.UNKNOWN
            break
        if ids is None:
            break
    if status == Status.OPTIMAL and not grids:
        status = Status.INFEASIBLE
    message = "time limit reached before any grid was found" if status == Status.UNKNOWN else None
    return grid_result(spec, problem, status=status, grids=grids, message=message,
                       stats={"nodes": nodes, "search_s": round(time.perf_counter() - t0, 6)})


def enumerate_grids(problem: GridProblem, deadline: float | None, limit: int | None = None,  # noqa: ANN201
                    keep: bool = True):
    """All lex-leader grids by backtracking: (kept grids, count, raw count, complete, nodes)."""
    from cpwords.display import progress

    search = GridSearch(problem, frequency_orders(problem), deadline)
    grids, count, raw, complete = [], 0, 0, True
    try:
        with progress("enumerating grids") as advance:
            for ids in search.solutions():
                raw += 1
                letters = problem.letters_of_words(ids)
                if not is_lex_leader(letters, problem.group):
                    continue
                count += 1
                advance(1)
                if not keep:
                    continue
                if limit is None or len(grids) < limit:
                    grids.append(letters)
                elif count > limit:
                    complete = False
                    break
    except SearchTimeout:
        complete = False
    return grids, count, raw, complete, search.nodes


def _enumerate(spec, problem: GridProblem, deadline: float | None, t0: float) -> Result:  # noqa: ANN001
    grids, count, raw, complete, nodes = enumerate_grids(problem, deadline, spec.limit)
    status = Status.of_search(found=bool(grids), complete=complete)
    return grid_result(spec, problem, status=status, grids=grids, count=count if complete else len(grids),
                       count_exact=complete, stats={"nodes": nodes})


def _count(spec, problem: GridProblem, deadline: float | None, t0: float) -> Result:  # noqa: ANN001
    try:
        counted = count_grids(problem)
    except TooLargeToContract:
        counted = None
    if counted is not None:
        status = Status.OPTIMAL if counted.raw else Status.INFEASIBLE
        return grid_result(spec, problem, status=status, grids=[], count=counted.modulo_symmetry, count_exact=True,
                           stats={"raw_count": counted.raw, "method": "sum-product",
                                  "fixed_points": counted.fixed_points, "contractions": counted.contractions})
    grids, count, raw, complete, nodes = enumerate_grids(problem, deadline, keep=False)
    raw_sum = raw
    status = Status.of_search(found=bool(count), complete=complete)
    return grid_result(spec, problem, status=status, grids=[], count=count, count_exact=complete,
                       stats={"raw_count": raw_sum, "method": "enumeration", "nodes": nodes},
                       message=None if complete else "time limit reached: the count is a lower bound")

