"""Write one benchmark's figures into its own section of docs/benchmarks.md.

Each benchmark owns the text between ``<!-- BEGIN name -->`` and ``<!-- END name -->``, so
benchmarks can be re-run one at a time without touching each other's figures. Every section is
stamped with what measured it: the date, the machine, the commit (``+dirty`` when the work tree
had changes), the cpwords version and the version of the built-in common lists.
"""

from __future__ import annotations

import platform
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOC = HERE.parent / "docs" / "benchmarks.md"

#: Code for a measured child process: ``own_peak_kb()``, the peak resident memory of this process
#: alone. Not ``getrusage(RUSAGE_SELF).ru_maxrss``: Linux carries the parent's peak over into a
#: child started by fork (or vfork) and exec, so a child of a process that once held 1.5 GB reports
#: 1.5 GB however little it used itself. ``VmHWM`` in /proc/self/status is the peak of this
#: program's own memory; elsewhere, ru_maxrss (bytes on macOS) is all there is.
OWN_PEAK_KB = """
def own_peak_kb():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource, sys
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak
"""


def write_section(name: str, markdown: str, doc: Path = DOC) -> None:
    """Replace (or append) the section ``name`` of docs/benchmarks.md with ``markdown``."""
    begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    text = doc.read_text(encoding="utf-8") if doc.exists() else "# Benchmarks\n"
    stamp = f"_{measured_stamp()}._\n\n"
    block = f"{begin}\n{stamp}{markdown.strip()}\n{end}"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    doc.write_text(text, encoding="utf-8")


def measured_stamp(folder: Path = HERE) -> str:
    """When, where and with which code a section's figures were measured (``folder``: a folder
    of the git work tree whose code runs: this one's by default)."""
    from cpwords import __version__
    from cpwords.lexicon.sources import COMMON_VERSION

    return (f"Measured {time.strftime('%Y-%m-%d')} on {platform.machine()}, Python {platform.python_version()}, "
            f"{_cores()} cores, at commit {git_commit(folder)}, cpwords {__version__}, common lists "
            f"version {COMMON_VERSION}")


def git_commit(folder: Path = HERE) -> str:
    """The short commit of the work tree holding ``folder``, with ``+dirty`` when tracked files
    differ from it; ``unknown`` outside a git work tree."""
    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, check=False)

    try:
        head = git("rev-parse", "--short", "HEAD")
        if head.returncode != 0:
            return "unknown"
        dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    except OSError:  # no git on this machine
        return "unknown"
    return head.stdout.strip() + ("+dirty" if dirty else "")


def _cores() -> int:
    import os

    return os.cpu_count() or 1


def median_time(fn: Callable[[], object], repeat: int = 5) -> float:
    """Median wall time in seconds of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def fmt_s(seconds: float) -> str:
    """Seconds in a readable unit."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"
