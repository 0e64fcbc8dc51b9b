"""Local worker processes of the execution layer: forked where the OS can, replaced when they die.

>>> with Local(2) as ex:
...     handles = [ex.submit(abs, n) for n in (-1, -2)]
...     sorted(ex.outcome(ex.next_done(5.0)) for _ in handles)
[1, 2]
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import math
import multiprocessing
import pickle
import signal
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from cpwords.engines.executors import Executor, TaskFn, _Handle
from cpwords.engines.workers import WorkerLost, kill, signals_held, start_method, start_worker, track, untrack

#: Times a task is run again after the worker running it died.
RETRIES = 2


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
