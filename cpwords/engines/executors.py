"""The one execution layer: where parallel work runs — this process, local worker processes, or Dask.

Every piece of cpwords that works in parallel goes through here: the kinds' counts (board
placements, grid terms and leaves, Ganak counts), the cluster runner's shards, the forked solver
calls and the server's workers. The layer alone owns

* **worker start-up** (:func:`start_worker`): SIGINT ignored (Ctrl-C reaches the whole process
  group; the parent stops its workers itself), SIGTERM back to its default action, the parent's
  signal wake-up pipe cleared and its Python handlers dropped, so that a worker that ends can never
  be mistaken for the user's signal;
* **submission by priority** and **results as they finish** (:class:`Executor`);
* **stopping**: a stop request or the deadline ends every worker within a second (SIGKILL: a
  count in C cannot be interrupted any other way), and :meth:`Executor.close` leaves no process;
* **failure**: a local worker that dies (killed, out of memory) is replaced and its task run
  again, up to :data:`RETRIES` times; on Dask the scheduler does the same;
* **how many workers**: :func:`worker_count` caps a request at the cores this process may use
  (:func:`default_workers` when none is asked), :func:`open_executor` caps ``local:N`` likewise.

Three executors share one small interface: :class:`InProcess` (one worker: tasks run here, when the
caller asks for the next result, so the caller's budget reaches them directly), :class:`Local`
(worker processes on this machine, forked where the OS can, so they inherit what the parent
prepared) and :class:`Dask` (a ``LocalCluster`` started here, or a running scheduler). On top of
them, :func:`parallel_map` runs one function over many items and yields each value as it
finishes: the form the kinds use.

>>> sorted(parallel_map(abs, [-3, 1, -2], workers=2))
[(0, 3), (1, 1), (2, 2)]
"""

from __future__ import annotations

import contextlib
import heapq
import importlib
import itertools
import logging
import math
import multiprocessing
import os
import pickle
import queue
import signal
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

from cpwords.engines.budget import Budget, usable_cores
from cpwords.errors import CpwordsError, InputError

ENV = "CPWORDS_CLUSTER"
OPTION = "--cluster"
#: Seconds to wait for a remote scheduler to answer, and for its first worker (the run's time
#: limit, when shorter, bounds both).
CONNECT_TIMEOUT_S = 10.0
WORKER_WAIT_S = 30.0
#: Most workers started by default (each holds a copy of the prepared problem).
MAX_DEFAULT_WORKERS = 8
#: Times a task is run again after the worker running it died.
RETRIES = 2
#: Seconds between two looks at the budget while waiting for workers.
POLL_S = 0.1
#: Seconds past the deadline that :func:`parallel_map` waits for tasks that report what they
#: found when their time is up.
GRACE_S = 0.4

TaskFn = Callable[..., Any]
T = TypeVar("T")
R = TypeVar("R")


class WorkerLost(CpwordsError):
    """A task's worker died more often than :data:`RETRIES` allows (killed, out of memory)."""


# ---------------------------------------------------------------- how many workers

def default_workers() -> int:
    """Workers used when none is asked for: one per usable core, at most :data:`MAX_DEFAULT_WORKERS`."""
    return min(usable_cores(), MAX_DEFAULT_WORKERS)


def worker_count(asked: int | None) -> tuple[int, str | None]:
    """The local workers to start for ``asked`` (None: :func:`default_workers`), capped at the
    cores this process may use, and a note when the cap applied.

    >>> worker_count(10**9)[0] == usable_cores()
    True
    >>> worker_count(1)
    (1, None)
    """
    if asked is None:
        return default_workers(), None
    cores = usable_cores()
    if asked > cores:
        return cores, f"asked for {asked:,} workers; this machine has {cores} cores"
    return max(1, asked), None


# ---------------------------------------------------------------- worker start-up

#: The budget of the work a worker process runs: ends at the parent's deadline (set by
#: :func:`start_worker`; a fresh unlimited budget elsewhere).
_WORKER_BUDGET: Budget | None = None


def start_worker(deadline: float | None = None) -> None:
    """Make this (new) process a quiet worker of the layer; every worker's first call.

    Ctrl-C and the parent's handlers are the parent's business: SIGINT is ignored, SIGTERM and
    SIGHUP get their default actions, the wake-up pipe a fork inherited from the parent is cleared
    (a signal written there would look like the user's to the parent), and signals the parent
    blocked around the fork are unblocked. ``deadline`` (``time.monotonic()``, shared by every
    process of the machine) becomes the worker's :func:`worker_budget`.
    """
    global _WORKER_BUDGET
    with contextlib.suppress(ValueError):  # not the main thread: nothing to clear
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if hasattr(signal, "SIGHUP"):
            signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    _WORKER_BUDGET = Budget(deadline=deadline)


