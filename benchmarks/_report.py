"""Write one benchmark's figures into its own section of docs/benchmarks.md.

Each benchmark owns the text between ``<!-- BEGIN name -->`` and ``<!-- END name -->``, so
benchmarks can be re-run one at a time without touching each other's figures.
"""

from __future__ import annotations

import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def write_section(name: str, markdown: str, doc: Path = DOC) -> None:
    """Replace (or append) the section ``name`` of docs/benchmarks.md with ``markdown``."""
    begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    text = doc.read_text(encoding="utf-8") if doc.exists() else "# Benchmarks\n"
    stamp = f"_Measured {time.strftime('%Y-%m-%d')} on {platform.machine()}, Python {platform.python_version()}, {_cores()} cores._\n\n"
    block = f"{begin}\n{stamp}{markdown.strip()}\n{end}"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    doc.write_text(text, encoding="utf-8")


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
