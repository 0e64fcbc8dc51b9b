"""How a kind describes parallel work: :class:`Shard` pieces of a task and the :class:`Sharding`
that plans, runs and combines them — the protocol one floor below the kinds.

A kind that can spread a big task over many workers names a :class:`Sharding` in its
descriptor (``shards="shards:SHARDING"``). Whoever runs it (the cluster runner, on any executor of
:mod:`cpwords.engines.executors`) asks it to

* :meth:`~Sharding.prepare` what its shards share (the problem, a lexicon), once per process;
* :meth:`~Sharding.plan` the shards of a spec: picklable :class:`Shard` objects with a stable id
  (the checkpoint key) and a cost estimate (bigger shards start first);
* :meth:`~Sharding.run` one shard anywhere, returning plain data (the *partial*);
* :meth:`~Sharding.split` a shard that ran past the runner's time cap into smaller ones (the
  heavy ones are found by measuring them, not by guessing), keeping what the cut attempt finished;
* :meth:`~Sharding.combine` the partials into one :class:`~cpwords.engines.found.Found` (exact
  integer sums, or a maximum with a fixed tie-break) and build the :meth:`~Sharding.result`.

Partials and shard data are JSON data (ints, strings, lists, dicts): they travel to workers and
back, and a checkpoint stores them as they are; Python's ``json`` keeps integers exact.

>>> shard = Shard("h:3", [[3]], cost=2.0)
>>> Shard.from_json(shard.to_json()) == shard
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from cpwords.errors import CpwordsError

#: Default time cap of a splittable shard: one that runs longer is stopped and split.
SHARD_SECONDS = 30.0

if TYPE_CHECKING:
    from cpwords.engines.budget import Budget
    from cpwords.engines.found import Found
    from cpwords.results import Result
    from cpwords.specs import BaseSpec


@dataclass(frozen=True)
class Shard:
    """One independent piece of a task.

    Attributes
    ----------
    id: unique within its spec's plan and the same in every run (the checkpoint key).
    data: what :meth:`Sharding.run` needs, as JSON data (lists, not tuples).
    cost: estimated cost relative to the other shards of the plan; bigger shards start first.
    splittable: the shard can be split when it runs past the runner's time cap.
    small: so cheap that the runner sends several in one task (per-task overhead would dominate).
    """

    id: str
    data: Any
    cost: float = 1.0
    splittable: bool = False
    small: bool = False

    def to_json(self) -> dict[str, Any]:
        """The shard as JSON data (for the checkpoint)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shard:
        """The shard :meth:`to_json` wrote."""
        return cls(**data)


class ShardStopped(CpwordsError):
    """Raised by :meth:`Sharding.run` when its budget ran out first: ``partial`` holds what the
    shard found before it stopped (a lower bound, or the best so far), or None."""

    def __init__(self, partial: Any = None) -> None:
        super().__init__("shard stopped before it finished")
        self.partial = partial


class Sharding:
    """How one kind splits some of its tasks into shards; subclassed in ``puzzles/<kind>/shards.py``.

    Attributes
    ----------
    version: changes whenever plans, partials or their meaning change, so that a checkpoint of
        an older scheme is refused instead of mixed in.
    uses_seed: the answer depends on the spec's seed (a seeded search), so the seed is part of
        the run's identity.
    """

    version = "1"
    uses_seed = False

    def supports(self, spec: BaseSpec) -> bool:
        """Whether this spec's task and engine are sharded here (the others run whole)."""
        raise NotImplementedError

    def prepare(self, spec: BaseSpec) -> Any:
        """What every shard of ``spec`` needs (problem, lexicon …), built once per process."""
        raise NotImplementedError

    def plan(self, spec: BaseSpec, context: Any, budget: Budget | None = None) -> list[Shard]:
        """The shards of ``spec``: together they cover the whole task exactly once.

        A plan that takes long watches ``budget`` (the spec's time limit) and raises
        :class:`~cpwords.engines.budget.SearchTimeout` when it ends first."""
        raise NotImplementedError

    def spreads_unasked(self, spec: BaseSpec) -> bool:
        """Whether one spec's split pays off on its own (a board count), so that the route
        (:func:`cpwords.route.route`) spreads it over one worker a core even when the run asked
        for no workers. Default: no; the spec spreads only when workers are asked for."""
        return False

    def worth_spreading(self, spec: BaseSpec, context: Any, shards: Sequence[Shard]) -> bool:
        """Whether the planned ``shards`` are worth local workers: when not (a plan too small for
        processes to pay off), and the caller did not ask for shards (a cluster, a checkpoint),
        the runner runs them in this process. Default: more than one shard."""
        return len(shards) > 1

    def enough(self, spec: BaseSpec, partial: Any) -> bool:
        """Whether one finished shard's ``partial`` settles the whole task (a search that reached
        its target): the runner then ends the spec's other shards. Default: never."""
        return False

    def run(self, spec: BaseSpec, context: Any, shard: Shard, budget: Budget) -> Any:
        """Solve one shard within ``budget``: its partial result as JSON data.

        Raises
        ------
        ShardStopped
            When the budget ran out first (with what was found so far).
        """
        raise NotImplementedError

    def split(self, spec: BaseSpec, context: Any, shard: Shard, partial: Any) -> list[Shard | tuple[Shard, Any]]:
        """Smaller shards covering exactly what ``shard`` covers (only for splittable shards).

        ``partial`` is what the attempt cut at the time cap found (from :class:`ShardStopped`).
        A piece that attempt already finished comes back as ``(shard, its partial)``: it is kept,
        not run again, so a cut attempt wastes only the piece it was in the middle of.
        """
        raise NotImplementedError(f"{type(self).__name__} does not split shards")

    def combine(self, spec: BaseSpec, context: Any, partials: Sequence[tuple[Shard, Any]],
                complete: bool) -> Found:
        """One Found from the partials, in shard-id order.

        ``complete`` says whether every shard finished; when not, ``partials`` also holds what
        stopped shards found (:class:`ShardStopped`), and the runner marks the Found incomplete.
        """
        raise NotImplementedError

    def result(self, spec: BaseSpec, context: Any, found: Found) -> Result:
        """The Result of the combined Found, as the kind's own ``solve`` would build it."""
        raise NotImplementedError
