"""The ``enumerate`` engine: every simple king path of the board, no pruning (boards of at most
16 cells for words); it also counts the paths of a board size exactly."""

from __future__ import annotations

import time
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.errors import InputError
from cpwords.puzzles.ruzzle.engines.common import RuzzleProblem, cached_index, scored


def words(problem: RuzzleProblem, spec: Any, budget: Budget) -> Found:
    """Every word on the board with its best-scoring path and its points, from every path of the board."""
    from cpwords.puzzles.ruzzle.paths import HashedDictionary, enumerate_words_within

    lexicon = problem.lexicon
    assert lexicon is not None
    t0 = time.perf_counter()
    index, _ = cached_index("enumerate", lexicon, lambda: HashedDictionary(lexicon))
    t1 = time.perf_counter()
    found, walked, complete = enumerate_words_within(problem.board, index, min_letters=spec.min_letters(),
                                                     scoring=spec.scoring, expired=budget.expired)
    stats = {"index_s": round(t1 - t0, 6), "search_s": round(time.perf_counter() - t1, 6),
             "paths_walked": sum(walked.values())}
    result = Found(answers=scored(problem.board, found, spec.scoring), count=None if complete else len(found),
                   stats=stats)
    return result if complete else result.stop(budget.reason)


def count_paths(problem: RuzzleProblem, spec: Any, budget: Budget) -> Found:
    """The exact number of simple king paths of 2+ cells on a board of this size (letters do not
    matter), by dynamic programming over (visited set, last cell).

    Raises
    ------
    InputError for a board too large for exact counting.
    """
    from cpwords.puzzles.ruzzle.paths import MAX_COUNT_CELLS
    from cpwords.puzzles.ruzzle.paths import count_paths as count

    rows, cols = problem.board.rows, problem.board.cols
    if rows * cols > MAX_COUNT_CELLS:
        raise InputError(f"exact path counting handles boards of at most {MAX_COUNT_CELLS} cells "
                         f"(this one has {rows * cols})", field="grid")
    t0 = time.perf_counter()
    by_length = count(rows, cols)
    return Found(count=sum(n for k, n in by_length.items() if k >= 2),
                 stats={"rows": rows, "cols": cols, "method": "dynamic programming",
                        "paths_by_length": {str(k): n for k, n in by_length.items()},
                        "search_s": round(time.perf_counter() - t0, 6)})
