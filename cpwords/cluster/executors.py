"""Where tasks run: in this process, in local worker processes, or on a Dask cluster.

All three offer the same small interface to the runner: :meth:`Executor.submit` a task (with a
priority: bigger shards first), :meth:`Executor.next_done` (the next finished task, or None after
a short wait, so that the runner sees a stop request), :meth:`Executor.outcome`,
:meth:`Executor.cancel` (stop everything now) and :meth:`Executor.close`.

The cluster option reads: ``None`` (local processes, or this process for one worker),
``local`` or ``local:N`` (a Dask ``LocalCluster`` of N worker processes started here) or a
scheduler address (``tcp://host:8786``). Dask is imported only for the last two, so a plain
install needs no Dask. :func:`cluster_option` also reads ``CPWORDS_CLUSTER``.
"""

from __future__ import annotations

import contextlib
import heapq
import importlib
import itertools
import logging
import os
import queue
import signal
import uuid
from collections.abc import Callable
from typing import Any

from cpwords.engines.budget import Budget, usable_cores
from cpwords.errors import InputError

ENV = "CPWORDS_CLUSTER"
OPTION = "--cluster"
#: Seconds to wait for a remote scheduler to answer, and for its first worker.
CONNECT_TIMEOUT_S = 10.0
WORKER_WAIT_S = 30.0

TaskFn = Callable[..., Any]


def cluster_option(value: str | None) -> str | None:
    """The cluster to use: ``value``, else ``$CPWORDS_CLUSTER``; ``none``/``off`` (either place)
    means no cluster.

    >>> cluster_option("local:2")
    'local:2'
    >>> cluster_option("off") is None
    True
    """
    if value is None:
        value = os.environ.get(ENV) or None
    if value is None or value.strip().lower() in ("", "none", "off"):
        return None
    return value.strip()


def parse_local(value: str) -> int | None:
    """N of ``local:N`` (None for a bare ``local``: one worker per core); raises for a bad N.

    >>> parse_local("local:3"), parse_local("local")
    (3, None)
    """
    _, _, n = value.partition(":")
    if not n:
        return None
    if not n.isdigit() or int(n) < 1:
        raise InputError("give local or local:N with N >= 1 worker processes", field=OPTION, value=value)
    return int(n)


class Executor:
    """The interface the runner uses (see the module docstring)."""

    description = ""
    workers = 1

    def submit(self, fn: TaskFn, task: Any, priority: float) -> Any:
        """Start ``fn(task)`` somewhere; returns a handle."""
        raise NotImplementedError

    def next_done(self, timeout: float) -> Any | None:
        """A handle whose task has finished, or None after ``timeout`` seconds."""
        raise NotImplementedError

    def outcome(self, handle: Any) -> Any:
        """The return value of a finished task (raises what it raised)."""
        raise NotImplementedError

    def cancel(self) -> None:
        """Stop every task now, running or waiting."""

    def close(self) -> None:
        """Release the workers."""


class _Done:
    """A task run in this process."""

    def __init__(self) -> None:
        self.value: Any = None
        self.error: BaseException | None = None


class InProcess(Executor):
    """Tasks run one at a time in this process, highest priority first, when the runner asks for
    the next finished one; the run's budget reaches them directly (Ctrl-C, time limit)."""

    description = "this process"

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self._heap: list[tuple[float, int, TaskFn, Any, _Done]] = []
        self._order = itertools.count()

    def submit(self, fn: TaskFn, task: Any, priority: float) -> _Done:
        handle = _Done()
        heapq.heappush(self._heap, (-priority, next(self._order), fn, task, handle))
        return handle

    def next_done(self, timeout: float) -> _Done | None:
        if not self._heap:
            return None
        _, _, fn, task, handle = heapq.heappop(self._heap)
        try:
            handle.value = fn(task, self.budget)
        except Exception as exc:
            handle.error = exc
        return handle

    def outcome(self, handle: _Done) -> Any:
        if handle.error is not None:
            raise handle.error
        return handle.value

    def cancel(self) -> None:
        self._heap.clear()


def _quiet_worker() -> None:
    # Ctrl-C reaches the whole process group: the client stops the workers, they stay quiet. A
    # forked worker also inherits the client's signal wake-up pipe: the SIGTERM that ends it
    # must not be written there, where the client would read it as a second Ctrl-C.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)


