"""OR-Tools CP-SAT helpers, puzzle-agnostic.

Puzzles build a ``cp_model.CpModel`` with OR-Tools' own idioms (named variables,
``add_allowed_assignments`` tables, ``add_all_different``) and hand it here to be solved,
optimised or enumerated within the run's :class:`~cpwords.engines.budget.Budget`, with a worker
count and a seed. Statuses map onto :class:`cpwords.results.Status`. A stop request on the budget
(Ctrl-C, a cancelled job) reaches the running solver through ``stop_search``.

Symmetry breaking: :func:`lex_leader_constraints` posts X ≤lex g·X for every element g of a
symmetry group (one representative per orbit), with :func:`lex_leq`.

Time limits: CP-SAT looks at its limit only once a model is loaded, and loading a model with big
``add_allowed_assignments`` tables (expanding them, then presolve) takes seconds that no limit
stops. :func:`loading_plan` weighs the time left against the model's table entries: presolve
when there is time for it, none when there is only time to load, and no solve at all (status
``unknown``, a message saying why) when there is not even that. Model builders call
:func:`check_building` in their loops, so that a budget spent while building ends the task with
:class:`BuildTimeout`.

Example
-------
>>> m = cp_model.CpModel()
>>> x = [m.new_int_var(0, 2, f"x{i}") for i in range(3)]
>>> m.add_all_different(x)  # doctest: +ELLIPSIS
<...>
>>> enumerate_solutions(m, x, Budget()).count
6
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from ortools.sat.python import cp_model

from cpwords.engines.budget import CAUSES, Budget, SearchTimeout
from cpwords.engines.found import SOLVER, TIME_LIMIT, Found
from cpwords.engines.outcome import Enumeration, Outcome
from cpwords.engines.task import TaskFunction
from cpwords.results import Status

#: Seconds CP-SAT takes, per entry (row × column) of its tables, to load and presolve a model,
#: measured on word tables of 200,000 to 860,000 entries (7x7 word grids of scowl-70, boards
#: of common-10k and common-20k: 3.3 to 4 µs on a loaded 2-core machine). Without presolve it
#: takes a quarter to four fifths of that.
LOAD_S_PER_ENTRY = 4e-6

#: Seconds of the budget that may be left when CP-SAT ends on its own time limit: CP-SAT's clock
#: starts after ours, so a run it ends with more left did not end on the time limit.
EARLY_S = 0.25

class BuildTimeout(SearchTimeout):
    """The budget ended while a model was being built; ``message`` says so in the user's words."""

    def __init__(self, reason: str | None) -> None:
        super().__init__(reason or "time_limit")
        self.reason = reason or "time_limit"
        self.message = f"{CAUSES.get(self.reason, 'the run stopped')} while the CP-SAT model was being built"

    def found(self) -> Found:
        """What the task found: nothing, stopped for this reason, with the message."""
        return Found(message=self.message, stats={"stopped": self.reason}).stop(self.reason)


P = TypeVar("P")
S = TypeVar("S")


def stops_while_building(task: TaskFunction[P, S]) -> TaskFunction[P, S]:
    """The task function ``task`` (:class:`~cpwords.engines.task.TaskFunction`) that, when its
    budget ends while it builds its model (:class:`BuildTimeout`), returns nothing found with that
    reason and message."""

    @functools.wraps(task)
    def run(problem: P, spec: S, budget: Budget) -> Found:
        try:
            return task(problem, spec, budget)
        except BuildTimeout as exc:
            return exc.found()

    return run


def check_building(budget: Budget) -> None:
    """Raise :class:`BuildTimeout` when ``budget`` is spent (called in model-building loops)."""
    if budget.expired():
        raise BuildTimeout(budget.reason)


def table_entries(model: cp_model.CpModel) -> int:
    """Entries (rows × columns) of the model's table constraints: what loading it costs CP-SAT."""
    if "kTable" not in model.model_stats():  # a quick look, for models of many small constraints
        return 0
    total = 0
    for ct in model.proto.constraints:
        has_table = getattr(ct, "has_table", None)  # OR-Tools' own proto class; protobuf before 9.12
        if has_table() if has_table is not None else ct.HasField("table"):
            total += len(ct.table.values)
    return total


def loading_plan(model: cp_model.CpModel, budget: Budget) -> tuple[dict[str, Any], str | None]:
    """How to load ``model`` in what is left of ``budget``: the parameters to add (no presolve
    when there is time to load the model but not to presolve it), and, when there is not even
    time to load it, why the solve must not start (None: start it).

    >>> m = cp_model.CpModel()
    >>> x = [m.new_int_var(0, 99, f"x{i}") for i in range(3)]
    >>> _ = m.add_allowed_assignments(x, [(i // 100, i // 10 % 10, i % 10) for i in range(10_000)])
    >>> table_entries(m), loading_plan(m, Budget(10)), loading_plan(m, Budget(0.2))
    (30000, ({}, None), ({'cp_model_presolve': False}, None))
    >>> print(loading_plan(m, Budget(0.05))[1])  # doctest: +ELLIPSIS
    the time limit was reached before CP-SAT could load the model: 0.05 s were left, and its 30,000 table entries ...
    """
    left = budget.left()
    if left is None or left > 600:
        return {}, None
    load_s = table_entries(model) * LOAD_S_PER_ENTRY
    if left >= 2 * load_s:
        return {}, None
    if left >= load_s or budget.expired():
        return {"cp_model_presolve": False}, None
    return {"cp_model_presolve": False}, (
        f"the time limit was reached before CP-SAT could load the model: {left:.2g} s were left, and its "
        f"{table_entries(model):,} table entries take it about {load_s:.2g} s to load (give a longer time limit)")

