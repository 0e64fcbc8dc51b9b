"""The ``trie`` engine: a board walk pruned by a double-array trie (read from the disk cache once
per process), and the annealing search for rich boards that scores with the array scorer."""

from __future__ import annotations

import time
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import INTERRUPTED, Found
from cpwords.puzzles.ruzzle.engines.common import RuzzleProblem
from cpwords.puzzles.ruzzle.trie import trie_of


def words(problem: RuzzleProblem, spec: Any, budget: Budget) -> Found:
    """Every word on the board with its best-scoring path and its points: ``(word, path, points)``."""
    from cpwords.puzzles.ruzzle.trie import scored_words

    assert problem.lexicon is not None
    t0 = time.perf_counter()
    trie, stats = trie_of(problem.lexicon)
    t1 = time.perf_counter()
    found = scored_words(problem.board, trie, min_letters=spec.min_letters(), scoring=spec.scoring, budget=budget)
    stats |= {"index_s": round(t1 - t0, 6), "search_s": round(time.perf_counter() - t1, 6)}
    result = Found(answers=found, stats=stats)
    return result.stop(budget.reason) if budget.expired() else result


def best_board(problem: RuzzleProblem, spec: Any, budget: Budget) -> Found:
    """A high-scoring board by the spec's seeded ``search`` (hill climbing or annealing); its words.

    The search is a heuristic: the board found is the best seen, not proved best (the Result
    says ``feasible``). This is one chain, in this process: it reports its progress and, stopped,
    keeps its best board; several chains on workers are the kind's shards (:mod:`..shards`)."""
    from cpwords.puzzles.ruzzle.climb import search_board

    board, stats = search_board(spec, problem.board, problem.lexicon, budget)
    found = words(RuzzleProblem(board, problem.lexicon), spec, Budget(None))  # the best board's words: all
    found.stats = stats | found.stats | {"grid": board.row_strings()}
    found.complete = False
    found.stopped = "heuristic"
    interrupted = budget.expired() and budget.reason == INTERRUPTED  # Ctrl-C, SIGTERM, a cancelled job
    found.message = (f"the board is the best the {'climbs' if spec.search == 'climb' else 'moves'} of the "
                     "search saw, not proved best"
                     + (" (the search was interrupted)" if interrupted else
                        " (the time limit cut the search short)" if stats.get("stopped_by_time") else
                        " (it climbed until the time limit)" if stats.get("until_time_limit") else ""))
    return found
