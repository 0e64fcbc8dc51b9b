"""Finishing a dictionary's one-time build after the command that started it has answered.

A first use of a big dictionary builds its indexes (ladder links and groups, Ruzzle's trie …)
within the command's time limit; when the limit ends the build, nothing half-built is kept, so
the next run with the same limit would stop in the same place, again and again. The command line
therefore hands the build to a process of its own, detached, in the manner of ``git gc --auto``:
it solves the same spec with a time limit of a millisecond while every build runs to its end
(:func:`~cpwords.engines.budget.free_builds`), so the indexes land in the disk cache and the
search itself does no work worth the name. It runs at low priority, prints nothing, and is
bounded by :data:`MAX_SECONDS`. Concurrent runs wait for its build through the cache's lock,
within their own time limits.

One builder per build at a time: the starter takes an exclusive ``flock`` on a lock file in the
cache folder (one per build and dictionary) and hands it to the builder, which holds it until
it ends; a run that would start a builder for the same build while the lock is held starts none
and reports the builder at work (four parallel first runs of one big list started four builders
of it, 2.4 GB together).

``CPWORDS_NO_BACKGROUND_BUILDS=1`` turns this off (the test suite sets it, but for the test
that checks it). Only the command line does it: the API and the server never leave a process
behind.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

#: The longest a background build may run (then it is ended by its own alarm).
MAX_SECONDS = 900
#: The environment variable that turns background builds off.
OFF = "CPWORDS_NO_BACKGROUND_BUILDS"
#: The builder's command line (it reads the spec on stdin).
COMMAND = [sys.executable, "-m", "cpwords.background"]


def start(spec: Any, what: str) -> int | None:
    """Start the detached process that finishes ``spec``'s one-time build of ``what`` (and
    whatever else solving it needs); its process id, or that of the builder already at the same
    build (one at a time); None when turned off or when it could not start."""
    if os.environ.get(OFF, "") not in ("", "0"):
        return None
    fd, running = _take_lock(lock_path(spec, what))
    if running is not None:
        return running or None  # 0: a builder is at it, its id not written yet
    options: dict[str, Any] = {"stdin": subprocess.PIPE, "stdout": subprocess.DEVNULL,
                               "stderr": subprocess.DEVNULL, "close_fds": True,
                               "pass_fds": () if fd is None else (fd,)}  # the builder holds the lock
    if os.name == "posix":
        options["start_new_session"] = True  # Ctrl-C in the terminal does not reach it
    else:
        options["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.DETACHED_PROCESS  # type: ignore[attr-defined]
    try:
        proc = subprocess.Popen(COMMAND, **options)
        if fd is not None:  # who holds the lock, for the runs that find it held
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(proc.pid).encode(), 0)
        assert proc.stdin is not None
        proc.stdin.write(payload(spec).encode())
        proc.stdin.close()
    except OSError:
        return None
    finally:
        if fd is not None:
            os.close(fd)  # the builder's copy keeps the lock until it ends
    return proc.pid


def lock_path(spec: Any, what: str) -> Path:
    """The lock file of the background build of ``what`` for ``spec``'s dictionary."""
    from cpwords.lexicon.cache import cache_dir

    dictionary = getattr(spec, "dictionary", None)
    ref = dictionary.model_dump(mode="json") if dictionary is not None else None
    if isinstance(ref, dict) and ref.get("path"):
        ref["path"] = os.path.abspath(ref["path"])
    key = json.dumps([what, ref], sort_keys=True, default=str)
    return cache_dir() / f"background-{hashlib.sha256(key.encode()).hexdigest()[:24]}.lock"


def _take_lock(path: Path) -> tuple[int | None, int | None]:
    """(the locked file descriptor, None), or (None, the process id written in the lock file, 0
    when none is) when a builder holds the lock; (None, None) where there is no lock to take (not
    POSIX, an unwritable cache folder): the builder is started without one."""
    try:
        import fcntl
    except ImportError:
        return None, None
    from cpwords import writer

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = writer.open_lock(path)
    except OSError:
        return None, None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        with contextlib.suppress(OSError, ValueError):
            held = int(os.pread(fd, 32, 0).decode("ascii", "replace").strip() or 0)
            os.close(fd)
            return None, held
        os.close(fd)
        return None, 0
    except OSError:
        os.close(fd)
        return None, None
    return fd, None


def payload(spec: Any) -> str:
    """The spec as the builder reads it: every field (``limit: null`` is not the default limit)."""
    return json.dumps(spec.model_dump(mode="json"))


def main() -> None:
    """The detached process: read the spec (JSON) from stdin and build what solving it needs."""
    import signal

    from cpwords import api
    from cpwords.engines.budget import free_builds
    from cpwords.puzzles.loading import parse_spec

    if hasattr(signal, "alarm"):
        signal.alarm(MAX_SECONDS)
    if hasattr(os, "nice"):
        os.nice(10)
    spec = parse_spec(json.loads(sys.stdin.read()))
    with free_builds():
        api.solve(spec, time_limit=0.001, check=False)


if __name__ == "__main__":
    main()
