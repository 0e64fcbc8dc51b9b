"""The native engine's side of the tasks: the same three functions as ``cpsat.py`` and ``sat.py``.

Each returns plain data: ``best_answer`` -> (status, word indexes or None, stats),
``list_answers`` -> (complete, list of word-index lists, stats), ``count_answers`` ->
(complete, {word count: answers}, stats).
"""

from __future__ import annotations

import time
from typing import Any

from cpwords.puzzles.letter_boxed import native
from cpwords.puzzles.letter_boxed.words import WordTable
from cpwords.results import Status


def best_answer(spec: Any, table: WordTable) -> tuple[Status, list[int] | None, dict[str, Any]]:
    """Fewest words, then least cost, by layered search (proved optimal: layers are exhaustive)."""
    t0 = time.perf_counter()
    found = native.min_words(table, spec.max_words)
    stats = {"search_s": round(time.perf_counter() - t0, 6)}
    if found is None:
        return Status.INFEASIBLE, None, stats
    return Status.OPTIMAL, found[2], stats


def list_answers(spec: Any, table: WordTable) -> tuple[bool, list[list[int]], dict[str, Any]]:
    """Answers of at most ``max_words`` words by pruned depth-first search, up to ``limit``."""
    t0 = time.perf_counter()
    deadline = None if spec.time_limit is None else time.monotonic() + spec.time_limit
    answers: list[list[int]] = []
    complete = True
    try:
        for answer in native.enumerate_answers(table, spec.max_words, deadline=deadline):
            if spec.limit is not None and len(answers) >= spec.limit:
                complete = False
                break
            answers.append(answer)
    except native.SearchTimeout:
        complete = False
    return complete, answers, {"search_s": round(time.perf_counter() - t0, 6)}


def count_answers(spec: Any, table: WordTable) -> tuple[bool, dict[int, int], dict[str, Any]]:
    """Exact counts by inclusion-exclusion (boxes of up to 16 letters), else by enumeration."""
    t0 = time.perf_counter()
    if table.box.n <= native.MAX_COUNT_LETTERS:
        counts = native.count_answers(table, spec.max_words)
        return True, counts, {"count_s": round(time.perf_counter() - t0, 6), "method": "inclusion-exclusion"}
    deadline = None if spec.time_limit is None else time.monotonic() + spec.time_limit
    counts = {k: 0 for k in range(1, spec.max_words + 1)}
    complete = True
    try:
        for answer in native.enumerate_answers(table, spec.max_words, deadline=deadline):
            counts[len(answer)] += 1
    except native.SearchTimeout:
        complete = False
    return complete, counts, {"count_s": round(time.perf_counter() - t0, 6), "method": "enumeration"}
