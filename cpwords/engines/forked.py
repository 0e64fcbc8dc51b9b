"""Run one solver call in a forked child process, so that the run's deadline and stop requests
hold even when the solver does not answer its interrupt in time.

MiniSat checks its interrupt flag between conflicts; on some big Letter Boxed formulas (18
letters, thousands of words a position) it ran 28 s past a 5 s deadline, and CaDiCaL has no
interrupt at all. A forked child shares the parent's memory (copy on write: about 3 ms a call),
so the formula need not be sent; only the answer comes back, pickled, through a pipe. The child
keeps the budget's deadline and stops itself when its solver allows; the parent kills it when it
is :data:`GRACE_S` past the deadline, or at once on a stop request (Ctrl-C, a cancelled job).

The child starts as every worker of the execution layer does
(:func:`~cpwords.engines.workers.start_worker`: no inherited signal handlers or wake-up pipe) and
is counted among the layer's live workers, so a hard exit ends it too. Where ``fork`` does not
exist (Windows) the call runs in this process, as before.
"""

from __future__ import annotations

import os
import pickle
import select
import time
from collections.abc import Callable
from typing import Any, TypeVar

from cpwords.engines.budget import Budget
from cpwords.engines.workers import kill, signals_held, start_worker, track, untrack

T = TypeVar("T")

#: Seconds past the deadline after which a child that has not answered is killed.
GRACE_S = 0.5
#: Seconds between the parent's looks at the budget while it waits.
POLL_S = 0.05


def available() -> bool:
    """True where calls can be forked (Linux and other Unix)."""
    return hasattr(os, "fork")


def call(fn: Callable[[], T], budget: Budget) -> T | None:
    """``fn()`` run in a forked child: its value, or None when the budget ended first (the deadline
    passed by :data:`GRACE_S`, or :meth:`Budget.stop` was called) and the child was killed.

    An exception in the child is raised here. ``fn``'s value must pickle. (``os.fork`` itself, not
    :mod:`multiprocessing`: the call also works inside daemonic worker processes, such as a Dask
    worker's.)

    >>> call(lambda: 6 * 7, Budget(5))
    42
    >>> call(lambda: time.sleep(30), Budget(0.1)) is None
    True
    """
    if not available():
        return fn()
    if budget.expired():
        return None
    read_end, write_end = os.pipe()
    with signals_held():
        pid = os.fork()
        if pid == 0:  # the child: a quiet worker; answers through the pipe, then leaves at once
            start_worker(budget.deadline)
            os.close(read_end)
            _answer(fn, write_end)
            os._exit(0)
    track(pid)
    os.close(write_end)
    chunks: list[bytes] = []
    try:
        while True:
            ready, _, _ = select.select([read_end], [], [], POLL_S)
            if ready:
                chunk = os.read(read_end, 1 << 20)
                if chunk:
                    chunks.append(chunk)
                    continue
                break  # end of the answer
            late = budget.deadline is not None and time.monotonic() > budget.deadline + GRACE_S
            if budget.stopped or late:
                if late:
                    budget.expired()  # records the reason
                return None
    finally:
        os.close(read_end)
        _reap(pid)
    if not chunks:
        raise RuntimeError("the solver process ended without an answer")
    ok, value = pickle.loads(b"".join(chunks))
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]


def _answer(fn: Callable[[], Any], write_end: int) -> None:
    try:
        result: tuple[bool, Any] = (True, fn())
    except BaseException as exc:  # (sent to the parent, which raises it)
        result = (False, exc)
    try:
        data = pickle.dumps(result)
    except Exception as exc:  # an unpicklable value or exception
        data = pickle.dumps((False, RuntimeError(f"the solver's answer could not be sent back: {exc}")))
    with os.fdopen(write_end, "wb") as out:
        out.write(data)


def _reap(pid: int) -> None:
    """Kill the child if it still runs, and collect it."""
    kill(pid)
    os.waitpid(pid, 0)
    untrack(pid)
