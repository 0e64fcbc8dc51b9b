"""Solving a word-grid spec: prepare the grid problem, run the engine's task, build the Result."""

from __future__ import annotations

import time
from typing import Any

from cpwords import puzzles
from cpwords.engines.budget import Budget
from cpwords.puzzles.word_grid.problem import GridProblem, prepare
from cpwords.puzzles.word_grid.solution import GridSolution
from cpwords.puzzles.word_grid.spec import WordGridSpec
from cpwords.results import Result


def solve(spec: WordGridSpec, budget: Budget) -> Result:
    """Solve a word-grid spec with its engine, within ``budget``.

    Answers from the engines are letter vectors (one letter index per open cell), or for
    ``unscramble`` pairs of a letter vector and its swaps.

    Raises
    ------
    InputError
        Bad shape, givens or scrambled rows.
    """
    t0 = time.perf_counter()
    if spec.task == "unscramble":
        from cpwords.puzzles.word_grid.unscramble import unscramble_problem

        problem = unscramble_problem(spec)
    else:
        problem = prepare(spec)
    stats: dict[str, Any] = {"dictionary": spec.dictionary.label(), "slots": len(problem.slots),
                             "group_size": len(problem.group),
                             "words": {n: len(ws) for n, ws in problem.words.items()},
                             "prepare_s": round(time.perf_counter() - t0, 6)}
    t1 = time.perf_counter()
    found = puzzles.get(spec.kind).run(problem, spec, budget)
    found.stats.setdefault("search_s", round(time.perf_counter() - t1, 6))
    if spec.task == "puzzle":
        from cpwords.puzzles.word_grid.puzzle import solution_of_puzzle

        solutions = found.convert(lambda answer: solution_of_puzzle(problem, answer, _rareness_tables(problem)), budget)
    else:
        solutions = found.convert(lambda answer: solution_of(problem, *answer) if isinstance(answer, tuple)
                                  else solution_of(problem, answer), budget)
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
