"""One time budget for a whole run, passed down to every search, and how searches report progress.

A :class:`Budget` is made once per solve (``Budget(spec.time_limit)``) and handed down to the
kind, its engine and every inner solve, which ask it what is left instead of each counting from
its own start. It also carries the run's *stop* switch: Ctrl-C, a cancelled web job or a
cluster shutdown calls :meth:`Budget.stop`, which wakes every solver registered with
:meth:`Budget.interrupts` (CP-SAT's ``stop_search``, PySAT's ``interrupt``) and makes pure
Python loops see :meth:`Budget.expired` on their next check.

>>> b = Budget(None)
>>> b.left() is None, b.expired()
(True, False)
>>> b.stop("interrupted"); b.expired(), b.reason
(True, 'interrupted')
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol

from cpwords.errors import CpwordsError

#: Longest limit handed to a solver: a year. Larger limits (``1e30``, ``.inf``) mean "no limit" in
#: practice but overflow the solvers' own timers.
MAX_SECONDS = 365 * 24 * 3600.0

Advance = Callable[[int], None]


class SearchTimeout(CpwordsError):
    """A search passed the end of its budget (time limit or stop request)."""


#: Seconds past the deadline a one-time build (a dictionary's index, kept in the disk cache for
#: every later run) may go on to finish, rather than be thrown away a moment before it is done.
BUILD_GRACE_S = 0.25

#: How a stop is told in messages, by its reason.
CAUSES = {"time_limit": "the time limit was reached", "interrupted": "the run was interrupted"}


class BuildStopped(SearchTimeout):
    """The budget ended while a dictionary's one-time index was being built; :attr:`message`
    names it in the user's words. Nothing half-built is kept: the command line finishes the build
    in the background (:mod:`cpwords.background`), or the next run builds it again."""

    def __init__(self, reason: str | None, what: str, *, elsewhere: bool = False, kept: bool = True) -> None:
        super().__init__(reason or "time_limit")
        self.reason = reason or "time_limit"
        self.what, self.elsewhere, self.kept = what, elsewhere, kept
        cause = CAUSES.get(self.reason, "the run stopped")
        if elsewhere:
            self.message = f"{cause} while another cpwords process was building {what} (it is kept in the cache once it completes)"
        elif kept:
            self.message = (f"{cause} while {what} was being built (a one-time build, kept in the cache once it "
                            "completes: give the first run of a big dictionary a longer time limit)")
        else:
            self.message = (f"{cause} while {what} was being made (each run of this dictionary makes it: give it "
                            "a longer time limit)")

    def __reduce__(self) -> tuple[Any, ...]:
        # Crosses process boundaries (a forked solve, a server worker): an exception pickles as
        # ``cls(*args)``, which would lose ``what``.
        return type(self), (self.reason, self.what), self.__dict__

    @property
    def to_finish(self) -> bool:
        """The build is worth finishing in the background: it is kept, and nobody else builds it."""
        return self.kept and not self.elsewhere


#: Set in a process that only builds (:mod:`cpwords.background`): builds ignore budgets.
_FREE_BUILDS = False


@contextmanager
def free_builds() -> Iterator[None]:
    """While inside, every one-time build runs to its end, whatever the solve's budget: the
    background builder's whole run, and a test warming the disk cache with a solve whose search
    it does not want (a budget of a millisecond)."""
    global _FREE_BUILDS
    before, _FREE_BUILDS = _FREE_BUILDS, True
    try:
        yield
    finally:
        _FREE_BUILDS = before


def building_freely() -> bool:
    """True inside :func:`free_builds` (the background builder): one-time work is done to its end."""
    return _FREE_BUILDS


#: The budget that one-time builds started in this context answer to (see :func:`builds_within`).
_BUILD_BUDGET: ContextVar[Budget | None] = ContextVar("cpwords_build_budget", default=None)


@contextmanager
def builds_within(budget: Budget | None) -> Iterator[None]:
    """Run a solve's one-time builds (a dictionary's index, built deep inside a loader and kept
    in the disk cache) under ``budget``: each stage of a build calls :func:`build_checkpoint`."""
    token = _BUILD_BUDGET.set(budget)
    try:
        yield
    finally:
        _BUILD_BUDGET.reset(token)


def build_checkpoint(what: str, *, elsewhere: bool = False, kept: bool = True) -> None:
    """Between the stages of a one-time build of ``what``: raises :class:`BuildStopped` once the
    budget of :func:`builds_within` is stopped or :data:`BUILD_GRACE_S` past its deadline (outside
    a solve, or without a limit, nothing happens). ``elsewhere``: this run is waiting for another
    process that builds it; ``kept=False``: work each run does again (nothing stored).

    >>> build_checkpoint("the trie of scowl-95")  # no budget here: build freely
    >>> b = Budget(0.0)
    >>> with builds_within(b):
    ...     build_checkpoint("the trie of scowl-95")  # within the grace
    ...     b.stop("interrupted"); build_checkpoint("the trie of scowl-95")
    Traceback (most recent call last):
    cpwords.engines.budget.BuildStopped: interrupted
    """
    budget = _BUILD_BUDGET.get()
    if budget is None or _FREE_BUILDS:
        return
    if budget.stopped or (budget.deadline is not None and time.monotonic() > budget.deadline + BUILD_GRACE_S):
        budget.expired()  # sets the reason
        raise BuildStopped(budget.reason, what, elsewhere=elsewhere, kept=kept)


class MemoryBudgetExceeded(CpwordsError):
    """A search would need more memory than its budget allows; the message says how much."""


class Progress(Protocol):
    """Where a long search reports how far it is: ``with progress(what, total) as advance: advance(n)``."""

    def __call__(self, description: str, total: int | None = None) -> Any:  # a context manager of Advance
        ...


@contextmanager
def no_progress(description: str, total: int | None = None) -> Iterator[Advance]:
    """A :class:`Progress` that shows nothing.

    >>> with no_progress("counting", 10) as advance:
    ...     advance(10)
    """

    def advance(n: int = 1) -> None:
        return None

    yield advance


class Budget:
    """What is left of a run's time, the run's stop switch and its progress reporter.

    Parameters
    ----------
    limit:
        Seconds the run may take, or None for no limit. Values beyond :data:`MAX_SECONDS` and
        infinity count as no limit.
    progress:
        Where searches report progress (default: nowhere).
    deadline:
        An absolute ``time.monotonic()`` end instead of ``limit`` (used for child budgets and
        for budgets sent to worker processes: the monotonic clock is shared by every process).
    workers:
        Processes the run may use for work that is not split into shards (Ganak's counting pool):
        set once, where the run's route is decided (:func:`cpwords.api.route`); a kind reads it
        here, never from its spec. Child budgets inherit it.
    """

    def __init__(self, limit: float | None = None, *, progress: Progress = no_progress,
                 deadline: float | None = None, workers: int = 1) -> None:
        self.start = time.monotonic()
        if deadline is None and limit is not None and math.isfinite(limit) and limit < MAX_SECONDS:
            deadline = self.start + max(0.0, float(limit))
        self.deadline = deadline
        self.progress = progress
        self.workers = max(1, workers)
        self.reason: str | None = None
        self._stop_flag = False  # set once by stop(), from any thread (a plain store is atomic)
        self._hooks: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._parent: Budget | None = None

    # -- reading the budget

    @property
    def limited(self) -> bool:
        """True when the run has a deadline."""
        return self.deadline is not None

    def elapsed(self) -> float:
        """Seconds since the budget was made."""
        return time.monotonic() - self.start

    def left(self) -> float | None:
        """Seconds left (0 once stopped or expired), or None when there is no deadline."""
        if self.stopped:
            return 0.0
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def seconds(self, cap: float | None = None) -> float | None:
        """What is left, at most ``cap``: the limit to hand one inner solve (None: unlimited)."""
        left = self.left()
        if cap is None:
            return left
        return cap if left is None else min(left, cap)

    @property
    def stopped(self) -> bool:
        """True once :meth:`stop` was called on this budget or on the one it was made from."""
        return self._stop_flag or (self._parent is not None and self._parent.stopped)

    def expired(self) -> bool:
        """True when the deadline has passed or a stop was requested; sets :attr:`reason`."""
        if self.stopped:
            if self.reason is None and self._parent is not None:
                self.reason = self._parent.reason
            return True
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self.reason = self.reason or "time_limit"
            return True
        return False

    def check(self) -> None:
        """Raise :class:`SearchTimeout` when the budget is spent (call it from search loops)."""
        if self.expired():
            raise SearchTimeout(self.reason)

    def ticker(self, every: int = 1024) -> Callable[[], None]:
        """A cheap check for hot loops: looks at the clock only once every ``every`` calls."""
        count = 0

        def tick() -> None:
            nonlocal count
            count += 1
            if count >= every:
                count = 0
                self.check()

        return tick

    def hold(self, seconds: float) -> None:
        """Set ``seconds`` aside at the end of the budget for work after the search that does not
        look at the clock (writing out the answers found): the deadline comes that much sooner
        for everything that reads it (the search, the check). Nothing changes without a deadline.

        A listing whose answers come faster than they can be written holds each answer's writing
        time as it finds it (:data:`cpwords.engines.found.WRITE_S`), so that every answer found is
        written and the whole command still ends within its limit.

        >>> b = Budget(10.0)
        >>> b.hold(4.0)
        >>> 5.0 < b.left() <= 6.0
        True
        """
        if self.deadline is not None:
            self.deadline -= seconds

    # -- stopping

    def stop(self, reason: str = "interrupted") -> None:
        """Ask every search of this run to stop as soon as it can (thread- and signal-safe)."""
        if self.reason is None or self.reason == "time_limit":
            self.reason = reason
        self._stop_flag = True
        with self._lock:
            hooks = list(self._hooks)
        for hook in hooks:
            try:
                hook()
            except Exception:
                pass

    @contextmanager
    def interrupts(self, stop_solver: Callable[[], None]) -> Iterator[None]:
        """While inside, :meth:`stop` (and the deadline, by a timer) call ``stop_solver``.

        For solvers that run in C++ and cannot see Python exceptions: CP-SAT's ``stop_search``,
        PySAT's ``interrupt``.
        """
        _leave_sigint_to_us(stop_solver)
        timer = None
        left = self.left()
        if left is not None:
            def at_deadline() -> None:
                self.reason = self.reason or "time_limit"
                stop_solver()

            timer = threading.Timer(left, at_deadline)
            timer.daemon = True
            timer.start()
        owners = self._chain()
        for b in owners:
            with b._lock:
                b._hooks.append(stop_solver)
        try:
            if self.stopped:
                stop_solver()
            yield
        finally:
            if timer is not None:
                timer.cancel()
            for b in owners:
                with b._lock:
                    if stop_solver in b._hooks:
                        b._hooks.remove(stop_solver)

    def _chain(self) -> list[Budget]:
        out: list[Budget] = []
        b: Budget | None = self
        while b is not None:
            out.append(b)
            b = b._parent
        return out

    # -- sharing

    def child(self, limit: float | None = None) -> Budget:
        """A budget for one part of this run: ends at ``limit`` seconds from now or at this
        budget's own end, whichever is first; stopping this budget stops the child too."""
        if limit is not None and not limit < MAX_SECONDS:  # 1e30, inf: no limit (as in __init__)
            limit = None
        ends = [d for d in (self.deadline, None if limit is None else time.monotonic() + limit) if d is not None]
        child = Budget(deadline=min(ends) if ends else None, progress=self.progress, workers=self.workers)
        child._parent = self
        return child

    def __getstate__(self) -> dict[str, Any]:
        # Sent to worker processes: the deadline travels (monotonic time is shared), the switch and
        # the progress reporter stay here (the parent stops its workers itself).
        return {"deadline": self.deadline, "start": self.start, "reason": self.reason, "workers": self.workers}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(deadline=state["deadline"], workers=state.get("workers", 1))  # type: ignore[misc]
        self.start = state["start"]
        self.reason = state["reason"]

    def __repr__(self) -> str:
        left = self.left()
        return f"Budget(left={'unlimited' if left is None else f'{left:.3f} s'}, reason={self.reason!r})"


def _leave_sigint_to_us(stop_solver: Callable[[], None]) -> None:
    """CP-SAT catches SIGINT itself by default and ends the search as if the time limit were
    reached, so Ctrl-C never reaches the run's handler (the run went on, or said "time limit").
    Turn that off for a solver whose stop method is registered here: the run's handler stops it
    through ``stop_search`` instead."""
    parameters = getattr(getattr(stop_solver, "__self__", None), "parameters", None)
    if parameters is not None and hasattr(parameters, "catch_sigint_signal"):
        parameters.catch_sigint_signal = False


def usable_cores() -> int:
    """CPU cores this process may use (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover (macOS, Windows)
        return max(1, os.cpu_count() or 1)
