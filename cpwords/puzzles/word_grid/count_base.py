"""What every plan of the word-grid counter shares: the exactness limits, the cost model, the plan
interface and its errors (below both :mod:`.count_engine` and the block kernel :mod:`.count_k44`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol

from cpwords.errors import CpwordsError

#: Float64 intermediates below this are exact integers (with margin for rounding of the test).
EXACT_LIMIT = 2.0 ** 50
#: Float32 intermediates below this are exact integers (float32 holds all integers below 2**24).
FLOAT32_LIMIT = 2.0 ** 23
#: Plans whose estimated time exceeds this many seconds are refused (TooLargeToContract).
MAX_ESTIMATED_SECONDS = 7 * 24 * 3600.0
#: Largest dense intermediate (elements) a dense contraction may create.
MAX_DENSE_ELEMENTS = 20_000_000
#: Most elements of one contraction's dense tables together (float64: 320 MB; its largest
#: intermediate comes on top, so one contraction stays under half a gigabyte).
MAX_TABLE_ELEMENTS = 2 * MAX_DENSE_ELEMENTS
#: Most cut variables the generic plan conditions on.
MAX_CUT = 6
#: Most leaves a cut may have (memory for the list of assignments).
MAX_LEAVES = 20_000_000
#: Cost model: Python/numpy overhead per leaf (s) and effective rate of the dense work (flop/s).
LEAF_OVERHEAD_S = 3e-4
FLOP_RATE = 1e10


class TooLargeToContract(CpwordsError):
    """The network's estimated contraction time (or memory) is beyond what we accept."""


class BeyondTimeLeft(TooLargeToContract):
    """The contraction is estimated to take longer than the time its caller has left.

    Raised only for a caller that passed ``max_seconds`` to the planner: one for whom a count
    cut short is worth nothing (with distinct words the terms carry signs, so a partial sum
    bounds nothing), and who would rather spend the time otherwise.

    Attributes
    ----------
    seconds: the estimate (infinite when every plan was refused on the way, or when planning
        itself took the share of the time it had).
    left: the seconds that were left.
    planning: True when planning ran out of its share of the time before an estimate was made.
    """

    def __init__(self, seconds: float, left: float, planning: bool = False) -> None:
        said = (f"planning the exact count took more than its share of the {left:,.1f} s left" if planning
                else f"the exact count is estimated to take {seconds:,.1f} s, more than the {left:,.1f} s left")
        super().__init__(said)
        self.seconds = seconds
        self.left = left
        self.planning = planning


class BudgetLike(Protocol):
    """What the counter needs of :class:`cpwords.engines.budget.Budget`."""

    def check(self) -> None:
        """Raise SearchTimeout when the time is up."""

    def expired(self) -> bool:
        """True when the time is up."""


class ComponentPlan(ABC):
    """How one connected component is summed: ``leaves`` independent pieces.

    Attributes
    ----------
    leaves: number of pieces of the outer loop.
    seconds: estimated time of all of them.
    kind: "dense", "cut" or "grid4x4".
    """

    leaves: int = 1
    seconds: float = 0.0
    kind: str = ""

    @abstractmethod
    def run(self, start: int, stop: int, budget: BudgetLike | None) -> int:
        """Exact sum of leaves ``start..stop-1``; ``budget.check()`` is called regularly."""
