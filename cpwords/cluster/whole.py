"""The fallback sharding: a spec whose kind does not shard its task runs whole, as one shard.

So every spec of a batch can go to the cluster (each batch member on some worker, all at once)
and every finished one is kept by the checkpoint, whatever its kind and task.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cpwords.engines.shards import Shard, Sharding, ShardStopped

if TYPE_CHECKING:
    from cpwords.engines.budget import Budget
    from cpwords.engines.found import Found
    from cpwords.results import Result
    from cpwords.specs import BaseSpec


class WholeSpec(Sharding):
    """One shard: the kind's own ``solve``; the partial is the Result as JSON data.

    ``uses_seed``: the runner cannot tell whether the kind's task is random, so the seed is part
    of the run's identity.
    """

    version = "1"
    uses_seed = True

    def supports(self, spec: BaseSpec) -> bool:
        """Every spec."""
        return True

    def prepare(self, spec: BaseSpec) -> None:
        """Nothing is shared: the kind's ``solve`` prepares its own problem."""
        return None

    def plan(self, spec: BaseSpec, context: Any, budget: Budget | None = None) -> list[Shard]:
        """The whole spec."""
        return [Shard("whole", None)]

    def run(self, spec: BaseSpec, context: Any, shard: Shard, budget: Budget) -> Any:
        """The kind's Result of the spec, as JSON data."""
        from cpwords import puzzles
        from cpwords.results import Status

        result = puzzles.get(spec.kind).solve(spec, budget)
        data = result.model_dump(mode="json")
        if budget.expired() and result.status is not Status.OPTIMAL and result.status is not Status.INFEASIBLE:
            raise ShardStopped(data)
        return data

    def combine(self, spec: BaseSpec, context: Any, partials: Sequence[tuple[Shard, Any]],
                complete: bool) -> Found:
        """The one Result (finished or stopped), carried in ``answers``."""
        from cpwords.engines.found import Found

        return Found(answers=[data for _, data in partials if data is not None])

    def result(self, spec: BaseSpec, context: Any, found: Found) -> Result:
        """The Result the shard returned, its solutions as the kind's Solution objects again."""
        from cpwords import puzzles
        from cpwords.results import Result, Status

        if not found.answers:
            return Result(kind=spec.kind, status=Status.UNKNOWN, engine=str(spec.engine), task=spec.task,
                          message="the run stopped before this puzzle was solved", stats=dict(found.stats))
        data = dict(found.answers[0])
        solution_class = puzzles.get(spec.kind).solution_class()
        solutions = [solution_class.model_validate(s) for s in data.pop("solutions", [])]
        result = Result.model_validate(data)
        result.solutions = list(solutions)
        result.stats |= found.stats
        return result


def sharding_of(spec: BaseSpec) -> Sharding:
    """The sharding for ``spec``: its kind's, when the kind has one that supports the spec's task
    and engine, else :class:`WholeSpec` (the spec as one shard)."""
    from cpwords import puzzles

    kind = puzzles.get(spec.kind)
    if kind.shards:
        sharding: Sharding = kind.load(kind.shards)
        if sharding.supports(spec):
            return sharding
    return WholeSpec()
