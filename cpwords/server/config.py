"""The settings of one ``cpwords serve`` process and the limits that keep it safe to expose.

>>> config = ServerConfig(workers=64)
>>> config.workers <= usable_cores(), config.host
(True, '127.0.0.1')
>>> ServerConfig(max_time=0)
Traceback (most recent call last):
...
ValueError: max_time must be positive (got 0)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from cpwords.engines.budget import usable_cores

#: Largest request body accepted (JSON or YAML spec).
MAX_BODY_BYTES = 1024 * 1024
#: Most words an inline dictionary (``{words: [...]}``) may hold in a spec sent to the server.
MAX_INLINE_WORDS = 20_000
#: Largest answer (spec, result and pictures) sent as one JSON body, about. A bigger result (a
#: listing of hundreds of thousands of answers) is kept whole as a download, ``GET
#: /api/jobs/{id}/result``, and the body lists its first :data:`PREVIEW_SOLUTIONS` answers.
MAX_ANSWER_BYTES = 8 * 1024 * 1024
#: Answers listed in the body of an answer whose full result is a download.
PREVIEW_SOLUTIONS = 1000
#: Bytes of full results the server keeps on disk at most (with their jobs: 15 minutes, 256 jobs);
#: past it, the oldest are deleted first.
MAX_DOWNLOAD_BYTES = 4 * 1024**3
#: Finished jobs kept for ``GET /api/jobs/{id}``; the oldest are forgotten first.
MAX_FINISHED_JOBS = 256
#: Seconds a finished job is kept.
FINISHED_JOB_TTL_S = 15 * 60.0
#: Seconds a worker has, after a cancel, to stop through the budget before it is killed.
STOP_GRACE_S = 0.7
#: Most seconds of the time limit kept for building, checking and sending a solve's answer (a
#: quarter of the limit when that is less): the search stops this much before the limit.
ANSWER_RESERVE_S = 1.0
#: Seconds past the time limit after which a solve that has not ended is answered without its
#: result (its worker's stand-in: status ``unknown``); a solve that keeps its budget ends sooner.
ANSWER_GRACE_S = 1.0
#: Seconds past the time limit after which a solve that ignores its budget is killed.
HARD_GRACE_S = 5.0

#: Where the per-kind page descriptions live (``<kind>.html`` and ``<kind>.js``).
PAGES_DIR = Path(__file__).resolve().parent / "pages"


def search_seconds(max_time: float) -> float:
    """The time limit of a solve's search at a server whose requests may take ``max_time``: what
    is left once the answer's reserve is kept.

    >>> search_seconds(10.0), search_seconds(2.0)
    (9.0, 1.5)
    """
    return max_time - min(ANSWER_RESERVE_S, max_time / 4)


def size_text(n: int) -> str:
    """A byte count as people say it: ``1 MiB``, ``64 KiB``.

    >>> size_text(MAX_BODY_BYTES), size_text(65536)
    ('1 MiB', '64 KiB')
    """
    return f"{n / 2**20:g} MiB" if n >= 2**20 else f"{n / 1024:g} KiB"


#: The environment variable through which ``cpwords serve`` gives its workers their memory cap.
WORKER_MEMORY_ENV = "CPWORDS_WORKER_MEMORY"
#: Bounds of the default memory cap of one worker (bytes).
MIN_WORKER_MEMORY = 1024**3
MAX_WORKER_MEMORY = 4 * 1024**3


def default_worker_memory(workers: int) -> int:
    """Bytes one worker may allocate by default: an equal share of the machine's memory among the
    workers and the server itself, within 1 and 4 GiB."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        total = 8 * 1024**3
    return max(MIN_WORKER_MEMORY, min(MAX_WORKER_MEMORY, total // (workers + 1)))


def default_workers() -> int:
    """Solver processes when ``--workers`` is not given: the execution layer's one default (one a
    core, at most 8: :func:`cpwords.engines.workers.default_workers`)."""
    from cpwords.engines.workers import default_workers as layer_default

    return layer_default()


@dataclass
class ServerConfig:
    """How one server runs.

    Attributes
    ----------
    host, port: where to listen (127.0.0.1 unless told otherwise).
    workers: solver processes; capped at the machine's usable cores.
    max_time: seconds every solve request may take: its search stops a little before
        (:func:`search_seconds`; the spec's ``time_limit`` is lowered to that), and a solve that
        has not answered :data:`ANSWER_GRACE_S` past it is answered without its result.
    token: when set, every page and API call needs it (``Authorization: Bearer``, or the cookie
        a page link with ``?token=`` sets).
    queue: jobs that may wait for a worker; more are answered 429 with ``Retry-After``.
    pages_dir: folder of the per-kind page descriptions; a kind without one gets the generic page.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = field(default_factory=default_workers)
    max_time: float = 10.0
    token: str | None = None
    queue: int = 64
    pages_dir: Path = PAGES_DIR
    max_memory: int | None = None
    """Bytes each worker may allocate (None: :func:`default_worker_memory`); a request that needs
    more is answered 422 with a message, and the worker goes on."""
    max_answer_bytes: int = MAX_ANSWER_BYTES
    """Largest answer sent as one JSON body; a bigger result is a download (see the constant)."""

    def __post_init__(self) -> None:
        if self.max_time <= 0:
            raise ValueError(f"max_time must be positive (got {self.max_time})")
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1 (got {self.workers})")
        if self.queue < 1:
            raise ValueError(f"queue must be at least 1 (got {self.queue})")
        if self.token is not None and not self.token.strip():
            raise ValueError("the token must not be empty")
        self.workers = min(self.workers, usable_cores())
        if self.max_memory is None:
            self.max_memory = default_worker_memory(self.workers)
        if self.max_memory < 256 * 1024**2:
            raise ValueError(f"max_memory must be at least 256 MiB (got {self.max_memory})")
        if self.max_answer_bytes < 1:
            raise ValueError(f"max_answer_bytes must be positive (got {self.max_answer_bytes})")

    @property
    def solve_threads(self) -> int:
        """Solver threads (and processes) one solve may use: the cores shared by the workers,
        so that one request cannot take the whole machine."""
        return max(1, usable_cores() // self.workers)
