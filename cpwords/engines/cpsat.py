"""OR-Tools CP-SAT helpers, puzzle-agnostic.

Puzzles build a ``cp_model.CpModel`` with OR-Tools' own idioms (named variables,
``AddAllowedAssignments`` tables, ``AddAllDifferent``) and hand it here to be solved, optimised
or enumerated under a time limit, a worker count and a seed. Statuses map onto
:class:`cpwords.results.Status`.

Example
-------
>>> from ortools.sat.python import cp_model
>>> m = cp_model.CpModel()
>>> x = [m.NewIntVar(0, 2, f"x{i}") for i in range(3)]
>>> m.AddAllDifferent(x)
>>> enumerate_solutions(m, x).count
6
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from cpwords.results import Status

_STATUS = {
    cp_model.OPTIMAL: Status.OPTIMAL,
    cp_model.FEASIBLE: Status.FEASIBLE,
    cp_model.INFEASIBLE: Status.INFEASIBLE,
    cp_model.UNKNOWN: Status.UNKNOWN,
    cp_model.MODEL_INVALID: Status.ERROR,
}


def status_of(cp_status: int) -> Status:
    """Our status for a CP-SAT status code."""
    return _STATUS[cp_status]


def make_solver(
    *,
    time_limit: float | None = None,
    workers: int | None = None,
    seed: int | None = None,
    randomize: bool = False,
    parameters: dict[str, Any] | None = None,
) -> cp_model.CpSolver:
    """A CpSolver with our limits. ``randomize`` varies the search with ``seed`` (for generation);
    ``parameters`` sets any other CP-SAT parameter by name (e.g. ``{"symmetry_level": 0}``)."""
    solver = cp_model.CpSolver()
    p = solver.parameters
    if time_limit is not None:
        p.max_time_in_seconds = float(time_limit)
    if workers is not None:
        p.num_workers = int(workers)
    if seed is not None:
        p.random_seed = int(seed) % (2**31)
    if randomize:
        p.randomize_search = True
        p.search_random_variable_pool_size = 10
    for name, value in (parameters or {}).items():
        setattr(p, name, value)
    return solver


def solver_stats(solver: cp_model.CpSolver) -> dict[str, Any]:
    """Engine figures worth reporting in ``Result.stats``."""
    return {
        "solver_wall_s": round(solver.WallTime(), 6),
        "conflicts": solver.NumConflicts(),
        "branches": solver.NumBranches(),
    }


@dataclass
class Outcome:
    """The end of one solve: our status, the solver (to read values) and its figures."""

    status: Status
    solver: cp_model.CpSolver
    stats: dict[str, Any]
    objective: float | None = None

    def value(self, expr: Any) -> int:
        """Value of an integer expression in the answer found."""
        return int(self.solver.Value(expr))


def solve(
    model: cp_model.CpModel,
    *,
    time_limit: float | None = None,
    workers: int | None = None,
    seed: int | None = None,
    randomize: bool = False,
    parameters: dict[str, Any] | None = None,
) -> Outcome:
    """Solve (or optimise, when the model has an objective) and report how it ended.

    Returns
    -------
    Outcome with status ``optimal`` (objective proved, or any answer of a model without one),
    ``feasible`` (an answer, not proved best), ``infeasible`` or ``unknown`` (limit, no answer).
    """
    solver = make_solver(time_limit=time_limit, workers=workers, seed=seed, randomize=randomize,
                         parameters=parameters)
    code = solver.Solve(model)
    status = status_of(code)
    objective = None
    if status.solved and model.HasObjective():
        objective = solver.ObjectiveValue()
    return Outcome(status, solver, solver_stats(solver), objective)


@dataclass
class Enumeration:
    """The end of an enumeration: how many answers, whether all were seen, and the figures."""

    count: int
    complete: bool
    status: Status
    stats: dict[str, Any] = field(default_factory=dict)
    solutions: list[list[int]] = field(default_factory=list)


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(
        self,
        variables: Sequence[cp_model.IntVar],
        on_solution: Callable[[list[int]], bool | None] | None,
        limit: int | None,
        keep: bool,
    ) -> None:
        super().__init__()
        self._variables = list(variables)
        self._on_solution = on_solution
        self._limit = limit
        self._keep = keep
        self.count = 0
        self.stopped = False
        self.solutions: list[list[int]] = []

    def on_solution_callback(self) -> None:
        values = [int(self.Value(v)) for v in self._variables]
        self.count += 1
        if self._keep:
            self.solutions.append(values)
        stop = self._on_solution(values) is False if self._on_solution else False
        if stop or (self._limit is not None and self.count >= self._limit):
            self.stopped = True
            self.StopSearch()


def enumerate_solutions(
    model: cp_model.CpModel,
    variables: Sequence[cp_model.IntVar],
    *,
    on_solution: Callable[[list[int]], bool | None] | None = None,
    limit: int | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
    keep: bool = True,
) -> Enumeration:
    """Every solution of ``model``, each read as the values of ``variables``.

    Parameters
    ----------
    on_solution:
        Called with each solution's values; returning ``False`` stops the search.
    limit:
        Stop after this many solutions.
    keep:
        Keep the solutions in ``Enumeration.solutions`` (turn off when only counting).

    Returns
    -------
    Enumeration whose ``complete`` says whether every solution was seen. The model must have
    no objective. CP-SAT enumerates with one worker (its rule for enumerating all solutions).

    Warning
    -------
    CP-SAT counts assignments of *every* variable of the model. For the count to mean
    "answers", every other variable must be fixed by ``variables`` (reify helper booleans both
    ways); otherwise one answer is counted once per free helper assignment.
    """
    if model.HasObjective():
        raise ValueError("enumerate_solutions needs a model without an objective")
    solver = make_solver(time_limit=time_limit, workers=1, seed=seed)
    solver.parameters.enumerate_all_solutions = True
    collector = _Collector(variables, on_solution, limit, keep)
    t0 = time.perf_counter()
    code = solver.Solve(model, collector)
    status = status_of(code)
    complete = status in (Status.OPTIMAL, Status.INFEASIBLE) and not collector.stopped
    if collector.count and not complete:
        status = Status.FEASIBLE
    elif collector.count and complete:
        status = Status.OPTIMAL
    stats = solver_stats(solver) | {"enumerate_wall_s": round(time.perf_counter() - t0, 6)}
    return Enumeration(collector.count, complete, status, stats, collector.solutions)
