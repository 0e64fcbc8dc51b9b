"""What an engine's task function returns: neutral data, never a :class:`~cpwords.results.Result`.

Every engine module of a kind offers one function per task, ``task(problem, spec, budget) ->
Found``. ``answers`` are the kind's own plain data (word indexes, letter vectors, token ids …)
that the kind turns into Solution objects; ``complete`` says whether the search finished (an
optimum proved, every answer listed, a count exact); ``stopped`` says why it did not. The kind
then builds the one Result with :meth:`cpwords.results.Result.from_search`.

>>> f = Found(answers=[[0, 1]], complete=False, stopped=TIME_LIMIT)
>>> f.found, f.stopped
(True, 'time_limit')
"""

from __future__ import annotations

import time
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from cpwords.engines.budget import Budget
    from cpwords.results import Solution, Solutions

S = TypeVar("S", bound="Solution")

#: Seconds that checking and writing out one answer take after the search, about (a Letter Boxed
#: answer: made into its Solution, checked, written as text or JSON). A listing that finds answers
#: faster than that holds this much of its budget per answer (:meth:`Budget.hold`), so that every
#: answer it found is written within the time limit.
WRITE_S = 1e-5

#: Answers added between two holds of their writing time.
HOLD_EVERY = 1024
#: Most times its processor time that writing is taken to need on a shared processor (a search
#: that waits, as CP-SAT's callbacks do, looks more shared than it is).
MAX_SHARED = 4.0


class WritingHold:
    """Holds out of ``budget`` the time to write out the answers a listing adds
    (:meth:`~cpwords.engines.budget.Budget.hold`): ``write_s`` of processor time an answer, times
    how shared the processor is now (the wall time of the search since the last hold over its
    processor time), every :data:`HOLD_EVERY` answers. A search that finds answers faster than
    they are written then stops in time for every one it found to be written within its limit.

    >>> from cpwords.engines.budget import Budget
    >>> b = Budget(10.0); hold = WritingHold(b, 1e-3)
    >>> held = [hold.add() for _ in range(HOLD_EVERY)]
    >>> held.count(True), b.left() <= 10.0 - HOLD_EVERY * 1e-3
    (1, True)
    """

    def __init__(self, budget: Budget | None, write_s: float = 0.0) -> None:
        self.budget, self.write_s = budget, write_s
        self._unheld = 0
        self._clocks = (time.monotonic(), time.process_time())

    def add(self, answers: int = 1) -> bool:
        """Note ``answers`` more answers found; True when their writing time was held just now."""
        if self.budget is None:
            return False
        self._unheld += answers
        if self._unheld < HOLD_EVERY:
            return False
        wall, cpu = time.monotonic(), time.process_time()
        shared = (wall - self._clocks[0]) / max(cpu - self._clocks[1], 1e-6)
        self.budget.hold(self._unheld * self.write_s * min(max(1.0, shared), MAX_SHARED))
        self._clocks, self._unheld = (wall, cpu), 0
        return True


class HeldList(list):  # type: ignore[type-arg]
    """A list of answers whose :meth:`append` holds each answer's writing time (:class:`WritingHold`)
    and, after each hold, raises :class:`~cpwords.engines.budget.SearchTimeout` once the budget is
    spent: a search that yields many answers between its own looks at the clock stops in time."""

    def __init__(self, budget: Budget | None, write_s: float) -> None:
        super().__init__()
        self._budget = budget
        self._hold = WritingHold(budget, write_s)

    def append(self, answer: Any) -> None:
        super().append(answer)
        if self._hold.add() and self._budget is not None:
            self._budget.check()


#: Reasons a search stopped before it finished.
TIME_LIMIT = "time_limit"
INTERRUPTED = "interrupted"
LISTING_LIMIT = "limit"
MEMORY = "memory"
#: The external solver ended its run on its own, well before the time limit (CP-SAT can end
#: after its presolve when it judges the time left too short to search).
SOLVER = "solver"


@dataclass
class Found:
    """The neutral outcome of one engine task.

    Attributes
    ----------
    answers: the answers found, in the kind's plain data, best first where there is an order (a
        list, or a compact sequence of the kind's own for listings of millions).
    complete: the search finished: the answer is optimal, the listing or the count is complete.
    count: the number of answers, for counting and listing tasks.
    objective: the optimised value of the best answer, when the task optimises one.
    stats: engine figures (see the stats vocabulary in docs/design.md).
    stopped: why the search did not finish (:data:`TIME_LIMIT`, :data:`INTERRUPTED`,
        :data:`LISTING_LIMIT`, :data:`MEMORY`, :data:`SOLVER`), None when it did.
    message: a kind-specific explanation, used instead of the standard one.
    """

    answers: MutableSequence[Any] = field(default_factory=list)
    complete: bool = True
    count: int | None = None
    objective: int | float | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    stopped: str | None = None
    message: str | None = None

    @property
    def found(self) -> bool:
        """True when the search found at least one answer (or counted one)."""
        return bool(self.answers) or bool(self.count)

    def stop(self, reason: str | None) -> Found:
        """Mark the search as cut short for ``reason`` (None: by the time limit); returns self."""
        self.complete = False
        self.stopped = reason or TIME_LIMIT
        return self

    def convert(self, make: Callable[[Any], S]) -> Solutions[S]:
        """The answers as Solution objects, every one: ``make(answer)`` is called when an answer
        is read (by the check, the writers), so that a listing of millions costs neither the time
        nor the memory of millions of objects before it is written.

        >>> from cpwords.results import Solution
        >>> Found(answers=[["cat"]]).convert(lambda words: Solution(words=words))[0].words
        ['cat']
        """
        from cpwords.results import Solutions

        return Solutions(self.answers, make)
