"""A prefix/suffix board spec's hooks of the registry's pipeline: build the problem; (draw fair
boards); turn what the engine found into the Result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.puzzles import Prepared
from cpwords.puzzles.prefix_suffix_board.problem import Problem, build_problem
from cpwords.puzzles.prefix_suffix_board.spec import PrefixSuffixBoardSpec
from cpwords.results import Result


def prepare(spec: PrefixSuffixBoardSpec, budget: Budget | None = None) -> Prepared:
    """The board, its tokens and the words they make.

    Raises
    ------
    InputError
        For a bad board file, dictionary or suffix.
    """
    problem = build_problem(spec)
    return Prepared(problem, {
        "dictionary": spec.dictionary.label(), "prefix_tokens": len(problem.tokens.prefixes),
        "suffix_tokens": len(problem.tokens.suffixes), "words": len(problem.tokens.words),
        "group_size": len(problem.layout.group)})


def search(problem: Problem, spec: PrefixSuffixBoardSpec, budget: Budget, run: Callable[..., Found]) -> Found:
    """The engine's task; boards for players with few completions (``max_completions``) are drawn
    and proven by :mod:`.fair` with the spec's engine."""
    if spec.task == "generate" and spec.max_completions:
        from cpwords.puzzles.prefix_suffix_board.fair import fair_boards

        return fair_boards(problem, spec, budget)
    return run(problem, spec, budget)


def result(spec: PrefixSuffixBoardSpec, problem: Problem, found: Found, stats: dict[str, Any],
           budget: Budget) -> Result:
    """The Result of what the engine found. For the counting tasks, ``count`` is the number modulo
    the board's symmetry and ``stats.raw_count`` the raw number."""
    if spec.task == "generate":
        from cpwords.puzzles.prefix_suffix_board.fair import solution_maker

        solutions = found.convert(solution_maker(problem))
    else:
        solutions = found.convert(problem.solution)
    return Result.from_search(spec, found, solutions, infeasible=no_board_message(spec), what="board", stats=stats,
                              asked=spec.count if spec.task == "generate" else None)


def no_board_message(spec: PrefixSuffixBoardSpec) -> str:
    """Why a search found nothing, in words."""
    if spec.task == "solve":
        return "no prefixes fit these suffixes: some prefix slot has no prefix making a word with all its suffixes"
    return (f"no board exists for {spec.dictionary.label()} with prefix length {list(spec.prefix_length)} "
            f"and suffix length {list(spec.suffix_length)}" + (" and distinct tokens" if spec.distinct_tokens else ""))
