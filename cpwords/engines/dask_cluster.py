"""The Dask executor of the execution layer: a ``LocalCluster`` started here, or a running scheduler.

Dask is imported only when a cluster is asked for, so a plain install needs no Dask.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import logging
import multiprocessing
import os
import queue
import threading
import uuid
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.executors import Executor, TaskFn
from cpwords.engines.workers import kill, worker_count
from cpwords.errors import InputError
from cpwords.wording import counted

#: The option that names a cluster (for messages), and the environment variable that does.
OPTION = "--cluster"
ENV = "CPWORDS_CLUSTER"
#: Seconds to wait for a remote scheduler to answer, and for its first worker (the run's time
#: limit, when shorter, bounds both).
CONNECT_TIMEOUT_S = 10.0
WORKER_WAIT_S = 30.0
#: Seconds between two looks at the budget while a local cluster starts.
POLL_S = 0.1


class Dask(Executor):
    """A Dask cluster: a ``LocalCluster`` started here (``local[:N]``) or a running scheduler.

    Dask reruns the tasks of a worker that dies on the other workers, so a lost machine costs
    only the shards it was running. On a remote cluster, :meth:`cancel` sets a Dask ``Event``
    that running shards watch, and cancels the tasks still waiting. Connecting shares the run's
    time limit; an address where no Dask scheduler answers is one line, not a traceback.
    """

    def __init__(self, address: str, workers: int | None = None, budget: Budget | None = None) -> None:
        if importlib.util.find_spec("distributed") is None:
            raise InputError("needs Dask: .venv/bin/pip install '.[cluster]' (dask[distributed])",
                             field=OPTION, value=address)
        self._distributed: Any = None  # imported when needed (a second): Dask has no type annotations
        self._cluster: Any = None
        self._done: queue.Queue[Any] = queue.Queue()
        self._futures: set[Any] = set()
        self.stop_event: str | None = None
        left = None if budget is None else budget.left()
        self._ready = threading.Event()
        self._lock = threading.Lock()
        self._abandoned = False
        self._start_error: Exception | None = None
        self.client: Any = None
        if address == "local" or address.startswith("local:"):
            asked = parse_local(address) or workers
            n, self.note = worker_count(asked)
            self.workers = n
            self.description = f"Dask LocalCluster of {counted(n, 'worker')}"
            self._before = {p.pid for p in multiprocessing.active_children()}
            self._local_workers = n
            self._starting: threading.Thread | None = None
            return
        distributed = self._distributed = importlib.import_module("distributed")
        timeout = CONNECT_TIMEOUT_S if left is None else max(0.1, min(CONNECT_TIMEOUT_S, left))
        self.client = _connect(distributed, address, timeout)
        wait_s = WORKER_WAIT_S if left is None else max(0.1, min(WORKER_WAIT_S, left))
        try:
            self.client.wait_for_workers(1, timeout=wait_s)
        except Exception:
            self.client.close()
            raise InputError(f"the Dask scheduler has no workers after {wait_s:.0f} s; start some "
                             f"with: dask worker {address} --nthreads 1", field=OPTION, value=address) from None
        self.stop_event = f"cpwords-stop-{uuid.uuid4().hex}"
        self.description = f"Dask scheduler {address}"
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        self.description += f" ({counted(self.workers, 'worker')})"
        self._ready.set()

    def _start_local(self, n: int) -> None:
        try:
            distributed = self._distributed = importlib.import_module("distributed")
        except ImportError as exc:
            self._start_error = exc
            self._ready.set()
            return
        for name in ("distributed", "distributed.nanny", "distributed.worker", "distributed.scheduler"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        try:
            cluster = distributed.LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                silence_logs=logging.CRITICAL, host="127.0.0.1")
            client = distributed.Client(cluster)
        except Exception as exc:  # reported by ready()
            self._start_error = exc
            self._ready.set()
            return
        with self._lock:
            if self._abandoned:
                with contextlib.suppress(Exception):
                    client.close()
                    cluster.close(timeout=2)
                return
            self._cluster, self.client = cluster, client
        self._ready.set()

    def ready(self, budget: Budget) -> bool:
        """Wait until the cluster has started; False when ``budget`` ended first.

        A local cluster starts here, once the caller has planned its work (started any earlier,
        its start-up would slow the planning for the interpreter they share), in a thread, so that
        a time limit that comes first ends the wait instead of the start-up."""
        if self._cluster is None and not self._ready.is_set() and getattr(self, "_starting", None) is None:
            self._starting = threading.Thread(target=self._start_local, args=(self._local_workers,),
                                              name="cpwords-dask-start", daemon=True)
            self._starting.start()
        while not self._ready.wait(POLL_S):
            if budget.expired():
                return False
        error = self._start_error
        if error is not None:
            raise InputError(f"the Dask LocalCluster did not start ({' '.join(str(error).split())[:120]})",
                             field=OPTION, value="local") from None
        return True

    def submit(self, fn: TaskFn, task: Any, priority: float = 0.0) -> Any:
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

    def _abandon(self) -> bool:
        """A local cluster still starting (or never started): have it closed once up, and end what
        it has started."""
        with self._lock:
            if self.client is not None:
                return False
            self._abandoned = True
        self._kill_started()
        return True

    def _kill_started(self) -> None:
        """End the processes the local cluster started (its workers), at once."""
        for process in multiprocessing.active_children():
            if process.pid not in getattr(self, "_before", {process.pid}) and process.pid is not None:
                kill(process.pid)

    def cancel(self) -> None:
        if self._abandon():
            return
        if self.stop_event is not None:
            with contextlib.suppress(Exception):  # the scheduler is gone: nothing left to stop
                self._distributed.Event(self.stop_event, client=self.client).set()
        if self._futures:
            with contextlib.suppress(Exception):
                self.client.cancel(list(self._futures))
        if self._cluster is not None:
            # Our own workers: ending them ends their shards at once (a graceful close would
            # wait for the running shards).
            self._kill_started()
            self.close()

    def close(self) -> None:
        if self._abandon():
            return
        try:
            self.client.close(timeout=2)
        finally:
            if self._cluster is not None:
                with contextlib.suppress(Exception):
                    self._cluster.close(timeout=2)
                self._cluster = None


def _connect(distributed: Any, address: str, timeout: float) -> Any:
    """A client of the scheduler at ``address``, or one line saying why not within ``timeout``.

    Dask's own timeout does not cover a server that accepts the connection and then stays silent
    (the handshake waits forever), so the attempt runs in a thread that is left behind when it
    does not answer in time."""
    outcome: list[Any] = []

    def attempt() -> None:
        try:
            outcome.append(distributed.Client(address, timeout=f"{timeout}s"))
        except Exception as exc:  # refused, not Dask (an SSH banner), a bad address
            outcome.append(exc)

    thread = threading.Thread(target=attempt, name="cpwords-dask-connect", daemon=True)
    thread.start()
    thread.join(timeout + 0.5)
    if not outcome:
        raise InputError(f"no Dask scheduler answered there within {timeout:.1f} s", field=OPTION, value=address)
    if isinstance(outcome[0], MemoryError | OverflowError) or "Unable to allocate" in str(outcome[0]):
        # Dask read another protocol's greeting (an SSH banner) as the length of a message.
        raise InputError("the service there is not a Dask scheduler (it answered in another protocol)",
                         field=OPTION, value=address)
    if isinstance(outcome[0], Exception):
        shown = " ".join(str(outcome[0]).split())[:120] or type(outcome[0]).__name__
        raise InputError(f"cannot reach a Dask scheduler there ({shown})", field=OPTION, value=address)
    return outcome[0]


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
    """N of ``local:N`` (None for a bare ``local``: :func:`default_workers`); raises for a bad N.

    >>> parse_local("local:3"), parse_local("local")
    (3, None)
    """
    _, _, n = value.partition(":")
    if not n:
        return None
    if not n.isdigit() or len(n) > 18 or int(n) < 1:
        raise InputError("give local or local:N with N >= 1 worker processes", field=OPTION, value=value)
    return int(n)
