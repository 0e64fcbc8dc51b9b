"""The runner: plan the shards of every spec, resume from the checkpoint, run the rest on the
executor, split the shards that run past the time cap, and combine each spec's partials.

Every spec of a batch is planned first and all their shards are sent at once, biggest first,
so that many small specs (a census of Letter Boxed boxes) keep every worker busy; shards marked
``small`` travel in bundles. The shards of one spec form a tree: the plan's shards are its
roots, a split shard's children hang below it, and the finished leaves are what the checkpoint
keeps. Any such tree covers the task exactly once, so the total is the same however the shards
were split, on however many workers, and whether or not the run was resumed.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cpwords.cluster.checkpoint import Checkpoint
from cpwords.cluster.identity import digest, fingerprint
from cpwords.cluster.whole import sharding_of
from cpwords.cluster.worker import DONE, TOO_LARGE, Item, Task, forget, remember, run_task
from cpwords.engines.budget import Advance, Budget, SearchTimeout
from cpwords.engines.executors import Executor
from cpwords.engines.parallel import open_executor
from cpwords.engines.shards import SHARD_SECONDS, Shard, Sharding
from cpwords.errors import InputError

if TYPE_CHECKING:
    from cpwords.results import Result
    from cpwords.specs import BaseSpec

#: Small shards sent together in one task.
BUNDLE = 32
#: Seconds to wait for running shards to report what they found once their time is up.
GRACE_S = 0.3
#: How often the runner looks at the stop switch while it waits.
POLL_S = 0.2


@dataclass
class _Job:
    """One spec of the run and the state of its shard tree."""

    index: int
    spec: BaseSpec
    sharding: Sharding
    fingerprint: dict[str, Any]
    key: str
    budget: Budget
    context: Any = None
    done: dict[str, tuple[Shard, Any, float]] = field(default_factory=dict)
    stopped: list[tuple[Shard, Any]] = field(default_factory=list)
    outstanding: list[int] = field(default_factory=list)  # per root: leaves not finished yet
    resumed: int = 0
    splits: int = 0
    run_here: int = 0
    error: str | None = None
    unplanned: bool = False
    settled: bool = False  # a shard's partial settled the task (Sharding.enough): the rest are not needed

    @property
    def complete(self) -> bool:
        return self.error is None and not self.unplanned and not any(self.outstanding)

    def wall_deadline(self) -> float | None:
        """The spec's deadline on the wall clock (what workers on other machines can read)."""
        left = self.budget.left()
        return None if self.budget.deadline is None or left is None else time.time() + left


@dataclass
class _Run:
    """What the main loop tracks."""

    jobs: list[_Job]
    executor: Executor
    store: Checkpoint | None
    advance: Advance
    cap: float | None
    in_flight: dict[Any, list[tuple[_Job, Shard, int]]] = field(default_factory=dict)


def run(specs: Sequence[BaseSpec], budget: Budget, *, cluster: str | None = None, workers: int | None = None,
        checkpoint: str | Path | None = None, shard_seconds: float | None = SHARD_SECONDS,
        spread_always: bool = True) -> list[Result] | None:
    """Solve ``specs`` (already validated, seeds set) in shards: the sharded ``kind.solve``.

    Parameters
    ----------
    specs:
        The specs of the run (a batch file's puzzles, or one).
    budget:
        The run's budget: its stop switch (Ctrl-C) and progress reporter; each spec also ends at
        its own ``time_limit``.
    cluster:
        None (worker processes on this machine, ``workers`` of them, or this process alone),
        ``local`` / ``local:N`` (a Dask LocalCluster started here) or a Dask scheduler address.
    workers:
        Local processes (without a cluster) or LocalCluster workers (``local`` without N).
    checkpoint:
        An SQLite file keeping every finished shard; an existing one of the same run resumes.
    shard_seconds:
        Time cap of a splittable shard: past it the shard is stopped and split (None: never).
    spread_always:
        False when the route chose local workers for the kind's split (nobody asked for shards):
        when no sharding finds its plan worth spreading (:meth:`Sharding.worth_spreading`), the
        run returns None at once, without starting workers, for the kinds to solve here.

    Returns one Result per spec, in order, with ``stats`` ``shards_done`` / ``shards_total`` and
    friends, or None (see ``spread_always``). Raises InputError for a bad cluster address or
    checkpoint, a checkpoint of another run, or workers with another cpwords version or data.
    """
    jobs = [_new_job(i, spec, budget) for i, spec in enumerate(specs)]
    # The workers are of use until the last spec's time is up: connecting (and waiting for another
    # process's lock on the checkpoint) shares that limit.
    deadlines = [j.budget.deadline for j in jobs]
    until = budget.child() if None in deadlines or not deadlines else budget.child(
        max(0.0, max(d for d in deadlines if d is not None) - time.monotonic()))
    store = Checkpoint.open(checkpoint, [j.fingerprint for j in jobs], until) if checkpoint is not None else None
    executor: Executor | None = None
    try:
        # First: a bad address fails before planning (a local Dask cluster starts meanwhile).
        executor = open_executor(cluster, workers, until)
        for job in jobs:  # a plan can fit the workers it will have (one chain each)
            job.budget.workers = executor.workers
        pending = _plan_all(jobs, store)
        if not spread_always and cluster is None and not _worth_spreading(jobs, pending):
            return None  # no worker was started yet (they start on the first shard)
        for job in jobs:
            remember(job.key, job.sharding, job.context)  # before local workers fork: they inherit it
        _run_pending(jobs, pending, executor, store, budget, until, shard_seconds)
    finally:
        if executor is not None:
            executor.close()
        for job in jobs:
            forget(job.key)
        if store is not None:
            store.close()
    return [_result(job, executor, checkpoint) for job in jobs]


