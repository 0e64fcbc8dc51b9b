"""The pool of worker processes that runs the jobs, outside the server's event loop.

Solving is CPU-bound, so every solve (and every dictionary look-up) runs in one of a fixed
number of worker processes (:mod:`cpwords.server.worker`). Each worker has a thread here that
takes the next job from a bounded queue, sends it down the worker's pipe and reads the answers
back: the event loop never blocks, it only waits on :meth:`~cpwords.server.jobs.Job.wait`.

What can go wrong is handled here, once:

* a full queue raises :class:`~cpwords.server.jobs.QueueFull` with a retry estimate (the API answers 429);
* a cancel sends ``stop`` to the worker (its budget stops the solver within a second); a
  worker that has not stopped after :data:`~cpwords.server.config.STOP_GRACE_S` is killed and
  replaced, so the worker is free within a second either way;
* a worker that dies (a crash, the OOM killer) fails its job, is replaced, and the other jobs go on;
* a solve that has not ended :data:`~cpwords.server.config.ANSWER_GRACE_S` past the time limit
  (work that does not look at it, such as the first build of a big dictionary's index) is
  answered on time with the worker's stand-in (status ``unknown``, what the solve was doing), and
  its worker is killed and replaced only :data:`~cpwords.server.config.HARD_GRACE_S` past the
  limit, if it is still busy by then (what it builds meanwhile is cached for the next request).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import OrderedDict, deque
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from cpwords.engines.workers import kill_group, track, untrack
from cpwords.server import config as limits
from cpwords.server.config import ServerConfig
from cpwords.server.jobs import CANCELLED, DONE, FAILED, RUNNING, Job, QueueFull
from cpwords.server.wire import dumps

#: Seconds a new worker may take to start before its first job counts as failed.
BOOT_S = 60.0


class _Slot:
    """One worker process, the thread that feeds it, and the pipes between them."""

    def __init__(self, pool: WorkerPool, index: int) -> None:
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


def _size(path: Path | None) -> int:
    try:
        return 0 if path is None else path.stat().st_size
    except OSError:
        return 0


def _overdue(stand_in: bytes, job: Job, seconds: float) -> bytes:
    """The stand-in answer of an overdue job, completed with what its solve was doing."""
    answer = json.loads(stand_in)
    result = answer["result"]
    doing = (job.progress or {}).get("description")
    if doing:
        result["message"] += f" (the solve was still at: {doing})"
    result["stats"]["wall_s"] = round(seconds, 3)
    return dumps(answer)


class WorkerPool:
    """A fixed number of worker processes and a bounded queue of jobs.

    Parameters
    ----------
    config: the server's settings (``workers``, ``queue``, ``max_time``).
    """

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.closing = False
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.pending: deque[Job] = deque()
        self.cond = threading.Condition()
        self.slots = [_Slot(self, i) for i in range(config.workers)]
        self.mean_job_s = 1.0
        #: where the workers write full results too big for one JSON body (made by :meth:`start`)
        self.spool: Path | None = None

    def start(self) -> None:
        """Start the worker processes and their threads."""
        self.spool = Path(tempfile.mkdtemp(prefix="cpwords-serve-"))  # private (0700), removed by close
        for slot in self.slots:
            slot.spawn()
            slot.thread.start()

    def close(self) -> None:
        """Cancel every job and stop every worker (at server shutdown)."""
        with self.cond:
            self.closing = True
            waiting = list(self.pending)
            self.pending.clear()
            self.cond.notify_all()
        for job in waiting:
            self.finish(job, CANCELLED)
        for slot in self.slots:
            slot.send(("exit",))
        deadline = time.monotonic() + 1.0
        for slot in self.slots:
            if slot.process is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    slot.process.wait(max(0.0, deadline - time.monotonic()))
            slot.kill()
        for slot in self.slots:
            slot.thread.join(1.0)
        if self.spool is not None:
            shutil.rmtree(self.spool, ignore_errors=True)

    # -- jobs

    def submit(self, job: Job) -> Job:
        """Queue a job.

        Raises
        ------
        QueueFull
            When ``config.queue`` jobs are waiting already.
        """
        with self.cond:
            if len(self.pending) >= self.config.queue:
                raise QueueFull(self.retry_after())
            self.prune()
            self.jobs[job.id] = job
            self.pending.append(job)
            self.cond.notify()
        return job

    def retry_after(self) -> int:
        """Seconds until the queue has room, roughly: the waiting work shared by the workers."""
        guess = (len(self.pending) + 1) * self.mean_job_s / len(self.slots)
        return int(min(max(1.0, math.ceil(guess)), math.ceil(self.config.max_time)))

    def take(self) -> Job | None:
        """The next job for a worker thread (blocks; None at shutdown)."""
        with self.cond:
            while not self.pending and not self.closing:
                self.cond.wait()
            if self.closing:
                return None
            return self.pending.popleft()

    def get(self, job_id: str) -> Job | None:
        """The job with this id, if it is still known."""
        return self.jobs.get(job_id)

    def cancel(self, job: Job) -> None:
        """Cancel a job: a waiting job at once, a running one through its worker (stop, then kill)."""
        with self.cond:
            if job.final or job.cancel_requested is not None:
                return
            job.cancel_requested = time.monotonic()
            if job in self.pending:
                self.pending.remove(job)
                queued = True
            else:
                queued = False
        if queued:
            self.finish(job, CANCELLED)
            return
        for slot in self.slots:
            if slot.job is job:
                slot.send(("stop", job.id))

    def mark_running(self, job: Job) -> None:
        """The worker has started ``job``."""
        job.status = RUNNING
        job.started = time.time()
        job.changed()

    def finish(self, job: Job, status: str, *, answer: bytes | None = None, error: dict[str, Any] | None = None,
               error_status: int = 0) -> None:
        """Give a job its final state and wake whoever waits for it."""
        if job.final:
            return
        job.answer, job.error, job.error_status = answer, error, error_status
        if answer is not None and self.spool is not None and (self.spool / f"{job.id}.json").is_file():
            job.download = self.spool / f"{job.id}.json"  # the worker wrote the full result there
        else:
            self.drop_files(job)  # a partial one, of a worker stopped while writing it
        job.finished = time.time()
        job.status = status
        if job.started is not None and status == DONE:
            self.mean_job_s = 0.8 * self.mean_job_s + 0.2 * (job.finished - job.started)
        job.changed()

    def forget(self, job: Job) -> None:
        """Drop a finished job at once (a synchronous solve whose answer has been sent)."""
        with self.cond:
            self.jobs.pop(job.id, None)
        self.drop_files(job)

    def drop_files(self, job: Job) -> None:
        """Delete the job's full result (and any part of one) from the spool."""
        if self.spool is not None:
            for name in (f"{job.id}.json", f"{job.id}.json.part"):
                (self.spool / name).unlink(missing_ok=True)

    def prune(self) -> None:
        """Forget the oldest finished jobs beyond the cap, and those finished long ago; delete the
        oldest full results while they take more than :data:`~cpwords.server.config.MAX_DOWNLOAD_BYTES`."""
        now = time.time()
        finished = [j for j in self.jobs.values() if j.final]
        extra = len(finished) - limits.MAX_FINISHED_JOBS
        for job in finished:
            if extra > 0 or (job.finished is not None and now - job.finished > limits.FINISHED_JOB_TTL_S):
                self.jobs.pop(job.id, None)
                self.drop_files(job)
                extra -= 1
        kept = [j for j in finished if j.download is not None and j.id in self.jobs]
        size = sum(_size(j.download) for j in kept)
        for job in kept:  # oldest first
            if size <= limits.MAX_DOWNLOAD_BYTES:
                break
            size -= _size(job.download)
            self.drop_files(job)  # GET .../result then says it is no longer kept

    def counts(self) -> dict[str, int]:
        """Workers, busy workers and waiting jobs (for ``/healthz``)."""
        return {"workers": len(self.slots), "busy": sum(s.job is not None for s in self.slots),
                "queued": len(self.pending)}

    def worker_pid(self, job: Job) -> int | None:
        """The process id of the worker running ``job`` (None when it is not running)."""
        return next((s.pid for s in self.slots if s.job is job), None)
