"""What runs on a worker: one task, i.e. one shard or a bundle of small ones, of any kind.

A worker prepares what the shards of a spec share once per process (cached by the spec's
fingerprint) and first checks that it runs the client's cpwords version and reads the same
data (the same dictionary content, the same files): a worker with other word data would
silently count something else, so it refuses with one line instead.

Each shard gets a budget that ends at the run's deadline, sent as wall-clock time (the monotonic
clocks of two machines share no origin), and, for a splittable shard, at the runner's time cap:
a shard stopped by the cap while the run still has time comes back as ``too_large`` and the
runner splits it. On a remote cluster a Dask ``Event`` carries the run's stop switch to the
workers (Ctrl-C on the client stops the shards that are running).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cpwords.cluster.identity import changes, digest, fingerprint
from cpwords.cluster.whole import sharding_of
from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.shards import Shard, Sharding, ShardStopped
from cpwords.errors import InputError

if TYPE_CHECKING:
    from cpwords.specs import BaseSpec

#: Envelope statuses.
DONE, STOPPED, TOO_LARGE = "done", "stopped", "too_large"

#: Prepared contexts kept per process (a few runs' worth).
_KEEP = 4
_CONTEXTS: dict[str, tuple[Sharding, Any]] = {}
_LOCK = threading.Lock()


@dataclass
class Item:
    """One shard to run: its spec, the spec's fingerprint as the client computed it, the shard,
    the wall-clock deadline of its spec (None: none) and the time cap (None: none)."""

    job: str
    spec: BaseSpec
    fingerprint: dict[str, Any]
    shard: Shard
    deadline: float | None
    cap: float | None


@dataclass
class Task:
    """What the runner sends to a worker: shards to run one after the other."""

    items: list[Item]
    version: str
    stop_event: str | None = None


def worker_name() -> str:
    """``host:pid`` of this process."""
    return f"{socket.gethostname()}:{os.getpid()}"


def remember(job: str, sharding: Sharding, context: Any) -> None:
    """Prime this process's cache with a context the client already prepared (in-process runs,
    and forked workers, which inherit it)."""
    with _LOCK:
        _CONTEXTS[job] = (sharding, context)


def forget(job: str) -> None:
    """Drop a primed context (the run is over)."""
    with _LOCK:
        _CONTEXTS.pop(job, None)


def _context(item: Item) -> tuple[Sharding, Any]:
    with _LOCK:
        if item.job in _CONTEXTS:
            return _CONTEXTS[item.job]
    sharding = sharding_of(item.spec)
    mine = fingerprint(item.spec, sharding)
    if digest(mine) != item.job:
        raise InputError(f"worker {worker_name()} does not read the client's data: {changes(item.fingerprint, mine)}; "
                         "every worker needs the same cpwords version and word data")
    context = sharding.prepare(item.spec)
    with _LOCK:
        while len(_CONTEXTS) >= _KEEP:
            _CONTEXTS.pop(next(iter(_CONTEXTS)))
        _CONTEXTS[item.job] = (sharding, context)
    return sharding, context


def run_task(task: Task, parent: Budget | None = None) -> list[dict[str, Any]]:
    """Run every shard of ``task``; one envelope each: ``status`` (done, stopped, too_large),
    ``value`` (the partial), ``seconds`` and ``worker``.

    ``parent`` is the run's own budget when the task runs in the client's process (its stop
    switch then reaches the shard directly).

    Raises
    ------
    InputError
        When this worker runs another cpwords version or reads other data than the client.
    """
    from cpwords.version import __version__

    if task.version != __version__:
        raise InputError(f"worker {worker_name()} runs cpwords {__version__}, the client {task.version}; "
                         "install the same cpwords version on every worker")
    root = parent if parent is not None else Budget(None)
    finished = threading.Event()
    if task.stop_event is not None:
        _watch_stop(task.stop_event, root, finished)
    try:
        return [_run_item(item, root) for item in task.items]
    finally:
        finished.set()


def _run_item(item: Item, root: Budget) -> dict[str, Any]:
    sharding, context = _context(item)
    left = None if item.deadline is None else item.deadline - time.time()
    budget = root.child(left)
    capped = budget.child(item.cap) if item.cap is not None and item.shard.splittable else budget
    t0 = time.perf_counter()
    status, value = DONE, None
    try:
        if budget.expired():
            raise ShardStopped()
        value = sharding.run(item.spec, context, item.shard, capped)
    except (ShardStopped, SearchTimeout) as exc:
        value = exc.partial if isinstance(exc, ShardStopped) else None
        status = TOO_LARGE if capped is not budget and not budget.expired() else STOPPED
    return {"status": status, "value": value, "seconds": time.perf_counter() - t0, "worker": worker_name()}


def _watch_stop(name: str, root: Budget, finished: threading.Event) -> None:
    """Stop ``root`` when the run's Dask event is set (polled twice a second while the task runs)."""
    import importlib

    # Made in the task's thread, where the worker's client is known; held as Any (Dask is untyped).
    event: Any = importlib.import_module("distributed").Event(name)

    def watch() -> None:
        while not finished.wait(0.5):
            try:
                if event.is_set():
                    root.stop("interrupted")
                    return
            except Exception:  # the scheduler went away: the task ends with the run anyway
                return

    threading.Thread(target=watch, name="cpwords-stop-watch", daemon=True).start()