def _run_pending(jobs: list[_Job], pending: list[tuple[_Job, Shard, int]], executor: Executor,
                 store: Checkpoint | None, budget: Budget, until: Budget, cap: float | None) -> None:
    """Run the shards still to run, reporting finished roots as progress."""
    roots = sum(len(j.outstanding) for j in jobs)
    with budget.progress(_description(jobs), total=roots) as advance:
        advance(sum(1 for j in jobs for n in j.outstanding if n == 0))
        state = _Run(jobs, executor, store, advance, cap)
        if pending and not all(j.budget.expired() for j in jobs) and executor.ready(until):
            _submit(state, pending)
            _loop(state, budget)


def _new_job(index: int, spec: BaseSpec, budget: Budget) -> _Job:
    own = budget.child(spec.time_limit)  # first: hashing the data counts against the time limit too
    sharding = sharding_of(spec)
    fp = fingerprint(spec, sharding)
    return _Job(index, spec, sharding, fp, digest(fp), own)


def _description(jobs: list[_Job]) -> str:
    if len(jobs) == 1:
        return f"shards of {jobs[0].spec.kind} {jobs[0].spec.task}"
    return f"shards of {len(jobs)} puzzles"


def _plan_all(jobs: list[_Job], store: Checkpoint | None) -> list[tuple[_Job, Shard, int]]:
    """Prepare and plan every spec; rebuild the recorded tree; the shards still to run."""
    pending: list[tuple[_Job, Shard, int]] = []
    for job in jobs:
        job.context = job.sharding.prepare(job.spec)
        try:
            roots = job.sharding.plan(job.spec, job.context, job.budget)
        except SearchTimeout:
            job.unplanned = True  # the time limit came first: nothing to run, nothing found
            continue
        _check_ids(job, roots)
        done = store.done(job.index) if store is not None else {}
        splits = store.splits(job.index) if store is not None else {}
        job.outstanding = [1] * len(roots)
        stack = [(shard, r) for r, shard in enumerate(roots)]
        while stack:
            shard, root = stack.pop()
            if shard.id in done:
                partial, seconds = done[shard.id]
                job.done[shard.id] = (shard, partial, seconds)
                job.resumed += 1
                job.outstanding[root] -= 1
            elif shard.id in splits:
                children = splits[shard.id]
                job.splits += 1
                job.outstanding[root] += len(children) - 1
                stack += [(c, root) for c in children]
            else:
                pending.append((job, shard, root))
    return pending


def _worth_spreading(jobs: list[_Job], pending: list[tuple[_Job, Shard, int]]) -> bool:
    """Whether any spec's shards are worth local workers (its sharding says so), or several
    specs have shards to run."""
    if len({id(job) for job, _, _ in pending}) > 1:
        return True
    return any(job.sharding.worth_spreading(job.spec, job.context, [s for j, s, _ in pending if j is job])
               for job in jobs if any(j is job for j, _, _ in pending))


def _check_ids(job: _Job, shards: list[Shard]) -> None:
    ids = [s.id for s in shards]
    if len(set(ids)) != len(ids):
        raise AssertionError(f"{job.spec.kind}: shard ids of a plan must be unique")  # a bug in a kind if ever


def _submit(state: _Run, shards: list[tuple[_Job, Shard, int]]) -> None:
    """Send shards to the executor, biggest first; small ones in bundles."""
    ordered = sorted(shards, key=lambda t: -t[1].cost)
    small = [t for t in ordered if t[1].small]
    for entry in [t for t in ordered if not t[1].small]:
        _send(state, [entry])
    for i in range(0, len(small), BUNDLE):
        _send(state, small[i:i + BUNDLE])


def _send(state: _Run, entries: list[tuple[_Job, Shard, int]]) -> None:
    from cpwords.version import __version__

    items = [Item(job.key, job.spec, job.fingerprint, shard, job.wall_deadline(), state.cap)
             for job, shard, _ in entries]
    handle = state.executor.submit(run_task, Task(items, __version__), sum(s.cost for _, s, _ in entries))
    state.in_flight[handle] = entries


