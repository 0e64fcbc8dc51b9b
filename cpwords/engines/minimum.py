"""The increasing-K minimum: the smallest size k for which a model of exactly k parts is
satisfiable, used by both solver engines (CP-SAT and SAT).

Many "fewest words" questions are answered faster by a series of small decision models (exactly
1 word? exactly 2? …) than by one model that minimises: each small model is proved quickly, and
the first satisfiable k is optimal because every smaller k was proved unsatisfiable.

>>> from cpwords.engines.budget import Budget
>>> from cpwords.results import Status
>>> def at_least_three(k, budget):
...     return (Status.OPTIMAL, f"{k} parts", {}) if k >= 3 else (Status.INFEASIBLE, None, {})
>>> m = increasing_k(range(1, 6), at_least_three, Budget())
>>> m.k, m.answer, m.complete
(3, '3 parts', True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from cpwords.engines.budget import Budget
from cpwords.results import Status

T = TypeVar("T")

#: ``solve_k(k, budget) -> (status, answer or None, figures)`` for a model of exactly k parts.
SolveK = Callable[[int, Budget], "tuple[Status, T | None, dict[str, Any]]"]


@dataclass
class Minimum(Generic[T]):
    """The smallest satisfiable k and its answer (None when no k of the range is), whether that is
    proved (``complete``), why the search stopped early, and the summed figures of every call."""

    k: int | None
    answer: T | None
    complete: bool
    stopped: str | None = None
    stats: dict[str, Any] = field(default_factory=dict)


def increasing_k(ks: Iterable[int], solve_k: SolveK[T], budget: Budget) -> Minimum[T]:
    """Try k = each value of ``ks`` in increasing order until a model of exactly k is satisfiable.

    Returns
    -------
    Minimum: ``complete`` with ``k`` set when the first satisfiable k was found (optimal), complete
    with ``k`` None when every k was unsatisfiable, incomplete when the budget ran out first.
    """
    stats: dict[str, Any] = {"solver_calls": 0}
    for k in ks:
        if budget.expired():
            return Minimum(None, None, False, budget.reason, stats)
        status, answer, figures = solve_k(k, budget)
        stats["solver_calls"] += 1
        for key, value in figures.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                stats[key] = round(stats.get(key, 0) + value, 6)
        if status.solved and answer is not None:
            return Minimum(k, answer, True, None, stats)
        if status is not Status.INFEASIBLE:
            return Minimum(None, None, False, budget.reason or "time_limit", stats)
    return Minimum(None, None, True, None, stats)
