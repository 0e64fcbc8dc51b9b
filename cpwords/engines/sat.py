"""PySAT helpers, puzzle-agnostic: solving a :class:`~cpwords.engines.cnf.CnfModel` (CNF building
blocks, cardinality and order encodings, in :mod:`cpwords.engines.cnf`) under assumptions within
the run's budget, incremental minimisation of a count, and enumeration with blocking clauses
projected on chosen variables.

The budget's deadline and its stop switch (Ctrl-C, a cancelled job) reach a running solver
through PySAT's ``interrupt``; solvers that cannot be interrupted (CaDiCaL) are only used
where the caller accepts that.

Example
-------
>>> m = CnfModel()
>>> x = [m.var(("x", i)) for i in range(3)]
>>> m.exactly_one(x)
>>> enumerate_models(m, x, Budget()).count
3
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from pysat.card import ITotalizer
from pysat.solvers import Solver

from cpwords.engines.budget import Budget
from cpwords.engines.cnf import CnfModel, OrderedInt
from cpwords.engines.outcome import Enumeration, Outcome
from cpwords.results import Status

#: The model classes users reach through this module too (the back end's one interface).
__all__ = ["DEFAULT_SOLVER", "UNINTERRUPTIBLE", "CnfModel", "OrderedInt", "enumerate_models", "minimise_count",
           "new_solver", "run", "solve"]

DEFAULT_SOLVER = "glucose4"
#: Solvers whose ``solve_limited`` cannot be interrupted (PySAT raises NotImplementedError).
UNINTERRUPTIBLE = ("cadical103", "cadical153", "cadical195")


def run(solver: Solver, budget: Budget, assumptions: Sequence[int] = (), *, name: str = DEFAULT_SOLVER) -> bool | None:
    """One SAT call within ``budget``: True, False, or None when the deadline or a stop request
    interrupted it (or the budget was already spent)."""
    if budget.expired():
        return None
    if name in UNINTERRUPTIBLE:
        return solver.solve(assumptions=list(assumptions))  # type: ignore[no-any-return]
    with budget.interrupts(solver.interrupt):
        answer = solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
    solver.clear_interrupt()
    if answer is None:
        budget.expired()  # records why
    return answer  # type: ignore[no-any-return]


def new_solver(model: CnfModel, name: str = DEFAULT_SOLVER) -> Solver:
    """A PySAT solver loaded with the model's clauses."""
    return Solver(name=name, bootstrap_with=model.clauses)


def _true_vars(assignment: Sequence[int] | None) -> set[int]:
    return {lit for lit in (assignment or ()) if lit > 0}


def solve(
    model: CnfModel,
    budget: Budget,
    *,
    assumptions: Sequence[int] = (),
    solver_name: str = DEFAULT_SOLVER,
) -> Outcome:
    """Satisfy the model under ``assumptions``; ``unknown`` when the budget interrupts it."""
    t0 = time.perf_counter()
    with new_solver(model, solver_name) as solver:
        answer = run(solver, budget, assumptions, name=solver_name)
        stats = {"solver_s": round(time.perf_counter() - t0, 6), "clauses": len(model.clauses),
                 "variables": model.pool.top}
        if answer is None:
            return Outcome(Status.UNKNOWN, stats=stats, stopped=budget.reason or "time_limit")
        if not answer:
            return Outcome(Status.INFEASIBLE, stats=stats)
        return Outcome(Status.OPTIMAL, stats=stats, true_vars=_true_vars(solver.get_model()))


def minimise_count(
    model: CnfModel,
    lits: Sequence[int],
    budget: Budget,
    *,
    assumptions: Sequence[int] = (),
    solver_name: str = DEFAULT_SOLVER,
    on_improve: Callable[[int], None] | None = None,
) -> tuple[Outcome, int | None]:
    """Minimise how many of ``lits`` are true, incrementally (one solver, growing bounds).

    A totalizer over ``lits`` gives outputs ``rhs[k]`` ("more than k true"); each answer with
    ``k`` true literals is followed by a call assuming ``¬rhs[k-1]`` (at most k−1), until
    unsatisfiable (optimal) or the end of the budget (feasible: best so far).

    Returns
    -------
    (outcome, best_count); best_count is None when no answer was found.
    """
    t0 = time.perf_counter()
    lits = list(lits)
    top = model.pool.top
    tot = ITotalizer(lits=lits, ubound=len(lits), top_id=top)
    # Keep our pool above the totalizer's auxiliary variables.
    model.pool.occupy(top + 1, tot.top_id)
    model.pool.top = max(model.pool.top, tot.top_id)
    best: set[int] | None = None
    best_k: int | None = None
    calls = 0
    with new_solver(model, solver_name) as solver:
        solver.append_formula(tot.cnf.clauses)
        extra: list[int] = []
        stopped = None
        while True:
            calls += 1
            answer = run(solver, budget, [*assumptions, *extra], name=solver_name)
            if answer is None:
                status = Status.FEASIBLE if best is not None else Status.UNKNOWN
                stopped = budget.reason or "time_limit"
                break
            if not answer:
                status = Status.OPTIMAL if best is not None else Status.INFEASIBLE
                break
            true = _true_vars(solver.get_model())
            k = sum(1 for lit in lits if (lit in true if lit > 0 else -lit not in true))
            best, best_k = true, k
            if on_improve:
                on_improve(k)
            if k == 0:
                status = Status.OPTIMAL
                break
            extra = [-tot.rhs[k - 1]]
    tot.delete()
    stats = {"solver_s": round(time.perf_counter() - t0, 6), "solver_calls": calls,
             "clauses": len(model.clauses), "variables": model.pool.top}
    return Outcome(status, stats=stats, stopped=stopped, true_vars=best or set()), best_k


def enumerate_models(
    model: CnfModel,
    projection: Sequence[int],
    budget: Budget,
    *,
    assumptions: Sequence[int] = (),
    on_model: Callable[[set[int]], bool | None] | None = None,
    limit: int | None = None,
    keep: bool = True,
    solver_name: str = DEFAULT_SOLVER,
) -> Enumeration:
    """Every assignment of the ``projection`` variables that extends to a model.

    After each model a blocking clause over the projection forbids that assignment again, so
    auxiliary variables never multiply the count. ``on_model`` gets the set of true projection
    variables; returning ``False`` stops.
    """
    t0 = time.perf_counter()
    projection = list(projection)
    count = 0
    kept: list[set[int]] = []
    complete = False
    stopped = None
    with new_solver(model, solver_name) as solver:
        while True:
            if limit is not None and count >= limit:
                stopped = "limit"
                break
            answer = run(solver, budget, assumptions, name=solver_name)
            if answer is None:
                stopped = budget.reason or "time_limit"
                break
            if not answer:
                complete = True
                break
            true = _true_vars(solver.get_model())
            chosen = {v for v in projection if v in true}
            count += 1
            if keep:
                kept.append(chosen)
            solver.add_clause([-v if v in chosen else v for v in projection])
            if on_model is not None and on_model(chosen) is False:
                stopped = "limit"
                break
    status = Status.of_search(found=count > 0, complete=complete)
    stats = {"solver_s": round(time.perf_counter() - t0, 6), "clauses": len(model.clauses),
             "variables": model.pool.top}
    return Enumeration(count, complete, status, stats=stats, stopped=stopped, models=kept)