def _loop(state: _Run, budget: Budget) -> None:
    """Collect finished tasks until none is left, the run is stopped, or time is up."""
    ended_at: float | None = None
    while state.in_flight:
        if budget.stopped:
            state.executor.cancel()
            return
        if all(job.budget.expired() for entries in state.in_flight.values() for job, _, _ in entries):
            ended_at = ended_at or time.monotonic()
            if time.monotonic() - ended_at > GRACE_S:
                state.executor.cancel()
                return
        handle = state.executor.next_done(POLL_S)
        if handle is None or handle not in state.in_flight:
            continue
        entries = state.in_flight.pop(handle)
        try:
            envelopes = state.executor.outcome(handle)
        except InputError:
            state.executor.cancel()
            raise
        except Exception as exc:  # a worker lost too often, a scheduler gone, a bug in a shard
            for job, _, _ in entries:
                job.error = job.error or f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"
            continue
        for (job, shard, root), envelope in zip(entries, envelopes, strict=True):
            if not job.settled:
                _take(state, job, shard, root, envelope)
        waiting = {id(job): job for entries in state.in_flight.values() for job, _, _ in entries}
        if waiting and all(job.settled for job in waiting.values()):
            state.executor.cancel()  # every shard still running belongs to a settled spec
            return


def _take(state: _Run, job: _Job, shard: Shard, root: int, envelope: dict[str, Any]) -> None:
    """One shard's envelope: keep it, split it, or note what a stopped shard found."""
    status, value = envelope["status"], envelope["value"]
    if status == DONE:
        job.done[shard.id] = (shard, value, envelope["seconds"])
        job.run_here += 1
        if state.store is not None:
            state.store.record(job.index, shard, value, envelope["seconds"], envelope["worker"])
        _leaf_finished(state, job, root, -1)
        if job.sharding.enough(job.spec, value):
            _settle(state, job)
    elif status == TOO_LARGE and not job.budget.expired():
        children = job.sharding.split(job.spec, job.context, shard, value)
        job.splits += 1
        shards = [c[0] if isinstance(c, tuple) else c for c in children]
        if state.store is not None:
            state.store.record_split(job.index, shard, shards)
        job.outstanding[root] += len(children) - 1
        for child in children:
            if isinstance(child, tuple):  # finished by the cut attempt: kept
                _take(state, job, child[0], root, {**envelope, "status": DONE, "value": child[1],
                                                   "worker": f"{envelope['worker']} (kept from a cut attempt)"})
        if job.outstanding[root] == 0:
            state.advance(1)
        _submit(state, [(job, c, root) for c in children if not isinstance(c, tuple)])
    else:
        job.stopped.append((shard, value))


def _settle(state: _Run, job: _Job) -> None:
    """The spec's task is settled by a finished shard: the shards not finished are not needed."""
    job.settled = True
    state.advance(sum(1 for n in job.outstanding if n > 0))
    job.outstanding = [0] * len(job.outstanding)
    job.stopped.clear()


def _leaf_finished(state: _Run, job: _Job, root: int, change: int) -> None:
    job.outstanding[root] += change
    if job.outstanding[root] == 0:
        state.advance(1)


def _result(job: _Job, executor: Executor, checkpoint: str | Path | None) -> Result:
    """The spec's Result from its partials, with the run's figures in ``stats``."""
    from cpwords.results import Status

    complete = job.complete
    pairs = [(shard, partial) for shard, partial, _ in sorted(job.done.values(), key=lambda t: t[0].id)]
    if not complete:
        pairs += sorted(((s, p) for s, p in job.stopped if p is not None), key=lambda t: t[0].id)
    found = job.sharding.combine(job.spec, job.context, pairs, complete)
    if not complete:
        reason = (job.budget.expired() and job.budget.reason) or "interrupted"
        found.stop(reason)
        found.stats["stopped"] = reason
    seconds = [t for _, _, t in job.done.values()]
    pending = sum(job.outstanding)
    found.stats |= {
        "shards_done": len(job.done), "shards_total": len(job.done) + pending,
        "shards_resumed": job.resumed, "shards_run": job.run_here, "shards_split": job.splits,
        "shard_s_max": round(max(seconds, default=0.0), 6), "shard_s_sum": round(sum(seconds), 6),
        "cluster": executor.description, "workers": executor.workers}
    if executor.note is not None:
        found.stats["workers_note"] = executor.note
    if checkpoint is not None:
        found.stats["checkpoint"] = str(checkpoint)
    result = job.sharding.result(job.spec, job.context, found)
    if job.error is not None:
        result.status = Status.ERROR
        kept = " (the checkpoint keeps the finished shards; run again to resume)" if checkpoint is not None else ""
        result.message = f"a shard failed: {job.error}{kept}"
    return result
