"""Enumerate answers one word count at a time: the driver shared by the CP-SAT and SAT engines.

Each engine builds one model per word count k (exactly k words, every letter used, no shorter
prefix already covering the box); this loop shares the time limit and the listing limit between
those models and gathers the counts per k.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

#: ``enumerate_k(k, limit, seconds_left) -> (answers found, whether all were seen)``
EnumerateK = Callable[[int, "int | None", "float | None"], tuple[int, bool]]


def enumerate_by_size(spec: Any, enumerate_k: EnumerateK, limit: int | None) -> tuple[bool, dict[int, int], dict]:
    """Run ``enumerate_k`` for k = 1 .. ``spec.max_words``.

    Returns
    -------
    (complete, answers per word count, stats): ``complete`` is False when the time limit or
    ``limit`` cut any k short (that k and the ones after it then count what was reached).
    """
    t0 = time.monotonic()
    counts: dict[int, int] = {}
    complete = True
    for k in range(1, spec.max_words + 1):
        left = None if spec.time_limit is None else spec.time_limit - (time.monotonic() - t0)
        if (left is not None and left <= 0) or (limit is not None and limit <= 0):
            complete, counts[k] = False, 0
            continue
        found, seen_all = enumerate_k(k, limit, left)
        counts[k] = found
        complete = complete and seen_all
        if limit is not None:
            limit -= found
    return complete, counts, {"enumerate_s": round(time.monotonic() - t0, 6)}
