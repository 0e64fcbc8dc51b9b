"""Worker processes of the execution layer: how many, how each starts, how each ends.

Every worker cpwords starts — a local worker of :mod:`.local`, a forked solver call of
:mod:`.forked`, a server worker — begins with :func:`start_worker`: SIGINT ignored (Ctrl-C reaches
the whole process group; the parent stops its workers itself), SIGTERM and SIGHUP back to their
default actions, the parent's signal wake-up pipe cleared (a signal written there would look like
the user's to the parent) and the signals the parent blocked around the fork unblocked. Workers
end by SIGKILL (:func:`kill`), never by a signal the parent's handlers could see; every live one
is tracked so that a hard exit ends them all (:func:`kill_all`).

>>> worker_count(1)
(1, None)
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
from collections.abc import Iterator

from cpwords.engines.budget import Budget, usable_cores
from cpwords.errors import CpwordsError
from cpwords.wording import counted

#: Most workers started by default (each holds a copy of the prepared problem).
MAX_DEFAULT_WORKERS = 8


class WorkerLost(CpwordsError):
    """A task's worker died more often than :data:`RETRIES` allows (killed, out of memory)."""


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
        return cores, f"asked for {counted(asked, 'worker')}; this machine has {counted(cores, 'core')}"
    return max(1, asked), None


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
