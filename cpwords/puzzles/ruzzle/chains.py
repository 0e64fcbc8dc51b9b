"""Independent seeded chains of the ``best_board`` search, run in parallel on the execution layer.

A chain is one seeded search from the spec's board (:func:`~cpwords.puzzles.ruzzle.climb.search_board`:
hill climbing or annealing). Chain 0 uses the spec's seed, so one chain is exactly the one-process
search; the others use seeds derived from it. When the spec asks for ``workers`` above one,
``best_board`` runs one chain per worker on the layer's local workers (:func:`~cpwords.engines.parallel.parallel_map`):
climbs are independent, so more chains raise the odds of reaching the optimum in the same time.
The best board of all chains wins, ties going to the lowest chain, so the answer depends on the
seed and the number of chains, never on the order in which they finish; except that with a
``target`` the first chain to reach it ends the others (any board at the target will do). (Without ``workers`` one
chain runs in the caller's process: it reports its progress, and a stop request keeps its best
board; chains in workers are ended by a stop and give what the finished ones found.) (The cluster runner's
sharding runs :data:`~cpwords.puzzles.ruzzle.shards.CHAINS` chains the same way.)
"""

from __future__ import annotations

import hashlib
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.parallel import parallel_map
from cpwords.engines.workers import worker_budget
from cpwords.puzzles.ruzzle.board import Board, parse_row


def chain_seed(seed: int, chain: int) -> int:
    """The seed of chain ``chain`` of a search seeded ``seed`` (chain 0: ``seed`` itself).

    >>> chain_seed(7, 0), chain_seed(7, 1) == chain_seed(7, 1), chain_seed(7, 1) != chain_seed(7, 2)
    (7, True, True)
    """
    if chain == 0:
        return seed
    return int.from_bytes(hashlib.sha256(f"cpwords-chain {seed} {chain}".encode()).digest()[:4], "big") >> 1


_SHARED: tuple[Any, Board, Any] | None = None


def _share(spec: Any, start: Board, lexicon: Any) -> None:
    """A worker's initializer: what every chain starts from."""
    global _SHARED
    _SHARED = (spec, start, lexicon)


def _chain(chain: int) -> tuple[int, list[str], dict[str, Any]]:
    """One chain in a worker: its best value, its board's rows and its figures."""
    from cpwords.puzzles.ruzzle.climb import search_board

    assert _SHARED is not None
    spec, start, lexicon = _SHARED
    board, stats = search_board(spec.model_copy(update={"seed": chain_seed(spec.seed or 0, chain)}), start, lexicon,
                                worker_budget())
    return int(stats["best_value"]), board.row_strings(), stats


def best_of_chains(spec: Any, start: Board, lexicon: Any, budget: Budget, chains: int) -> tuple[Board, dict[str, Any]]:
    """The best board of ``chains`` chains run on as many local workers, and the winning chain's
    figures (with ``chains`` and ``chain``, the winner's number)."""
    mapped = parallel_map(_chain, list(range(chains)), budget, workers=chains, initializer=_share,
                          initargs=(spec, start, lexicon))
    finished: list[tuple[int, tuple[int, list[str], dict[str, Any]]]] = []
    for outcome in mapped:
        finished.append(outcome)
        if spec.target is not None and outcome[1][0] >= spec.target:
            break  # a chain reached the target: leaving the loop ends the others
    outcomes = sorted(finished, key=lambda t: (-t[1][0], t[0]))
    if not outcomes:  # every chain was cut before it reported (a stop request)
        from cpwords.puzzles.ruzzle.climb import search_board

        return search_board(spec, start, lexicon, budget)
    chain, (_, rows, stats) = outcomes[0]
    board = start.with_tiles([t for row in rows for t in parse_row(row)])
    reached = spec.target is not None and outcomes[0][1][0] >= spec.target
    return board, {**stats, "chains": len(outcomes), "chain": chain,
                   "stopped_by_time": not reached and (stats.get("stopped_by_time", False) or not mapped.run.complete)}
