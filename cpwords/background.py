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

``CPWORDS_NO_BACKGROUND_BUILDS=1`` turns this off (the test suite sets it, but for the test
that checks it). Only the command line does it: the API and the server never leave a process
behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

#: The longest a background build may run (then it is ended by its own alarm).
MAX_SECONDS = 900
#: The environment variable that turns background builds off.
OFF = "CPWORDS_NO_BACKGROUND_BUILDS"


def start(spec: Any) -> int | None:
    """Start the detached process that finishes ``spec``'s one-time builds; its process id (None
    when turned off or when it could not start)."""
    if os.environ.get(OFF, "") not in ("", "0"):
        return None
    options: dict[str, Any] = {"stdin": subprocess.PIPE, "stdout": subprocess.DEVNULL,
                               "stderr": subprocess.DEVNULL, "close_fds": True}
    if os.name == "posix":
        options["start_new_session"] = True  # Ctrl-C in the terminal does not reach it
    else:
        options["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.DETACHED_PROCESS  # type: ignore[attr-defined]
    try:
        proc = subprocess.Popen([sys.executable, "-m", "cpwords.background"], **options)
        assert proc.stdin is not None
        proc.stdin.write(payload(spec).encode())
        proc.stdin.close()
    except OSError:
        return None
    return proc.pid


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
