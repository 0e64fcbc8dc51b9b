"""Solving a prefix/suffix board spec: build the problem, run the engine's task, build the Result."""

from __future__ import annotations

import time
from typing import Any

from cpwords import puzzles
from cpwords.engines.budget import Budget
from cpwords.puzzles.prefix_suffix_board.problem import build_problem
from cpwords.puzzles.prefix_suffix_board.spec import PrefixSuffixBoardSpec
from cpwords.results import Result


def solve(spec: PrefixSuffixBoardSpec, budget: Budget) -> Result:
    """Run the spec's task with its engine, within ``budget``.

    For the counting tasks, ``count`` is the number modulo the board's symmetry and
    ``stats.raw_count`` the raw number.

    Raises
    ------
    InputError
        For a bad board file, dictionary or suffix.
    """
    t0 = time.perf_counter()
    problem = build_problem(spec)
    stats: dict[str, Any] = {
        "dictionary": spec.dictionary.label(), "prefix_tokens": len(problem.tokens.prefixes),
        "suffix_tokens": len(problem.tokens.suffixes), "words": len(problem.tokens.words),
        "group_size": len(problem.layout.group), "prepare_s": round(time.perf_counter() - t0, 6)}
    t1 = time.perf_counter()
    if spec.task == "generate" and spec.max_completions:
        from cpwords.puzzles.prefix_suffix_board.fair import fair_boards

        found = fair_boards(problem, spec, budget)
    else:
        found = puzzles.get(spec.kind).run(problem, spec, budget)
    found.stats.setdefault("search_s", round(time.perf_counter() - t1, 6))
    if spec.task == "generate":
        from cpwords.puzzles.prefix_suffix_board.fair import rated_solution

        solutions = found.convert(lambda answer: rated_solution(problem, answer), budget)
    else:
        solutions = found.convert(problem.solution, budget)
    return Result.from_search(spec, found, solutions, infeasible=no_board_message(spec), what="board", stats=stats,
                              asked=spec.count if spec.task == "generate" else None)


def no_board_message(spec: PrefixSuffixBoardSpec) -> str:
    """Why a search found nothing, in words."""
    if spec.task == "solve":
        return "no prefixes fit these suffixes: some prefix slot has no prefix making a word with all its suffixes"
    return (f"no board exists for {spec.dictionary.label()} with prefix length {list(spec.prefix_length)} "
            f"and suffix length {list(spec.suffix_length)}" + (" and distinct tokens" if spec.distinct_tokens else ""))