def worker_budget() -> Budget:
    """The budget of this worker's work (unlimited outside a worker of the layer)."""
    return _WORKER_BUDGET if _WORKER_BUDGET is not None else Budget(None)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Block SIGINT and SIGTERM in this thread while a worker is started: a fork made meanwhile
    cannot run the parent's handlers before :func:`start_worker` replaced them."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


#: Worker processes of the layer alive in this process (for :func:`kill_all` at a hard exit).
_LIVE: set[int] = set()


def track(pid: int) -> None:
    """Count a started worker process among this process's live workers."""
    _LIVE.add(pid)


def untrack(pid: int) -> None:
    """A worker process has been collected."""
    _LIVE.discard(pid)


def kill(pid: int) -> None:
    """End a worker process at once (SIGKILL; a count in C cannot be interrupted otherwise)."""
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def kill_group(pid: int) -> None:
    """End a worker started in a session of its own, with every process it started."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (OSError, AttributeError):  # not a group leader, or no process groups (Windows)
        kill(pid)


def kill_all() -> None:
    """End every live worker of this process at once (the CLI's last act after a second Ctrl-C)."""
    for pid in list(_LIVE):
        kill(pid)


def start_method() -> str:
    """``fork`` where the OS has it (workers inherit what the parent prepared), else ``spawn``."""
    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


# ---------------------------------------------------------------- the executors

class Executor:
    """Where tasks run: :meth:`submit` a task with a priority (higher first), :meth:`next_done`
    (a finished task, or None after a short wait, so that the caller sees a stop request),
    :meth:`outcome`, :meth:`cancel` (stop everything now) and :meth:`close` (release the workers).
    Executors are context managers: leaving the block closes them."""

    description = ""
    workers = 1
    note: str | None = None

    def submit(self, fn: TaskFn, task: Any, priority: float = 0.0) -> Any:
        """Start ``fn(task)`` somewhere; returns a handle."""
        raise NotImplementedError

    def next_done(self, timeout: float) -> Any | None:
        """A handle whose task has finished, or None after ``timeout`` seconds."""
        raise NotImplementedError

    def outcome(self, handle: Any) -> Any:
        """The return value of a finished task (raises what it raised)."""
        raise NotImplementedError

    def ready(self, budget: Budget) -> bool:
        """Wait until the workers can take tasks; False when ``budget`` ended first."""
        return True

    def cancel(self) -> None:
        """Stop every task now, running or waiting."""

    def close(self) -> None:
        """Release the workers."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is not None:
            self.cancel()
        self.close()


class _Handle:
    """A task of :class:`InProcess` or :class:`Local`."""

    __slots__ = ("error", "fn", "retries", "task", "value")

    def __init__(self, fn: TaskFn, task: Any) -> None:
        self.fn, self.task = fn, task
        self.value: Any = None
        self.error: BaseException | None = None
        self.retries = 0


class InProcess(Executor):
    """Tasks run one at a time in this process, highest priority first, when the caller asks for
    the next finished one; ``fn(task, budget)`` gets the caller's budget (Ctrl-C, time limit)."""

    description = "this process"

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self._heap: list[tuple[float, int, _Handle]] = []
        self._order = itertools.count()

    def submit(self, fn: TaskFn, task: Any, priority: float = 0.0) -> _Handle:
        handle = _Handle(fn, task)
        heapq.heappush(self._heap, (-priority, next(self._order), handle))
        return handle

    def next_done(self, timeout: float) -> _Handle | None:
        if not self._heap:
            return None
        handle = heapq.heappop(self._heap)[2]
        try:
            handle.value = handle.fn(handle.task, self.budget)
        except Exception as exc:
            handle.error = exc
        return handle

    def outcome(self, handle: _Handle) -> Any:
        if handle.error is not None:
            raise handle.error
        return handle.value

    def cancel(self) -> None:
        self._heap.clear()


def _worker_main(conn: Connection, deadline: float | None, initializer: Callable[..., None] | None,
                 initargs: tuple[Any, ...]) -> None:
    """A local worker: start quiet, run the initializer, then ``(fn, task)`` after ``(fn, task)``."""
    start_worker(deadline)
    if initializer is not None:
        initializer(*initargs)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        fn, task = message
        try:
            answer: tuple[bool, Any] = (True, fn(task))
        except BaseException as exc:  # sent to the parent, which raises it
            answer = (False, exc)
        try:
            conn.send(answer)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            conn.send((False, RuntimeError(f"a task's answer could not be sent back: {exc}")))


@dataclass
class _Worker:
    process: Any
    conn: Connection
    task: _Handle | None = None


class Local(Executor):
    """Worker processes on this machine (forked where the OS can, so they inherit what the parent
    prepared), started by :func:`start_worker`; ``fn(task)`` runs in them.

    A worker that dies while it runs a task is replaced and the task runs again (at most
    :data:`RETRIES` times; then its outcome raises :class:`WorkerLost`). :meth:`cancel` kills
    every worker at once; :meth:`close` asks them to leave and kills what is left after a second.

    Parameters
    ----------
    workers:
        Processes to start (the caller caps it: :func:`worker_count`).
    deadline:
        ``time.monotonic()`` end of the work, handed to :func:`worker_budget` in the workers.
    initializer, initargs:
        Run once in each worker after start-up (the state the tasks share).
    """

    def __init__(self, workers: int, *, deadline: float | None = None,
                 initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()) -> None:
        self.workers = max(1, workers)
        self.description = f"{self.workers} local process{'es' if self.workers > 1 else ''}"
        self._context: Any = multiprocessing.get_context(start_method())
        self._start_args = (deadline, initializer, initargs)
        self._pool: list[_Worker] = []
        self._heap: list[tuple[float, int, _Handle]] = []
        self._order = itertools.count()
        self._done: deque[_Handle] = deque()
        self._closed = False
        self._started = False
        self.replaced = 0

    def _start_all(self) -> None:
        # On the first submission, not before: workers forked then inherit what the caller
        # prepared after opening the executor (the runner's shard contexts).
        self._started = True
        for _ in range(self.workers):
            self._pool.append(self._start())

    def _start(self) -> _Worker:
        parent_end, child_end = self._context.Pipe()
        process = self._context.Process(target=_worker_main, args=(child_end, *self._start_args), daemon=True)
        with signals_held():
            process.start()
        track(process.pid)
        child_end.close()
        return _Worker(process, parent_end)

    def submit(self, fn: TaskFn, task: Any, priority: float = 0.0) -> _Handle:
        handle = _Handle(fn, task)
        heapq.heappush(self._heap, (-priority, next(self._order), handle))
        if not self._started and not self._closed:
            self._start_all()
        self._dispatch()
        return handle

    def _dispatch(self) -> None:
        for worker in self._pool:
            if not self._heap:
                return
            if worker.task is None:
                handle = heapq.heappop(self._heap)[2]
                try:
                    worker.conn.send((handle.fn, handle.task))
                except (BrokenPipeError, OSError):  # died idle: seen by next_done
                    heapq.heappush(self._heap, (math.inf, next(self._order), handle))
                    continue
                worker.task = handle

    def next_done(self, timeout: float) -> _Handle | None:
        end = time.monotonic() + timeout
        while not self._done:
            self._dispatch()
            busy = {w.conn: w for w in self._pool if w.task is not None}
            sentinels = {w.process.sentinel: w for w in self._pool}
            left = end - time.monotonic()
            if not busy and not self._heap:
                return None
            ready = wait([*busy, *sentinels], timeout=max(0.0, left))
            for item in ready:
                if item in busy:
                    self._receive(busy[item])
            for item in ready:
                if item in sentinels and item not in busy:
                    self._lost(sentinels[item])
            if not ready and time.monotonic() >= end:
                break
        return self._done.popleft() if self._done else None

    def _receive(self, worker: _Worker) -> None:
        handle = worker.task
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError):
            return  # died mid-answer: its sentinel says so
        assert handle is not None
        worker.task = None
        if ok:
            handle.value = value
        else:
            handle.error = value
        self._done.append(handle)

    def _lost(self, worker: _Worker) -> None:
        """A worker ended: replace it; its task runs again, or fails after :data:`RETRIES` tries."""
        if worker.process.is_alive():
            return
        self._pool.remove(worker)
        untrack(worker.process.pid)
        worker.conn.close()
        handle = worker.task
        if handle is not None:
            handle.retries += 1
            if handle.retries > RETRIES:
                code = worker.process.exitcode
                how = f"signal {signal.Signals(-code).name}" if code and code < 0 else f"exit code {code}"
                handle.error = WorkerLost(f"a worker process ended ({how}) {handle.retries} times on one task")
                self._done.append(handle)
            else:
                heapq.heappush(self._heap, (math.inf, next(self._order), handle))
        if not self._closed:
            self._pool.append(self._start())
            self.replaced += 1

    def outcome(self, handle: _Handle) -> Any:
        if handle.error is not None:
            raise handle.error
        return handle.value

    def busy(self) -> bool:
        """Whether tasks are still waiting or running."""
        return bool(self._heap) or any(w.task is not None for w in self._pool)

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and diagnostics)."""
        return [w.process.pid for w in self._pool]

    def cancel(self) -> None:
        self._heap.clear()
        self._closed = True
        for worker in self._pool:
            if worker.process.pid is not None:
                kill(worker.process.pid)
        self.close()

    def close(self) -> None:
        self._closed = True
        for worker in self._pool:
            with contextlib.suppress(OSError, ValueError):
                if worker.process.is_alive():
                    worker.conn.send(None)
        end = time.monotonic() + 1.0
        for worker in self._pool:
            worker.process.join(max(0.0, end - time.monotonic()))
            if worker.process.is_alive() and worker.process.pid is not None:
                kill(worker.process.pid)
                worker.process.join()
            untrack(worker.process.pid)
            worker.conn.close()
        self._pool.clear()


class Dask(Executor):
    """A Dask cluster: a ``LocalCluster`` started here (``local[:N]``) or a running scheduler.

    Dask reruns the tasks of a worker that dies on the other workers, so a lost machine costs
    only the shards it was running. On a remote cluster, :meth:`cancel` sets a Dask ``Event``
    that running shards watch, and cancels the tasks still waiting. Connecting shares the run's
    time limit; an address where no Dask scheduler answers is one line, not a traceback.
    """

    def __init__(self, address: str, workers: int | None = None, budget: Budget | None = None) -> None:
        try:
            # Held as Any: Dask has no type annotations to check our calls against.
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise InputError("needs Dask: pip install '.[cluster]' (dask[distributed])",
                             field=OPTION, value=address) from None
        self._distributed = distributed
        self._cluster: Any = None
        self._done: queue.Queue[Any] = queue.Queue()
        self._futures: set[Any] = set()
        self.stop_event: str | None = None
        left = None if budget is None else budget.left()
        self._ready = threading.Event()
        self._lock = threading.Lock()
        self._abandoned = False
        self.client: Any = None
        if address == "local" or address.startswith("local:"):
            asked = parse_local(address) or workers
            n, self.note = worker_count(asked)
            self.workers = n
            self.description = f"Dask LocalCluster of {n} workers"
            self._before = {p.pid for p in multiprocessing.active_children()}
            # Started in the background: the caller plans its work meanwhile, and a time limit that
            # comes first ends the wait (:meth:`ready`) instead of the cluster's start-up.
            threading.Thread(target=self._start_local, args=(n,), name="cpwords-dask-start", daemon=True).start()
            return
        timeout = CONNECT_TIMEOUT_S if left is None else max(0.1, min(CONNECT_TIMEOUT_S, left))
        try:
            self.client = distributed.Client(address, timeout=f"{timeout}s")
        except Exception as exc:  # refused, silent, not Dask (an SSH banner), a bad address
            shown = " ".join(str(exc).split())[:120] or type(exc).__name__
            raise InputError(f"cannot reach a Dask scheduler there ({shown})", field=OPTION,
                             value=address) from None
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
        self.description += f" ({self.workers} workers)"
        self._ready.set()

    def _start_local(self, n: int) -> None:
        distributed = self._distributed
        for name in ("distributed", "distributed.nanny", "distributed.worker", "distributed.scheduler"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        try:
            cluster = distributed.LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                silence_logs=logging.CRITICAL, host="127.0.0.1")
            client = distributed.Client(cluster)
        except Exception as exc:  # reported by ready()
            self._start_error: Exception | None = exc
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
        """Wait until the cluster has started; False when ``budget`` ended first."""
        while not self._ready.wait(POLL_S):
            if budget.expired():
                return False
        error = getattr(self, "_start_error", None)
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
        """A local cluster still starting: have it closed once up, and end what it has started."""
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


# ---------------------------------------------------------------- choosing an executor

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


def open_executor(cluster: str | None, workers: int | None, budget: Budget, *,
                  initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()) -> Executor:
    """The executor for a cluster option and a worker count: no cluster and one worker, this
    process; no cluster, :class:`Local` processes (``workers``, capped: :func:`worker_count`);
    else :class:`Dask` (``local[:N]`` capped likewise, or a scheduler address)."""
    if cluster is None:
        n, note = worker_count(workers)
        executor: Executor = InProcess(budget) if n <= 1 else Local(
            n, deadline=budget.deadline, initializer=initializer, initargs=initargs)
        executor.note = note
        return executor
    return Dask(cluster, workers=workers, budget=budget)


# ---------------------------------------------------------------- one function over many items

@dataclass
class MapRun:
    """How a :func:`parallel_map` ended: whether every item finished, and why not."""

    complete: bool = True
    stopped: str | None = None
    done: int = 0
    workers: int = 1
    replaced: int = 0
    stats: dict[str, Any] = field(default_factory=dict)


class parallel_map(Generic[T, R]):
    """``fn(item)`` for every item, in ``workers`` local processes of the layer (or in this
    process for one worker, unless ``isolate``): yields ``(index, value)`` as each finishes.

    Iteration stops early when ``budget`` is stopped, or its deadline passed by :data:`GRACE_S`
    (tasks are expected to watch :func:`worker_budget` and return what they found in time);
    :attr:`run` then says ``complete`` False and why. A worker that dies is replaced and its item
    run again. Leaving the loop early (``break``, an exception) ends the workers.

    Parameters
    ----------
    fn:
        A picklable function of one item (module level); it runs in the workers.
    items:
        The work, in the order of the indexes yielded.
    budget:
        The caller's budget (default: unlimited).
    workers:
        Processes to use (capped at the usable cores; None: :func:`default_workers`).
    priorities:
        Per item, higher first (default: in order).
    initializer, initargs:
        Run once per worker before its first item (the state items share; with ``fork`` a
        global the parent set before the call is inherited as well).
    isolate:
        Run even one worker in a process of its own (work that cannot be interrupted, so that
        the deadline can end it).
    grace_s:
        Seconds past the deadline to wait for items that report what they found in time (0 for
        work that does not watch the deadline).
    """

    def __init__(self, fn: Callable[[T], R], items: Iterable[T], budget: Budget | None = None, *,
                 workers: int | None = 1, priorities: Sequence[float] | None = None,
                 initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = (),
                 isolate: bool = False, grace_s: float = GRACE_S) -> None:
        self.fn, self.items = fn, list(items)
        self.grace_s = grace_s
        self.budget = budget if budget is not None else Budget(None)
        self.workers = min(worker_count(workers)[0], max(1, len(self.items)))
        self.priorities = priorities
        self.initializer, self.initargs = initializer, initargs
        self.isolate = isolate
        self.run = MapRun(workers=self.workers)

    def __iter__(self) -> Iterator[tuple[int, R]]:
        if not self.items:
            return
        if self.budget.expired():
            self._stop()
            return
        if self.workers <= 1 and not self.isolate:
            yield from self._here()
            return
        yield from self._in_workers()

    def _stop(self) -> None:
        self.run.complete, self.run.stopped = False, self.budget.reason or "time_limit"

    def _here(self) -> Iterator[tuple[int, R]]:
        if self.initializer is not None:
            self.initializer(*self.initargs)
        priorities = self.priorities
        order = sorted(range(len(self.items)), key=lambda i: -priorities[i]) if priorities else range(len(self.items))
        for i in order:
            if self.budget.expired():
                self._stop()
                return
            value = self.fn(self.items[i])
            self.run.done += 1
            yield i, value

    def _give_up(self) -> bool:
        if self.budget.stopped:
            self.budget.expired()
            return True
        return self.budget.deadline is not None and time.monotonic() > self.budget.deadline + self.grace_s

    def _in_workers(self) -> Iterator[tuple[int, R]]:
        executor = Local(self.workers, deadline=self.budget.deadline, initializer=self.initializer,
                         initargs=self.initargs)
        try:
            handles = {}
            for i, item in enumerate(self.items):
                handle = executor.submit(self.fn, item, self.priorities[i] if self.priorities else -i)
                handles[handle] = i
            left = len(self.items)
            while left:
                if self._give_up():
                    self.budget.expired()
                    self._stop()
                    executor.cancel()
                    return
                finished = executor.next_done(POLL_S)
                if finished is None:
                    continue
                left -= 1
                value = executor.outcome(finished)
                self.run.done += 1
                yield handles[finished], value
        finally:
            self.run.replaced = executor.replaced
            if executor.busy():
                executor.cancel()
            else:
                executor.close()
