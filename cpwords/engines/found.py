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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from cpwords.engines.budget import Budget

T = TypeVar("T")

#: Seconds past the deadline that turning answers into Solution objects may take before the
#: remaining answers are dropped (a listing of millions must not outlive its time limit).
CONVERT_GRACE_S = 0.3

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
    answers: the answers found, in the kind's plain data, best first where there is an order.
    complete: the search finished: the answer is optimal, the listing or the count is complete.
    count: the number of answers, for counting and listing tasks.
    objective: the optimised value of the best answer, when the task optimises one.
    stats: engine figures (see the stats vocabulary in docs/design.md).
    stopped: why the search did not finish (:data:`TIME_LIMIT`, :data:`INTERRUPTED`,
        :data:`LISTING_LIMIT`, :data:`MEMORY`, :data:`SOLVER`), None when it did.
    message: a kind-specific explanation, used instead of the standard one.
    """

    answers: list[Any] = field(default_factory=list)
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

    def convert(self, make: Callable[[Any], T], budget: Budget | None = None,
                grace: float = CONVERT_GRACE_S) -> list[T]:
        """``make(answer)`` for each answer, in order, until ``grace`` seconds past the budget's
        deadline; the answers left are dropped (``stats["answers_dropped"]``) and the search is
        marked incomplete, so a time limit bounds the listing as well as the search. The first
        64 are always made: a search that found answers after its deadline (a slow start on an
        empty cache) still shows them, not "nothing found"."""
        end = None if budget is None or budget.deadline is None else budget.deadline + grace
        out: list[T] = []
        for i, answer in enumerate(self.answers):
            if end is not None and i and i % 64 == 0 and time.monotonic() > end:
                self.stats["answers_dropped"] = len(self.answers) - i
                self.answers = self.answers[:i]
                if self.stopped is None:
                    self.stop(TIME_LIMIT)
                break
            out.append(make(answer))
        return out
