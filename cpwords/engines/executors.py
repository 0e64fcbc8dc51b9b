"""Where tasks run: the interface every executor of the execution layer offers, and the simplest one.

:meth:`Executor.submit` a task with a priority (higher first), :meth:`Executor.next_done` (a
finished task, or None after a short wait, so that the caller sees a stop request),
:meth:`Executor.outcome`, :meth:`Executor.cancel` (stop everything now) and :meth:`Executor.close`
(release the workers; no process is left). The executors: :class:`InProcess` here (one worker:
tasks run in this process when the caller asks for the next result, so the caller's budget reaches
them directly), :class:`~cpwords.engines.local.Local` (worker processes on this machine) and
:class:`~cpwords.engines.dask_cluster.Dask` (a Dask cluster). :mod:`cpwords.engines.parallel` chooses one
and runs one function over many items on it.

>>> ex = InProcess(Budget(None))
>>> handle = ex.submit(lambda task, budget: task * 2, 21)
>>> ex.outcome(ex.next_done(0.1))
42
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from typing import Any

from cpwords.engines.budget import Budget

TaskFn = Callable[..., Any]


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
