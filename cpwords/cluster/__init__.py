"""Counting beyond one machine: a spec's big task as shards, on local processes or a Dask cluster.

The kinds say how their tasks split (:class:`~cpwords.cluster.sharding.Sharding`, named by the
``shards`` reference of each descriptor); this package holds no per-kind code. It runs the
shards (:mod:`.executors`: this process, local processes, or Dask — imported only when asked
for), keeps each finished one in a checkpoint (:mod:`.checkpoint`), splits the shards that run
too long, and combines the partial results exactly (:mod:`.runner`).

>>> import cpwords.cluster as cluster
>>> r = cluster.solve({"kind": "letter_boxed", "sides": ["abc", "def", "ghi"], "task": "count",
...                    "dictionary": {"words": ["adg", "gbe", "ehc", "cfi", "bad"]}}, workers=1)
>>> r.count, r.stats["shards_done"], r.stats["shards_total"]
(1, 1, 1)
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cpwords.cluster.executors import ENV, cluster_option
from cpwords.cluster.runner import SHARD_SECONDS, run
from cpwords.cluster.sharding import Shard, Sharding, ShardStopped, sharding_of
from cpwords.engines.budget import Budget, Progress, no_progress

if TYPE_CHECKING:
    from cpwords.results import Result
    from cpwords.specs import BaseSpec

__all__ = ["ENV", "SHARD_SECONDS", "Shard", "ShardStopped", "Sharding", "cluster_option", "run", "sharding_of",
           "solve", "solve_batch"]


def solve(spec: BaseSpec | dict[str, Any] | str, *, cluster: str | None = None, checkpoint: str | Path | None = None,
          budget: Budget | None = None, progress: Progress | None = None, engine: str | None = None,
          seed: int | None = None, time_limit: float | None = None, workers: int | None = None,
          shard_seconds: float | None = SHARD_SECONDS, check: bool = True) -> Result:
    """Solve one puzzle in shards: :func:`cpwords.solve` with a cluster and a checkpoint.

    Parameters
    ----------
    spec:
        A spec object, a mapping of its fields, or YAML text.
    cluster:
        ``local`` / ``local:N`` (a Dask LocalCluster of N worker processes started here), a
        Dask scheduler address (``tcp://host:8786``), or None: ``$CPWORDS_CLUSTER`` if set,
        else worker processes on this machine (``workers``; one: this process).
    checkpoint:
        SQLite file keeping every finished shard; rerunning with it resumes.
    budget, progress, engine, seed, time_limit, workers, check:
        As for :func:`cpwords.solve`.
    shard_seconds:
        A splittable shard running longer than this is stopped and split (None: never).

    Returns
    -------
    Result, with ``stats``: ``shards_done``, ``shards_total``, ``shards_resumed``, ``shards_run``,
    ``shards_split``, ``shard_s_max``, ``shard_s_sum``, ``cluster``, ``workers``.

    Raises
    ------
    InputError
        For a bad spec, cluster address or checkpoint (one of another run: the message says
        what changed), or workers that run another cpwords version or read other data.
    """
    return solve_batch([spec], cluster=cluster, checkpoint=checkpoint, budget=budget, progress=progress,
                       engine=engine, seed=seed, time_limit=time_limit, workers=workers,
                       shard_seconds=shard_seconds, check=check)[0]


def solve_batch(specs: Sequence[BaseSpec | dict[str, Any] | str], *, cluster: str | None = None,
                checkpoint: str | Path | None = None, budget: Budget | None = None,
                progress: Progress | None = None, engine: str | None = None, seed: int | None = None,
                time_limit: float | None = None, workers: int | None = None,
                shard_seconds: float | None = SHARD_SECONDS, check: bool = True) -> list[Result]:
    """Solve several puzzles at once (a batch file): all their shards share the workers and one
    checkpoint. Parameters as for :func:`solve`; one Result per spec, in order."""
    from cpwords import api, puzzles

    t0 = time.perf_counter()
    prepared: list[BaseSpec] = []
    fresh: list[bool] = []
    for given in specs:
        spec = _spec(given)
        fresh_seed = seed is None and spec.seed is None
        prepared.append(api.with_options(spec, engine=engine, time_limit=time_limit,
                                         seed=random.randrange(2**31) if fresh_seed else seed))
        fresh.append(fresh_seed)
    if budget is None:
        run_budget = Budget(None, progress=progress or no_progress)
    else:
        run_budget = budget.child()
        if progress is not None:
            run_budget.progress = progress
    asked = workers if workers is not None else max((s.workers for s in prepared if s.workers), default=None)
    results = run(prepared, run_budget, cluster=cluster_option(cluster), workers=asked, checkpoint=checkpoint,
                  shard_seconds=shard_seconds)
    wall = round(time.perf_counter() - t0, 6)
    for spec, result, fresh_seed in zip(prepared, results, fresh, strict=True):
        result.stats |= {"solve_s": wall, "seed": spec.seed}
        if fresh_seed:
            result.stats["seed_fresh"] = True
        if result.title is None:
            result.title = spec.title
        if check and result.solutions:
            api._check(puzzles.get(spec.kind), spec, result, run_budget)
        result.stats["wall_s"] = round(time.perf_counter() - t0, 6)
    return results


def _spec(given: BaseSpec | dict[str, Any] | str) -> BaseSpec:
    from cpwords import api
    from cpwords.specs import parse_spec

    if isinstance(given, str):
        return api.loads(given)
    if isinstance(given, dict):
        return parse_spec(given)
    return given
