"""The ``active`` engine: each dictionary word the board's letters allow, looked for on the board."""

from __future__ import annotations

import time
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.puzzles.ruzzle.engines.common import RuzzleProblem, cached_index, scored


def words(problem: RuzzleProblem, spec: Any, budget: Budget) -> Found:
    """Every word on the board with its best-scoring path and its points: ``(word, path, points)``."""
    from cpwords.puzzles.ruzzle.active import DictionaryIndex, active_words_within

    lexicon = problem.lexicon
    assert lexicon is not None
    t0 = time.perf_counter()
    index, _ = cached_index("active", lexicon, lambda: DictionaryIndex(lexicon, lexicon.alphabet))
    t1 = time.perf_counter()
    found, complete = active_words_within(problem.board, index, min_letters=spec.min_letters(),
                                          scoring=spec.scoring, expired=budget.expired)
    stats = {"index_s": round(t1 - t0, 6), "search_s": round(time.perf_counter() - t1, 6)}
    result = Found(answers=scored(problem.board, found, spec.scoring), count=None if complete else len(found),
                   stats=stats)
    return result if complete else result.stop(budget.reason)
