"""The execution layer's front: which executor a run gets, and one function over many items.

:func:`open_executor` turns a cluster option and a worker count into an executor (this process,
:class:`~cpwords.engines.local.Local` worker processes, or :class:`~cpwords.engines.dask_cluster.Dask`);
:class:`parallel_map` runs one function over many items on local workers and yields each value as
it finishes: the form the kinds use for their counts.

>>> sorted(parallel_map(abs, [-3, 1, -2], workers=2))
[(0, 3), (1, 1), (2, 2)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from cpwords.engines.budget import Budget
from cpwords.engines.dask_cluster import ENV, Dask, cluster_option, parse_local
from cpwords.engines.executors import Executor, InProcess
from cpwords.engines.local import Local
from cpwords.engines.workers import worker_count

#: Seconds between two looks at the budget while waiting for workers.
POLL_S = 0.1
#: Seconds past the deadline that :func:`parallel_map` waits for tasks that report what they
#: found when their time is up.
GRACE_S = 0.4

T = TypeVar("T")
R = TypeVar("R")

__all__ = ["ENV", "GRACE_S", "MapRun", "cluster_option", "open_executor", "parallel_map", "parse_local"]


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
