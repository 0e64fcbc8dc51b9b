"""Prefix/suffix boards: every edge joins a prefix slot and a suffix slot into a dictionary word.

Engines: ``native`` (propagation search, exact counting without listing), ``cpsat`` and ``sat``
(models with lex-leader symmetry breaking; counting by enumeration). Solvers are imported
inside :func:`solve`, so importing this package stays light.
"""

from __future__ import annotations

import os
import random
import time

from cpwords.puzzles.prefix_suffix_board.problem import BoardSolution, Problem, build_problem
from cpwords.puzzles.prefix_suffix_board.spec import PrefixSuffixBoardSpec
from cpwords.results import Result, Status

ENGINES = ("native", "cpsat", "sat")

__all__ = ["ENGINES", "BoardSolution", "solve"]


def solve(spec: PrefixSuffixBoardSpec) -> Result:
    """Run the spec's task with its engine.

    Raises
    ------
    InputError
        For a bad board file, dictionary or suffix.
    """
    problem = build_problem(spec)
    stats = {"prefix_tokens": len(problem.tokens.prefixes), "suffix_tokens": len(problem.tokens.suffixes),
             "words": len(problem.tokens.words), "group_size": len(problem.layout.group)}
    if spec.engine == "cpsat":
        from cpwords.puzzles.prefix_suffix_board.cpsat import solve_cpsat

        result = solve_cpsat(spec, problem)
    elif spec.engine == "sat":
        from cpwords.puzzles.prefix_suffix_board.sat import solve_sat

        result = solve_sat(spec, problem)
    else:
        result = solve_native(spec, problem)
    result.stats = stats | result.stats
    return result


def result_of(spec: PrefixSuffixBoardSpec, problem: Problem, boards: list[list[int]], *, complete: bool,
              count: int | None = None, count_exact: bool | None = None, stats: dict | None = None) -> Result:
    """A Result listing ``boards`` (X vectors); the status follows from ``complete`` and what was found."""
    status = Status.of_search(found=bool(boards or (count or 0) > 0), complete=complete)
    message = None
    if status is Status.INFEASIBLE:
        message = no_board_message(spec)
    elif status is Status.UNKNOWN:
        message = "time limit reached before any board was found"
    return Result(kind=spec.kind, status=status, engine=spec.engine, task=spec.task,
                  solutions=[problem.solution(b) for b in boards], count=count, count_exact=count_exact,
                  stats=stats or {}, message=message)


def no_board_message(spec: PrefixSuffixBoardSpec) -> str:
    """Why a search found nothing, in words."""
    if spec.task == "solve":
        return "no prefixes fit these suffixes: some prefix slot has no prefix making a word with all its suffixes"
    return (f"no board exists for {spec.dictionary.label()} with prefix length {list(spec.prefix_length)} "
            f"and suffix length {list(spec.suffix_length)}" + (" and distinct tokens" if spec.distinct_tokens else ""))


def count_result(spec: PrefixSuffixBoardSpec, problem: Problem, raw: int, orbits: int, complete: bool,
                 stats: dict) -> Result:
    """A counting Result: ``count`` modulo symmetry, ``stats.raw_count`` the raw number."""
    status = Status.of_search(found=bool(orbits), complete=complete)
    message = None
    if status is Status.INFEASIBLE:
        message = no_board_message(spec)
    elif not complete:
        message = "time limit reached: the count is a lower bound"
    return Result(kind=spec.kind, status=status, engine=spec.engine, task=spec.task, count=orbits,
                  count_exact=complete, stats={"raw_count": raw} | stats, message=message)


def solve_native(spec: PrefixSuffixBoardSpec, problem: Problem) -> Result:
    """The native engine: search, exact counting, listing and random generation."""
    from cpwords.puzzles.prefix_suffix_board import native

    deadline = None if spec.time_limit is None else time.monotonic() + spec.time_limit
    search = native.BoardSearch(problem, deadline=deadline)
    workers = spec.workers or min(os.cpu_count() or 1, 8)
    group_size = len(problem.layout.group)
    if spec.task in ("count_boards", "count_suffix_sets"):
        tally = native.count(search, spec.task, workers)
        stats = {"workers": workers, "placements_searched": tally.placements}
        if spec.task == "count_boards":
            if tally.complete and tally.raw % group_size:
                raise AssertionError("raw count is not a multiple of the group size")
            stats["suffix_sets"] = tally.suffix_sets
            return count_result(spec, problem, tally.raw, tally.raw // group_size, tally.complete, stats)
        return count_result(spec, problem, tally.raw, tally.suffix_sets, tally.complete, stats)
    if spec.task == "solve":
        vector = tuple(problem.fixed_suffixes[n] for n in search.suffix_nodes)
        placed = next(search.placements(), None)
        if placed is None:
            return result_of(spec, problem, [], complete=True, count=0, count_exact=True)
        candidates = placed[1]
        total = search.fillings_count(vector, candidates)
        boards = []
        for prefixes in search.fillings(vector, candidates):
            if spec.limit is not None and len(boards) >= spec.limit:
                break
            boards.append(search.board(vector, prefixes))
        return result_of(spec, problem, boards, complete=True, count=total, count_exact=True)
    if spec.task == "enumerate":
        boards, complete = native.enumerate_boards(search, spec.limit)
        return result_of(spec, problem, boards, complete=complete, count=len(boards), count_exact=complete)
    rng = random.Random(spec.seed)
    boards, exhausted = native.random_boards(search, spec.count, rng)
    return result_of(spec, problem, boards, complete=exhausted or len(boards) == spec.count)