class Processes(Executor):
    """Worker processes on this machine (``concurrent.futures``; forked where the OS can, so
    they inherit the prepared problem). A worker that dies breaks the pool: the run stops, and
    a checkpoint keeps what finished."""

    def __init__(self, workers: int) -> None:
        import concurrent.futures
        import multiprocessing

        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        self.workers = workers
        self.description = f"{workers} local processes"
        self._pool = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context(method), initializer=_quiet_worker)
        self._done: queue.Queue[Any] = queue.Queue()

    def submit(self, fn: TaskFn, task: Any, priority: float) -> Any:
        future = self._pool.submit(fn, task)
        future.add_done_callback(self._done.put)
        return future

    def next_done(self, timeout: float) -> Any | None:
        try:
            return self._done.get(timeout=timeout)
        except queue.Empty:
            return None

    def outcome(self, handle: Any) -> Any:
        return handle.result()

    def cancel(self) -> None:
        # Running tasks cannot be cancelled through the pool: end their processes.
        processes = list(getattr(self._pool, "_processes", {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for p in processes:
            if p.is_alive():
                p.terminate()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class Dask(Executor):
    """A Dask cluster: a ``LocalCluster`` started here (``local[:N]``) or a running scheduler.

    Dask reruns the tasks of a worker that dies on the other workers, so a lost machine costs
    only the shards it was running. On a remote cluster, :meth:`cancel` sets a Dask ``Event``
    that running shards watch, and cancels the tasks still waiting.
    """

    def __init__(self, address: str, workers: int | None = None) -> None:
        try:
            # Held as Any: Dask has no type annotations to check our calls against.
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise InputError("needs Dask: pip install 'cpwords[cluster]' (dask[distributed])",
                             field=OPTION, value=address) from None
        self._distributed = distributed
        self._cluster: Any = None
        self._done: queue.Queue[Any] = queue.Queue()
        self._futures: set[Any] = set()
        self.stop_event: str | None = None
        if address == "local" or address.startswith("local:"):
            n = parse_local(address) or workers or usable_cores()
            self._cluster = distributed.LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
                silence_logs=logging.ERROR, host="127.0.0.1")
            self.client = distributed.Client(self._cluster)
            self.description = f"Dask LocalCluster of {n} workers"
        else:
            try:
                self.client = distributed.Client(address, timeout=f"{CONNECT_TIMEOUT_S}s")
            except (OSError, TimeoutError, ValueError) as exc:
                raise InputError(f"cannot reach a Dask scheduler there ({' '.join(str(exc).split())[:120]})",
                                 field=OPTION, value=address) from None
            try:
                self.client.wait_for_workers(1, timeout=WORKER_WAIT_S)
            except (TimeoutError, OSError):
                self.client.close()
                raise InputError(f"the Dask scheduler has no workers after {WORKER_WAIT_S:.0f} s; start some "
                                 f"with: dask worker {address} --nthreads 1", field=OPTION, value=address) from None
            self.stop_event = f"cpwords-stop-{uuid.uuid4().hex}"
            self.description = f"Dask scheduler {address}"
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        self.description += f" ({self.workers} workers)" if self._cluster is None else ""

    def submit(self, fn: TaskFn, task: Any, priority: float) -> Any:
        task.stop_event = self.stop_event
        future = self.client.submit(fn, task, pure=False, priority=priority, key=f"cpwords-{uuid.uuid4().hex}")
        self._futures.add(future)
        future.add_done_callback(self._done.put)
        return future

    def next_done(self, timeout: float) -> Any | None:
        try:
            handle = self._done.get(timeout=timeout)
        except queue.Empty:
            return None
        self._futures.discard(handle)
        return handle

    def outcome(self, handle: Any) -> Any:
        return handle.result()

    def cancel(self) -> None:
        if self.stop_event is not None:
            try:
                self._distributed.Event(self.stop_event, client=self.client).set()
            except Exception:  # the scheduler is gone: nothing left to stop
                pass
        if self._futures:
            try:
                self.client.cancel(list(self._futures))
            except Exception:
                pass
        if self._cluster is not None:
            # Our own workers: ending them ends their shards at once (a graceful close would
            # wait for the running shards).
            for nanny in list(self._cluster.workers.values()):
                pid = getattr(nanny, "pid", None)
                if pid:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
            self.close()

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            if self._cluster is not None:
                self._cluster.close()
                self._cluster = None


def open_executor(cluster: str | None, workers: int | None, budget: Budget) -> Executor:
    """The executor for a cluster option (see the module docstring) and a worker count (None: one
    per core; for ``local:N``, N)."""
    if cluster is None:
        n = workers or usable_cores()
        return InProcess(budget) if n <= 1 else Processes(n)
    return Dask(cluster, workers=workers)
