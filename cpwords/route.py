"""Where a spec runs, decided once: :func:`route`.

A run goes one of three ways, and only this module chooses:

* **here**: the kind's own ``solve`` in this process (the run's ``budget.workers`` says how many
  processes a kind's counting pool may use: Ganak's, which exists so a count can be killed);
* **workers**: the spec's shards (its kind's :class:`~cpwords.engines.shards.Sharding`, the kind's
  only description of a split) on local worker processes, through the shard runner;
* **cluster**: the shards on a Dask cluster (``--cluster``, or ``$CPWORDS_CLUSTER``).

A checkpoint (``--checkpoint``) always goes through the runner (on the workers or the cluster),
since the runner is what keeps finished shards. The CLI, the server and the API build an
:class:`~cpwords.options.Options` and call the API, which calls :func:`route`; none of them, and
no kind, decides anything about where work runs, and ``workers`` is read here and nowhere else.

>>> from cpwords.puzzles.loading import parse_spec
>>> spec = parse_spec({"kind": "ladder", "start": "cat", "target": "dog"})
>>> route(spec, Options()).where
'here'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from cpwords import puzzles
from cpwords.engines.workers import default_workers, worker_count
from cpwords.options import Options

if TYPE_CHECKING:
    from cpwords.engines.shards import Sharding
    from cpwords.specs import BaseSpec

Where = Literal["here", "workers", "cluster"]


@dataclass(frozen=True)
class Route:
    """Where a spec runs, and on how many processes.

    Attributes
    ----------
    where: ``here`` (the kind's own solve in this process), ``workers`` (shards on local worker
        processes) or ``cluster`` (shards on Dask).
    workers: processes of the run: local workers, workers of a LocalCluster started for the run
        (None: the cluster's own count), or what a kind may use here (``budget.workers``).
    cluster: the cluster address (``local``, ``local:N``, ``tcp://…``) or None.
    forced: the caller asked for shards (a cluster, a checkpoint, :func:`cpwords.api.solve_batch`):
        the runner keeps them even when one process would do.
    note: what capping the workers at the cores did, to be shown (or None).
    """

    where: Where
    workers: int | None
    cluster: str | None = None
    forced: bool = False
    note: str | None = None

    @property
    def sharded(self) -> bool:
        """Whether the run goes through the shard runner."""
        return self.where != "here"


def route(spec: BaseSpec, options: Options, *, shards: bool = False) -> Route:
    """Where ``spec`` runs under ``options`` (``shards``: the caller asks for the runner).

    Workers are the options', else the spec's, else the default: one a core (at most 8) for a
    kind whose split pays off on its own (:meth:`Sharding.spreads_unasked`: the board count,
    the grid count without a time limit), else one. More than one worker and a kind that splits the spec's task: the shards go
    to local workers; otherwise the kind solves it here.
    """
    cluster = options.cluster_address()
    asked = options.workers if options.workers is not None else spec.workers
    if options.max_workers is not None:
        asked = min(asked or options.max_workers, options.max_workers)
    if cluster is not None:
        return Route("cluster", asked, cluster, forced=True)
    if shards or options.checkpoint is not None:
        n, note = worker_count(asked)
        return Route("workers", n, forced=True, note=note)
    sharding = _sharding(spec) if asked is None or asked > 1 else None
    if asked is None:
        asked = default_workers() if sharding is not None and sharding.spreads_unasked(spec) else 1
    n, note = worker_count(asked)
    if n > 1 and sharding is not None:
        return Route("workers", n, note=note)
    return Route("here", n, note=note)


def together(specs: list[BaseSpec], options: Options, *, shards: bool = False) -> bool:
    """Whether the specs of a batch go to the runner all at once (sharing its workers and one
    checkpoint), rather than one after the other: with a cluster or a checkpoint."""
    return bool(specs) and (shards or options.checkpoint is not None or options.cluster_address() is not None)


def _sharding(spec: BaseSpec) -> Sharding | None:
    """The kind's sharding, when it splits the spec's task and engine."""
    kind = puzzles.get(spec.kind)
    if not kind.shards:
        return None
    sharding: Sharding = kind.load(kind.shards)
    return sharding if sharding.supports(spec) else None
