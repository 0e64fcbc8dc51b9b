"""Enumerate answers one word count at a time: the driver shared by the CP-SAT and SAT engines.

Each engine builds one model per word count k (exactly k words, every letter used, no shorter
prefix already covering the box); this loop shares the run's budget and the listing limit between
those models and gathers the counts per k.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found

#: ``enumerate_k(k, limit, budget) -> (answers found, why it stopped early or None)``
EnumerateK = Callable[[int, "int | None", Budget], "tuple[int, str | None]"]


def enumerate_by_size(spec: Any, enumerate_k: EnumerateK, limit: int | None, budget: Budget) -> Found:
    """Run ``enumerate_k`` for k = 1 .. ``spec.max_words``.

    Returns
    -------
    Found with ``count`` the answers seen and ``stats["count_by_words"]``; incomplete (with the
    reason) when the budget or ``limit`` cut any k short (that k and the ones after it then count
    what was reached).
    """
    counts: dict[int, int] = {}
    found = Found(stats={"count_by_words": counts})
    for k in range(1, spec.max_words + 1):
        if found.stopped is not None:
            counts[k] = 0
            continue
        if budget.expired():
            found.stop(budget.reason)
            counts[k] = 0
            continue
        counts[k], stopped = enumerate_k(k, limit, budget)
        if stopped is not None:
            found.stop(stopped)
        if limit is not None:
            limit -= counts[k]
            if limit <= 0 and found.stopped is None and k < spec.max_words:
                found.stop("limit")
    found.count = sum(counts.values())
    return found
