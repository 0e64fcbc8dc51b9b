"""Run one solver call in a forked child process, so that the run's deadline and stop requests
hold even when the solver does not answer its interrupt in time.

MiniSat checks its interrupt flag between conflicts; on some big Letter Boxed formulas (18
letters, thousands of words a position) it ran 28 s past a 5 s deadline, and CaDiCaL has no
interrupt at all. A forked child shares the parent's memory (copy on write: about 3 ms a call),
so the formula need not be sent; only the answer comes back, pickled, through a pipe. The child
keeps the budget's deadline and stops itself when its solver allows; the parent kills it when it
is :data:`GRACE_S` past the deadline, or at once on a stop request (Ctrl-C, a cancelled job).

Where ``fork`` does not exist (Windows) the call runs in this process, as before.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from typing import Any, TypeVar

from cpwords.engines.budget import Budget

T = TypeVar("T")

#: Seconds past the deadline after which a child that has not answered is killed.
GRACE_S = 0.5
#: Seconds between the parent's looks at the budget while it waits.
POLL_S = 0.05


def available() -> bool:
    """True where calls can be forked (``fork`` start method: Linux and other Unix)."""
    return hasattr(os, "fork") and "fork" in multiprocessing.get_all_start_methods()


def call(fn: Callable[[], T], budget: Budget) -> T | None:
    """``fn()`` run in a forked child: its value, or None when the budget ended first (the deadline
    passed by :data:`GRACE_S`, or :meth:`Budget.stop` was called) and the child was killed.

    An exception in the child is raised here. ``fn``'s value must pickle.

    >>> call(lambda: 6 * 7, Budget(5))
    42
    >>> call(lambda: time.sleep(30), Budget(0.1)) is None
    True
    """
    if not available():
        return fn()
    if budget.expired():
        return None
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(fn, send), daemon=True)
    child.start()
    send.close()
    try:
        while True:
            if receive.poll(POLL_S):
                try:
                    ok, value = receive.recv()
                except EOFError:  # the child died without answering
                    raise RuntimeError(f"the solver process ended without an answer (exit code {child.exitcode})") from None
                if not ok:
                    raise value
                return value  # type: ignore[no-any-return]
            late = budget.deadline is not None and time.monotonic() > budget.deadline + GRACE_S
            if budget.stopped or late:
                if late:
                    budget.expired()  # records the reason
                return None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()


def _child(fn: Callable[[], Any], send: Any) -> None:
    try:
        result: tuple[bool, Any] = (True, fn())
    except BaseException as exc:  # (sent to the parent, which raises it)
        result = (False, exc)
    try:
        send.send(result)
    except Exception as exc:  # an unpicklable value or exception
        send.send((False, RuntimeError(f"the solver's answer could not be sent back: {exc}")))
    send.close()
