"""The result model shared by every puzzle kind.

A :class:`Result` says how the solve ended (``status``), with which ``engine``, the
``solutions`` found (kind-specific :class:`Solution` subclasses, each listing the ``words`` it
uses), a ``count`` when counting, the ``objective`` value, engine ``stats`` and a ``message``
explaining an infeasible or failed solve. ``cpwords solve --json`` prints exactly this model.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny


class Status(StrEnum):
    """How a solve ended."""

    OPTIMAL = "optimal"
    """The answer is proved best (or, for enumeration and counting, the search is complete)."""
    FEASIBLE = "feasible"
    """Answers were found, but the search stopped before proving optimality or completeness."""
    INFEASIBLE = "infeasible"
    """Proved: no answer exists."""
    UNKNOWN = "unknown"
    """A limit was reached before any answer was found or disproved."""
    ERROR = "error"
    """The solve failed; ``message`` says why."""

    @property
    def solved(self) -> bool:
        """True when the status carries an answer the user asked for."""
        return self in (Status.OPTIMAL, Status.FEASIBLE)

    @staticmethod
    def of_search(found: bool, complete: bool) -> Status:
        """The status of a search (enumeration, count) from whether it found anything and finished.

        >>> Status.of_search(found=True, complete=False)
        <Status.FEASIBLE: 'feasible'>
        """
        if complete:
            return Status.OPTIMAL if found else Status.INFEASIBLE
        return Status.FEASIBLE if found else Status.UNKNOWN


class Solution(BaseModel):
    """One answer. Each kind subclasses this with its own fields.

    Extra fields are kept, so that a result read back from ``--json`` keeps every kind's fields.
    """

    model_config = ConfigDict(extra="allow", use_attribute_docstrings=True)

    words: list[str] = Field(default_factory=list)
    """The dictionary words this answer uses, in order."""


class Result(BaseModel):
    """The outcome of solving one puzzle, the same shape for every kind."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    kind: str
    """The puzzle kind that was solved."""
    status: Status
    """How the solve ended."""
    engine: str
    """The engine that produced this result (``cpsat``, ``sat`` or ``native``)."""
    task: str | None = None
    """The task performed (kind-specific: ``min_words``, ``count``, ``shortest`` ...)."""
    title: str | None = None
    """The puzzle's title, when it has one."""
    solutions: list[SerializeAsAny[Solution]] = Field(default_factory=list)
    """The answers found, best first when there is an order."""
    count: int | None = None
    """The number of answers, for counting tasks."""
    count_exact: bool | None = None
    """True when ``count`` is exact, False when it is a lower bound (a limit was reached)."""
    objective: float | int | None = None
    """Value of the optimised quantity (number of words, total rareness ...), when there is one."""
    stats: dict[str, Any] = Field(default_factory=dict)
    """Figures about the solve: ``wall_s`` always; ``seed`` when random; engine figures."""
    message: str | None = None
    """Why, when the status is infeasible, unknown or error."""

    @property
    def solved(self) -> bool:
        """True when the result carries what was asked for."""
        return self.status.solved

    def exit_code(self) -> int:
        """The CLI's exit code for this result: 0 solved, 1 otherwise."""
        return 0 if self.solved else 1