_STATUS = {
    cp_model.OPTIMAL: Status.OPTIMAL,
    cp_model.FEASIBLE: Status.FEASIBLE,
    cp_model.INFEASIBLE: Status.INFEASIBLE,
    cp_model.UNKNOWN: Status.UNKNOWN,
    cp_model.MODEL_INVALID: Status.ERROR,
}


class Permutation(Protocol):
    """A symmetry as a permutation of positions (see :class:`cpwords.geometry.Symmetry`)."""

    @property
    def name(self) -> str: ...

    @property
    def is_identity(self) -> bool: ...

    def source_indices(self) -> list[int]: ...


def status_of(cp_status: Any) -> Status:
    """Our status for a CP-SAT status code."""
    return _STATUS[cp_status]


def make_solver(
    budget: Budget,
    *,
    workers: int | None = None,
    seed: int | None = None,
    randomize: bool = False,
    parameters: dict[str, Any] | None = None,
) -> cp_model.CpSolver:
    """A CpSolver limited to what is left of ``budget``. ``randomize`` varies the search with
    ``seed`` (for generation); ``parameters`` sets any other CP-SAT parameter by name (e.g.
    ``{"symmetry_level": 0}``)."""
    solver = cp_model.CpSolver()
    p = solver.parameters
    left = budget.left()
    if left is not None:
        p.max_time_in_seconds = max(0.0, left)
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
    """Engine figures worth reporting in ``Result.stats`` (names from the stats vocabulary)."""
    return {
        "solver_s": round(solver.wall_time, 6),
        "conflicts": solver.num_conflicts,
        "branches": solver.num_branches,
    }


