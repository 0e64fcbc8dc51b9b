"""Word grids (``kind: word_grid``): generate, fill, count, enumerate and unscramble.

>>> import cpwords
>>> r = cpwords.solve({"kind": "word_grid", "shape": "gridle-5x5", "seed": 1})  # doctest: +SKIP
>>> r.solutions[0].rows  # doctest: +SKIP
['crane', ...]

Engines are imported lazily inside :func:`solve` so importing this package stays light.
"""

from __future__ import annotations

from cpwords.errors import InputError
from cpwords.results import Result, Solution, Status

ENGINES = ("cpsat", "sat", "native")


class GridSolution(Solution):
    """One filled grid."""

    rows: list[str]
    """The grid, one string a row; ``#`` marks a black cell."""
    rareness: int | None = None
    """Total rareness of the grid's words (lower = more common words)."""
    swaps: list[list[list[int]]] | None = None
    """For ``unscramble``: the swaps, in order, each a pair of cells [[row, col], [row, col]] (1-based)."""


def solution_of(problem, letters: list[int]) -> GridSolution:  # noqa: ANN001 (GridProblem, avoids import)
    """A :class:`GridSolution` from one letter index per cell."""
    words = problem.words_of(letters)
    costs = {n: dict(zip(ws, problem.rareness[n], strict=True)) for n, ws in problem.words.items()}
    return GridSolution(words=words, rows=problem.rows_of(letters),
                        rareness=sum(costs[len(w)][w] for w in words))


def grid_result(spec, problem, *, status: Status, grids: list[list[int]], stats: dict,  # noqa: ANN001
                count: int | None = None, count_exact: bool | None = None, message: str | None = None) -> Result:
    """The Result of a grid task from the grids found (letter vectors)."""
    solutions = [solution_of(problem, g) for g in grids]
    objective = None
    if spec.objective == "common" and solutions and spec.task in ("generate", "fill"):
        objective = solutions[0].rareness
    if status == Status.INFEASIBLE and message is None:
        message = "no grid of this shape can be filled with the dictionary's words" + \
            (" and the given letters" if problem.given else "") + (" (all different)" if problem.distinct else "")
    stats = {"slots": len(problem.slots), "group_size": len(problem.group),
             "words": {n: len(ws) for n, ws in problem.words.items()}, **stats}
    return Result(kind="word_grid", status=status, engine=spec.engine, task=spec.task, solutions=solutions,
                  count=count, count_exact=count_exact, objective=objective, stats=stats, message=message)


def solve(spec) -> Result:  # noqa: ANN001 (WordGridSpec)
    """Solve a word-grid spec with its engine.

    Raises
    ------
    InputError
        Bad shape, givens or scrambled rows, or a task the engine does not offer.
    """
    if spec.task == "unscramble":
        if spec.engine != "cpsat":
            raise InputError("task 'unscramble' is solved with engine cpsat", field="engine", value=spec.engine)
        from cpwords.puzzles.word_grid.unscramble import solve_unscramble

        return solve_unscramble(spec)
    from cpwords.puzzles.word_grid.problem import prepare

    problem = prepare(spec)
    if spec.engine == "native":
        from cpwords.puzzles.word_grid.native_tasks import solve_native

        return solve_native(spec, problem)
    if spec.engine == "cpsat":
        from cpwords.puzzles.word_grid.cpsat import solve_cpsat

        return solve_cpsat(spec, problem)
    if spec.objective == "common":
        raise InputError("objective 'common' needs engine cpsat or native", field="engine", value="sat")
    from cpwords.puzzles.word_grid.sat import solve_sat

    return solve_sat(spec, problem)
