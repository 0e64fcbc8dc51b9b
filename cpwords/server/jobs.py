"""Jobs: one piece of work for a worker process, its state, and how the event loop waits for it.

A :class:`Job` is changed by the pool's threads (:mod:`cpwords.server.pool`) and read by the
event loop, which waits for changes with :meth:`Job.wait` (each change bumps ``version`` and
wakes the waiters through their own loop). The answer arrives as the JSON bytes the worker
wrote, and is spliced into the job's JSON without being parsed again.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import time
from pathlib import Path
from typing import Any

from cpwords.server.wire import dumps

#: Job states; the last three are final.
QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
FINAL = frozenset({DONE, FAILED, CANCELLED})


class QueueFull(Exception):
    """The job queue is full; ``retry_after`` is a guess of the seconds until there is room."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the server is busy (every worker is solving and the queue is full); "
                         f"try again in {retry_after} s")
        self.retry_after = retry_after


class Job:
    """One piece of work for a worker: a solve (``op="solve"``) or a word look-up (``op="word"``).

    The worker threads change a job; the event loop reads it and waits for changes with
    :meth:`wait` (each change bumps ``version``).
    """

    def __init__(self, op: str, args: tuple[Any, ...], *, kind: str | None = None) -> None:
        self.id = secrets.token_urlsafe(12)  # unguessable: a job is only seen by who started it
        self.op = op
        self.args = args
        self.kind = kind
        self.status = QUEUED
        self.created = time.time()
        self.started: float | None = None
        self.finished: float | None = None
        self.progress: dict[str, Any] | None = None
        self.answer: bytes | None = None
        #: the file of the full result, when it was too big for one JSON body (``GET .../result``)
        self.download: Path | None = None
        self.error: dict[str, Any] | None = None
        #: the HTTP status a synchronous request reports for ``error`` (422 bad input, 500, 503)
        self.error_status = 0
        self.cancel_requested: float | None = None
        self.version = 0
        self._lock = threading.Lock()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    @property
    def final(self) -> bool:
        """True once the job is done, failed or cancelled."""
        return self.status in FINAL

    def changed(self) -> None:
        """Wake every waiter (called from the worker threads)."""
        with self._lock:
            self.version += 1
            waiters, self._waiters = self._waiters, []
        for loop, event in waiters:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
                loop.call_soon_threadsafe(event.set)

    async def wait(self, version: int, timeout: float | None = None) -> bool:
        """Wait until the job changes after ``version`` (or ``timeout`` seconds); True if it did."""
        event = asyncio.Event()
        with self._lock:
            if self.version != version:
                return True
            self._waiters.append((asyncio.get_running_loop(), event))
        try:
            await asyncio.wait_for(event.wait(), timeout)
            return True
        except TimeoutError:
            return False

    def state(self) -> dict[str, Any]:
        """The job's state without its answer, as plain data."""
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "status": self.status,
                               "progress": self.progress, "error": self.error}
        out["seconds"] = round((self.finished or time.time()) - (self.started or self.created), 3) \
            if self.started else 0.0
        return out

    def to_json(self) -> bytes:
        """The job as JSON: its state, and the answer's ``spec``, ``result`` and ``pictures`` when
        there is one (spliced in as bytes: the worker serialised them already)."""
        head = dumps(self.state())
        if self.answer is None:
            return head
        return head[:-1] + b"," + self.answer[1:]