def add_stats(total: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
    """Sum the figures of several solves into ``total`` (returns it)."""
    for key, value in more.items():
        total[key] = round(total.get(key, 0) + value, 6) if isinstance(value, float) else total.get(key, 0) + value
    total["solver_calls"] = total.get("solver_calls", 0) + 1
    return total


def solve(
    model: cp_model.CpModel,
    budget: Budget,
    *,
    workers: int | None = None,
    seed: int | None = None,
    randomize: bool = False,
    parameters: dict[str, Any] | None = None,
) -> Outcome:
    """Solve (or optimise, when the model has an objective) within ``budget``.

    Returns
    -------
    Outcome with status ``optimal`` (objective proved, or any answer of a model without one),
    ``feasible`` (an answer, not proved best), ``infeasible`` or ``unknown`` (stopped, no answer).
    """
    plan, too_big = loading_plan(model, budget)
    solver = make_solver(budget, workers=workers, seed=seed, randomize=randomize, parameters=(parameters or {}) | plan)
    if budget.expired():  # the model's build took the rest of the time: say so, CP-SAT never started
        why = None if budget.reason == "interrupted" else "the time limit was reached before CP-SAT could load the model"
        return Outcome(Status.UNKNOWN, solver=solver, stats={"solver_s": 0.0}, stopped=budget.reason, message=why)
    if too_big is not None:
        return Outcome(Status.UNKNOWN, solver=solver, stats={"solver_s": 0.0}, stopped="time_limit", message=too_big)
    with budget.interrupts(solver.stop_search):
        code = solver.solve(model)
    status = status_of(code)
    objective = None
    if status.solved and model.has_objective():
        objective = solver.objective_value
    stopped = message = None
    if status in (Status.FEASIBLE, Status.UNKNOWN):
        stopped, message = why_unfinished(solver, budget)
    return Outcome(status, solver=solver, stats=solver_stats(solver), objective=objective, stopped=stopped,
                   message=message)


def why_unfinished(solver: cp_model.CpSolver, budget: Budget) -> tuple[str, str | None]:
    """Why a CP-SAT run ended without finishing: the budget's reason (``time_limit``,
    ``interrupted``) when it is spent or stopped; otherwise CP-SAT ended it on its own
    (``solver``), with a message saying when, so that a result never claims a time limit that
    was not reached (CP-SAT may end after a long presolve, judging the time left too short)."""
    left = budget.left()
    if budget.reason is not None or (left is not None and left <= EARLY_S):
        return budget.reason or TIME_LIMIT, None
    given = solver.parameters.max_time_in_seconds
    searched = solver.num_branches > 0 or solver.num_conflicts > 0
    return SOLVER, (f"CP-SAT ended its run at {solver.wall_time:.1f} s of the {given:.1f} s it was given, "
                    f"{'during its search' if searched else 'before it searched'}, with "
                    f"{left:.1f} s of the time limit left" if left is not None else
                    f"CP-SAT ended its run at {solver.wall_time:.1f} s without finishing (its own limits)")


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(
        self,
        variables: Sequence[cp_model.IntVar],
        on_solution: Callable[[list[int]], bool | None] | None,
        limit: int | None,
        keep: bool,
        budget: Budget,
    ) -> None:
        super().__init__()
        self._variables = list(variables)
        self._on_solution = on_solution
        self._limit = limit
        self._keep = keep
        self._budget = budget
        self.count = 0
        self.stopped: str | None = None
        self.solutions: list[list[int]] = []

    def on_solution_callback(self) -> None:
        values = [int(self.value(v)) for v in self._variables]
        self.count += 1
        if self._keep:
            self.solutions.append(values)
        stop = self._on_solution(values) is False if self._on_solution else False
        if stop or (self._limit is not None and self.count >= self._limit):
            self.stopped = "limit"
            self.stop_search()
        elif self._budget.expired():
            self.stopped = self._budget.reason
            self.stop_search()


def enumerate_solutions(
    model: cp_model.CpModel,
    variables: Sequence[cp_model.IntVar],
    budget: Budget,
    *,
    on_solution: Callable[[list[int]], bool | None] | None = None,
    limit: int | None = None,
    seed: int | None = None,
    keep: bool = True,
    parameters: dict[str, Any] | None = None,
) -> Enumeration:
    """Every solution of ``model`` within ``budget``, each read as the values of ``variables``.

    Parameters
    ----------
    on_solution:
        Called with each solution's values; returning ``False`` stops the search.
    limit:
        Stop after this many solutions.
    keep:
        Keep the solutions in ``Enumeration.solutions`` (turn off when only counting).
    parameters:
        Other CP-SAT parameters by name.

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
    if model.has_objective():
        raise ValueError("enumerate_solutions needs a model without an objective")
    plan, too_big = loading_plan(model, budget)
    solver = make_solver(budget, workers=1, seed=seed, parameters=(parameters or {}) | plan)
    solver.parameters.enumerate_all_solutions = True
    collector = _Collector(variables, on_solution, limit, keep, budget)
    t0 = time.perf_counter()
    if budget.expired():
        return Enumeration(0, False, Status.UNKNOWN, stats={"search_s": 0.0}, stopped=budget.reason)
    if too_big is not None:
        return Enumeration(0, False, Status.UNKNOWN, stats={"search_s": 0.0}, stopped="time_limit", message=too_big)
    with budget.interrupts(solver.stop_search):
        code = solver.solve(model, collector)
    status = status_of(code)
    complete = status in (Status.OPTIMAL, Status.INFEASIBLE) and collector.stopped is None
    stopped = message = None
    if not complete:
        stopped, message = (collector.stopped, None) if collector.stopped else why_unfinished(solver, budget)
    status = Status.of_search(found=collector.count > 0, complete=complete)
    stats = solver_stats(solver) | {"search_s": round(time.perf_counter() - t0, 6)}
    return Enumeration(collector.count, complete, status, stats=stats, stopped=stopped, message=message,
                       solutions=collector.solutions)


# ---------------------------------------------------------------- symmetry breaking


def lex_leq(model: cp_model.CpModel, pairs: Sequence[tuple[Any, Any]], name: str) -> None:
    """Post (a_0, a_1, …) ≤lex (b_0, b_1, …) for ``pairs`` = [(a_0, b_0), …]; ties are allowed.

    ``eq_t`` ⇔ the first t+1 pairs are equal, so every helper boolean is fixed by the values
    (an enumeration counts answers, not helper assignments). Pairs of the same variable compare
    equal and are skipped.
    """
    equal_so_far = None
    pairs = [(a, b) for a, b in pairs if a is not b]
    for t, (a, b) in enumerate(pairs):
        guard: list[Any] = [] if equal_so_far is None else [equal_so_far]
        model.add(a <= b).only_enforce_if(guard)
        if t == len(pairs) - 1:
            break
        eq = model.new_bool_var(f"{name}_eq{t}")
        model.add(a == b).only_enforce_if(eq)
        if equal_so_far is not None:
            model.add_implication(eq, equal_so_far)
        model.add(a + 1 <= b).only_enforce_if([*guard, eq.Not()])
        equal_so_far = eq


def lex_leader_constraints(model: cp_model.CpModel, xs: Sequence[Any], group: Sequence[Permutation],
                           name: str = "lex") -> None:
    """X ≤lex g·X for every non-identity g, where (g·X)[j] = X[g.source_indices()[j]]: only the
    lex-leader of each orbit (its smallest image) satisfies them all."""
    for g in group:
        if g.is_identity:
            continue
        src = g.source_indices()
        pairs = [(xs[j], xs[src[j]]) for j in range(len(xs)) if src[j] != j]
        if pairs:
            lex_leq(model, pairs, f"{name}_{g.name}")
