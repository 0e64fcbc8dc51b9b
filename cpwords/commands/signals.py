"""Ctrl-C and SIGTERM stop a run: every solver through its own interruption, then exit code 130.

:func:`stop_on_signals` wraps the solving of a command (:mod:`cpwords.commands.solving`); a run
that does not stop within :data:`STOP_GRACE_S` seconds is ended by :func:`_end_now`.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cpwords.commands import EXIT_INTERRUPTED
from cpwords.engines.budget import Budget

#: Seconds a run has, after Ctrl-C or SIGTERM, to stop through its solvers' own interruption
#: before the process ends anyway (a solver deep in presolve can take seconds to notice).
STOP_GRACE_S = 1.0

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def stop_on_signals(budget: Budget) -> Iterator[None]:
    """While inside, Ctrl-C (SIGINT) and SIGTERM stop ``budget``: every solver of the run is told
    to stop through its own interruption and the command ends with exit code 130 and one line.

    The signal is seen by a watcher thread through ``signal.set_wakeup_fd``: a solver running in
    C++ holds the main thread, where Python signal handlers would wait until it returns. Each
    signal is counted once, there (the Python handler only keeps the default action away). If
    the run has not stopped :data:`STOP_GRACE_S` seconds after the first signal, or at a second
    one, the watcher ends the process itself: worker processes first (no orphans), then one line,
    exit 130. Outside the main thread (where signals cannot be set) it does nothing.

    Raises
    ------
    KeyboardInterrupt
        In place of the exception a solver raised because it was interrupted.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    with _watching(budget):
        try:
            yield
        except Exception as exc:
            # PySAT's C code catches SIGINT itself and raises "Caught keyboard interrupt".
            if budget.reason == "interrupted" or "keyboard interrupt" in str(exc).lower():
                raise KeyboardInterrupt from None
            raise


@contextmanager
def _watching(budget: Budget) -> Iterator[None]:
    """The watcher thread on a wake-up pipe and the Python handlers, undone on the way out."""
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    previous = {sig: signal.getsignal(sig) for sig in _SIGNALS}
    old_fd = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    backstop: list[threading.Timer] = []

    def handler(signum: int, frame: Any) -> None:
        budget.stop("interrupted")  # the watcher has done it already; harmless twice

    watcher = threading.Thread(target=_watch, args=(read_fd, budget, backstop), name="cpwords-signals",
                               daemon=True)
    watcher.start()
    for sig in previous:
        signal.signal(sig, handler)
    try:
        yield
    finally:
        for timer in backstop:
            timer.cancel()
        signal.set_wakeup_fd(old_fd)
        for sig, h in previous.items():
            signal.signal(sig, h)
        os.close(write_fd)  # the watcher reads end-of-file and returns
        watcher.join(timeout=1.0)
        os.close(read_fd)


def _watch(read_fd: int, budget: Budget, backstop: list[threading.Timer]) -> None:
    """The watcher thread: stop ``budget`` at the first signal and start the backstop; end the
    process at the second."""
    seen = 0
    while True:
        try:
            data = os.read(read_fd, 64)
        except OSError:
            return
        if not data:
            return
        seen += sum(1 for b in data if b in _SIGNALS)
        if not seen:
            continue
        budget.stop("interrupted")
        if seen > 1:
            _end_now()
        elif not backstop:
            timer = threading.Timer(STOP_GRACE_S, _end_now)
            timer.daemon = True
            backstop.append(timer)
            timer.start()


def _end_now() -> None:
    """End the process at once after Ctrl-C: worker processes, one line, exit 130."""
    import multiprocessing

    from cpwords.engines.workers import kill_all

    try:
        sys.stderr.write("cpwords: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    # No thread switch from here on: a thread could start new workers in place of the killed
    # ones, and they would outlive us.
    sys.setswitchinterval(1e6)
    kill_all()
    for child in multiprocessing.active_children():
        try:
            child.kill()
        except (OSError, ValueError):
            pass
    os._exit(EXIT_INTERRUPTED)
