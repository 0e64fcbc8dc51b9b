"""One slot of the worker pool (:mod:`cpwords.server.pool`): a worker process, the thread that
feeds it jobs from the pool's queue, and the pipes between them.

The slot handles what can go wrong with one job, once: a cancel (``stop`` sent, the worker
killed and replaced after :data:`~cpwords.server.config.STOP_GRACE_S`), a worker that dies (its
job fails, a fresh worker takes its place), and a solve that overruns the time limit (answered on
time with the worker's stand-in, the worker replaced only :data:`~cpwords.server.config.HARD_GRACE_S`
past the limit if still busy).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any, Protocol

from cpwords.engines.workers import kill_group, track, untrack
from cpwords.server import config as limits
from cpwords.server.config import ServerConfig
from cpwords.server.jobs import CANCELLED, DONE, FAILED, Job
from cpwords.server.wire import dumps

#: Seconds a new worker may take to start before its first job counts as failed.
BOOT_S = 60.0


class SlotPool(Protocol):
    """What a slot needs of its pool (:class:`~cpwords.server.pool.WorkerPool`)."""

    closing: bool
    config: ServerConfig

    def take(self) -> Job | None: ...

    def mark_running(self, job: Job) -> None: ...

    def finish(self, job: Job, status: str, *, answer: bytes | None = None, error: dict[str, Any] | None = None,
               error_status: int = 0) -> None: ...


class Slot:
    """One worker process, the thread that feeds it, and the pipes between them."""

    def __init__(self, pool: SlotPool, index: int) -> None:
        self.pool = pool
        self.index = index
        self.process: subprocess.Popen[bytes] | None = None
        self.jobs: Connection | None = None
        self.results: Connection | None = None
        self.send_lock = threading.Lock()
        self.job: Job | None = None
        self.started_mono = 0.0  # when the worker began the current job (time.monotonic)
        self.stand_in: bytes | None = None  # the answer to send if the job's solve overruns its limit
        self.solved = False  # the job's solve has its result (the worker is drawing or serialising it)
        self.thread = threading.Thread(target=self.loop, name=f"cpwords-slot-{index}", daemon=True)

    # -- the process

    def spawn(self) -> None:
        # A fresh interpreter (``python -m cpwords.server.worker``), never a fork of a process
        # with threads and an event loop; its own session, so it can be killed with its children.
        jobs_read, jobs_write = os.pipe()
        results_read, results_write = os.pipe()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cpwords.server.worker", str(jobs_read), str(results_write)],
                pass_fds=(jobs_read, results_write), stdin=subprocess.DEVNULL, start_new_session=True)
            track(self.process.pid)
        finally:
            os.close(jobs_read)  # the worker holds these ends now; closing ours makes its death an EOF
            os.close(results_write)
        self.jobs = Connection(jobs_write, readable=False)
        self.results = Connection(results_read, writable=False)

    @property
    def pid(self) -> int | None:
        """The worker's process id (for logs and tests)."""
        return None if self.process is None else self.process.pid

    def kill(self) -> None:
        """Kill the worker and every process of its session (what its solve started)."""
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            kill_group(process.pid)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(2.0)
        untrack(process.pid)
        for conn in (self.jobs, self.results):
            if conn is not None:
                conn.close()
        self.process = self.jobs = self.results = None

    def replace(self) -> None:
        self.kill()
        if not self.pool.closing:
            self.spawn()

    def send(self, message: tuple[Any, ...]) -> bool:
        """Send a message to the worker; False when its pipe is broken (the worker died)."""
        with self.send_lock:
            if self.jobs is None:
                return False
            try:
                self.jobs.send(message)
                return True
            except (OSError, ValueError):
                return False

    def exit_reason(self) -> str:
        process = self.process
        if process is None:
            return "the worker process stopped"
        try:
            code = process.wait(1.0)
        except subprocess.TimeoutExpired:
            return "the worker process closed its pipe"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            return f"the worker process was killed ({name})"
        return f"the worker process stopped unexpectedly (exit code {code})"

    # -- the feeding thread

    def loop(self) -> None:
        while True:
            job = self.pool.take()
            if job is None:
                return
            self.job, self.stand_in, self.solved = job, None, False
            try:
                self.run(job)
            except Exception as exc:  # a bug of ours must not stop the slot
                print(f"cpwords serve: slot {self.index}: {exc!r}", file=sys.stderr)
                self.pool.finish(job, FAILED, error={"error": "internal error; the server log has the details"},
                                 error_status=500)
                self.replace()
            finally:
                self.job = None

    def run(self, job: Job) -> None:
        if job.cancel_requested is not None:
            self.pool.finish(job, CANCELLED)
            return
        if not self.send((job.op, job.id, *job.args)):
            self.replace()  # died while idle: the job goes to its replacement
            if not self.send((job.op, job.id, *job.args)):
                self.pool.finish(job, FAILED, error={"error": "no worker process could be started"}, error_status=503)
                return
        sent = time.monotonic()
        while True:
            wait = self.wait_seconds(job, sent)
            if wait <= 0:
                if self.answer_on_time(job):
                    continue  # the client has its answer; the worker may still end on its own
                self.expire(job)
                return
            assert self.results is not None
            try:
                if not self.results.poll(min(wait, 0.5)):
                    continue
                message = self.results.recv()
            except (EOFError, OSError):
                reason = self.exit_reason()
                self.replace()
                if job.cancel_requested is not None:
                    self.pool.finish(job, CANCELLED)
                else:
                    self.pool.finish(job, FAILED, error={"error": f"{reason}; the job failed (other jobs are not "
                                                                  "affected)"}, error_status=500)
                return
            if self.handle(job, message):
                return

    def wait_seconds(self, job: Job, sent: float) -> float:
        """Seconds until this job must be given up: the cancel grace, the hard time limit, or
        (before the worker has started it) the worker's boot time."""
        now = time.monotonic()
        if job.cancel_requested is not None:
            return job.cancel_requested + limits.STOP_GRACE_S - now
        if job.started is not None:
            limit = self.started_mono + self.pool.config.max_time
            if self.overdue_answer_possible(job):
                return limit + limits.ANSWER_GRACE_S - now
            return limit + limits.HARD_GRACE_S - now
        return sent + BOOT_S - now

    def overdue_answer_possible(self, job: Job) -> bool:
        """Whether the stand-in can still answer ``job`` (its solve has not ended yet)."""
        return (not job.final and not self.solved and self.stand_in is not None
                and job.cancel_requested is None and job.started is not None)

    def answer_on_time(self, job: Job) -> bool:
        """At the answer deadline of a solve that has not ended: send the stand-in (True)."""
        if not self.overdue_answer_possible(job):
            return False
        assert self.stand_in is not None
        self.pool.finish(job, DONE, answer=_overdue(self.stand_in, job, time.monotonic() - self.started_mono))
        print(f"cpwords serve: a solve ({job.kind}) overran the time limit ({self.pool.config.max_time:g} s) and was "
              f"answered without its result; its worker is restarted if still busy "
              f"{limits.HARD_GRACE_S:g} s past the limit", file=sys.stderr)
        return True

    def expire(self, job: Job) -> None:
        self.replace()
        if job.cancel_requested is not None:
            self.pool.finish(job, CANCELLED)
        elif job.started is None:
            self.pool.finish(job, FAILED, error={"error": "the worker process did not start"}, error_status=503)
        else:
            self.pool.finish(job, FAILED, error={
                "error": f"the solve did not stop at the server's time limit ({self.pool.config.max_time:g} s); "
                         "its worker was restarted"}, error_status=503)

    def handle(self, job: Job, message: tuple[Any, ...]) -> bool:
        """Apply one message of the worker; True when the job is over."""
        what = message[0]
        if what == "ready" or message[1] != job.id:
            return False  # "ready" says nothing a job needs; other ids are late messages of a job given up
        if what == "started":
            self.started_mono = time.monotonic()
            self.pool.mark_running(job)
            return False
        if what == "progress":
            if not job.final:
                job.progress = message[2]
                job.changed()
            return False
        if what == "solving":
            self.stand_in = message[2]
            return False
        if what == "solved":
            self.solved = True
            return False
        status = CANCELLED if job.cancel_requested is not None else None
        if what == "done":
            self.pool.finish(job, status or DONE, answer=message[2])
        elif what == "input_error":
            self.pool.finish(job, status or FAILED, error=message[2], error_status=422)
        elif what == "too_big":  # over the worker's memory cap: a fresh worker before the answer goes out
            self.replace()
            self.pool.finish(job, status or FAILED, error=message[2], error_status=422)
        else:
            self.pool.finish(job, status or FAILED, error={"error": message[2]}, error_status=500)
        return True


def _overdue(stand_in: bytes, job: Job, seconds: float) -> bytes:
    """The stand-in answer of an overdue job, completed with what its solve was doing."""
    answer = json.loads(stand_in)
    result = answer["result"]
    doing = (job.progress or {}).get("description")
    if doing:
        result["message"] += f" (the solve was still at: {doing})"
    result["stats"]["wall_s"] = round(seconds, 3)
    return dumps(answer)
