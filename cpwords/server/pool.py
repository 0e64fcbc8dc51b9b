"""The pool of worker processes that runs the jobs, outside the server's event loop.

Solving is CPU-bound, so every solve (and every dictionary look-up) runs in one of a fixed
number of worker processes (:mod:`cpwords.server.worker`). Each worker has a thread here that
takes the next job from a bounded queue, sends it down the worker's pipe and reads the answers
back: the event loop never blocks, it only waits on :meth:`~cpwords.server.jobs.Job.wait`.

What can go wrong is handled here and in each slot (:mod:`cpwords.server.slots`), once:

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
import math
import shutil
import subprocess
import tempfile
import threading
import time
from collections import OrderedDict, deque
from pathlib import Path
from typing import Any

from cpwords.server import config as limits
from cpwords.server.config import ServerConfig
from cpwords.server.jobs import CANCELLED, DONE, RUNNING, Job, QueueFull
from cpwords.server.slots import Slot


def _size(path: Path | None) -> int:
    try:
        return 0 if path is None else path.stat().st_size
    except OSError:
        return 0


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
        self.slots = [Slot(self, i) for i in range(config.workers)]
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
