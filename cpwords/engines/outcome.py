"""How one solver call ends, the same for every back end: :class:`Outcome` (one solve or
optimisation) and :class:`Enumeration` (every answer of a model, or how many).

Both back ends (:mod:`cpwords.engines.cpsat`, :mod:`cpwords.engines.sat`) return these, so that a
kind's CP-SAT and SAT modules read a status, figures and the reason a run stopped early the same
way, as CPMpy's solvers share one ``SolverInterface``. What only one back end has, the other
leaves at its default: the CP-SAT solver to read values from (``solver``, :meth:`Outcome.value`),
the true variables of a SAT model (``true_vars``, :meth:`Outcome.is_true`); the answers an
enumeration kept as values of its variables (CP-SAT, ``solutions``) or as sets of true projection
variables (SAT, ``models``).

>>> from cpwords.results import Status
>>> out = Outcome(Status.OPTIMAL, true_vars={1, 3})
>>> out.is_true(3), out.is_true(-2), out.stopped
(True, True, None)
>>> Enumeration(0, False, Status.UNKNOWN, stopped="time_limit").solutions
[]
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from cpwords.results import Status


@dataclass
class Outcome:
    """The end of one solve: our status, its figures, the objective of an optimisation, why it
    stopped early (``time_limit``, ``interrupted``, ``solver``) when it did, and a message when
    the reason needs words (a CP-SAT model that could not be loaded in the time left).

    Attributes
    ----------
    solver: the CP-SAT solver, to read values from (CP-SAT only; None from SAT).
    true_vars: the true variables of the model found (SAT only; empty from CP-SAT).
    """

    status: Status
    _: KW_ONLY
    stats: dict[str, Any] = field(default_factory=dict)
    objective: float | None = None
    stopped: str | None = None
    message: str | None = None
    solver: cp_model.CpSolver | None = None
    true_vars: set[int] = field(default_factory=set)

    def value(self, expr: Any) -> int:
        """Value of an integer expression in the answer CP-SAT found."""
        assert self.solver is not None, "values are read from a CP-SAT outcome"
        return int(self.solver.value(expr))

    def is_true(self, lit: int) -> bool:
        """Whether the SAT literal ``lit`` holds in the model found."""
        return (lit in self.true_vars) if lit > 0 else (-lit not in self.true_vars)


@dataclass
class Enumeration:
    """The end of an enumeration: how many answers, whether all were seen, the status, figures,
    why it stopped early (``time_limit``, ``interrupted``, ``limit``, ``solver``) and a message
    when that needs words.

    Attributes
    ----------
    solutions: the answers kept, each the values of the enumerated variables (CP-SAT).
    models: the answers kept, each the set of true projection variables (SAT).
    """

    count: int
    complete: bool
    status: Status
    _: KW_ONLY
    stats: dict[str, Any] = field(default_factory=dict)
    stopped: str | None = None
    message: str | None = None
    solutions: list[list[int]] = field(default_factory=list)
    models: list[set[int]] = field(default_factory=list)
