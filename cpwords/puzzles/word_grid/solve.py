"""A word-grid spec's two hooks of the registry's pipeline: prepare the grid problem; turn what the
engine found into the Result."""

from __future__ import annotations

from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.puzzles import Prepared
from cpwords.puzzles.word_grid.problem import GridProblem
from cpwords.puzzles.word_grid.problem import prepare as prepare_problem
from cpwords.puzzles.word_grid.solution import GridSolution
from cpwords.puzzles.word_grid.spec import WordGridSpec
from cpwords.results import Result


def prepare(spec: WordGridSpec, budget: Budget | None = None) -> Prepared:
    """The grid problem: the shape's slots, the candidate words, the symmetry group.

    Raises
    ------
    InputError
        Bad shape, givens or scrambled rows.
    """
    if spec.task == "unscramble":
        from cpwords.puzzles.word_grid.unscramble import unscramble_problem

        problem = unscramble_problem(spec)
    else:
        problem = prepare_problem(spec)
    return Prepared(problem, {"dictionary": spec.dictionary.label(), "slots": len(problem.slots),
                              "group_size": len(problem.group),
                              "words": {n: len(ws) for n, ws in problem.words.items()}})


def result(spec: WordGridSpec, problem: GridProblem, found: Found, stats: dict[str, Any], budget: Budget) -> Result:
    """The Result of what the engine found. Answers are letter vectors (one letter index per open
    cell), pairs of a letter vector and its swaps (``unscramble``), or puzzles (``puzzle``)."""
    if spec.task == "puzzle":
        from cpwords.puzzles.word_grid.puzzle import solution_of_puzzle

        solutions = found.convert(lambda answer: solution_of_puzzle(problem, answer, _rareness_tables(problem)))
    else:
        solutions = found.convert(lambda answer: solution_of(problem, *answer) if isinstance(answer, tuple)
                                  else solution_of(problem, answer))
    if spec.objective == "common" and solutions and spec.task in ("generate", "fill"):
        found.objective = solutions[0].rareness
    infeasible = ("no valid grid uses exactly these letters with the fixed cells in place" if spec.task == "unscramble"
                  else "no puzzle could be made" if spec.task == "puzzle"
                  else "no grid of this shape can be filled with the dictionary's words"
                  + (" and the given letters" if problem.given else "") + (" (all different)" if problem.distinct else ""))
    return Result.from_search(spec, found, solutions, infeasible=infeasible, stats=stats,
                              what="puzzle" if spec.task == "puzzle" else "grid",
                              asked=spec.count if spec.task in ("generate", "fill", "puzzle") else None)


def solution_of(problem: GridProblem, letters: list[int], swaps: list[list[list[int]]] | None = None) -> GridSolution:
    """A :class:`GridSolution` from one letter index per cell (and the swaps of ``unscramble``)."""
    words = problem.words_of(letters)
    costs = _rareness_tables(problem)
    return GridSolution(words=words, rows=problem.rows_of(letters), rareness=sum(costs[len(w)][w] for w in words),
                        swaps=swaps)


_RARENESS: dict[int, tuple[GridProblem, dict[int, dict[str, int]]]] = {}


def _rareness_tables(problem: GridProblem) -> dict[int, dict[str, int]]:
    """Per slot length, word -> rareness; built once per problem (a listing converts thousands
    of grids, and the tables have a row per dictionary word)."""
    cached = _RARENESS.get(id(problem))
    if cached is None or cached[0] is not problem:
        _RARENESS.clear()  # one problem at a time: nothing accumulates
        cached = (problem, {n: dict(zip(ws, problem.rareness[n], strict=True)) for n, ws in problem.words.items()})
        _RARENESS[id(problem)] = cached
    return cached[1]
