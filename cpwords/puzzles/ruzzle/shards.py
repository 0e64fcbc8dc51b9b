"""Shards of Ruzzle ``best_board``: independent seeded search chains, the kind's only description
of its parallel work (the route sends them to local workers with ``workers`` above one, or to a
cluster; without workers the kind's own solve runs chain 0 in the caller's process, which reports
its progress and, stopped, keeps its best board).

Chain *i* runs the spec's ``search`` (hill climbs until the time limit, or ``climbs`` of them; or
annealing from the spec's board for ``iterations`` moves) with its own seed: chain 0 with
the spec's seed (it is exactly the one-process search, so a sharded run's board never scores
less), the others with seeds derived from it. There is one chain a worker of the run (its
budget says how many; :data:`CHAINS` when the count is not known, as on a cluster not yet
reached): climbs are independent, so more chains raise the odds of reaching the optimum in the
same time. The best board of all chains wins, ties going to the lowest chain number, so the
answer depends on the seed and the number of chains, never on the order in which chains finish;
except that with a ``target`` the first chain to reach it ends the others (:meth:`RuzzleSharding.enough`:
any board at the target will do). A chain cut short by the time limit still offers the best
board it saw.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.engines.shards import Shard, Sharding, ShardStopped
from cpwords.lexicon import Lexicon, lexicon_for
from cpwords.puzzles.ruzzle.board import Board, parse_row
from cpwords.puzzles.ruzzle.engines.common import RuzzleProblem
from cpwords.results import Result
from cpwords.wording import counted

#: Independent chains a ``best_board`` search is split into when the run's worker count is unknown.
CHAINS = 8


def chain_seed(seed: int, chain: int) -> int:
    """The seed of chain ``chain`` of a search seeded ``seed`` (chain 0: ``seed`` itself).

    >>> chain_seed(7, 0), chain_seed(7, 1) == chain_seed(7, 1), chain_seed(7, 1) != chain_seed(7, 2)
    (7, True, True)
    """
    if chain == 0:
        return seed
    return int.from_bytes(hashlib.sha256(f"cpwords-chain {seed} {chain}".encode()).digest()[:4], "big") >> 1


@dataclass
class RuzzleContext:
    """The starting board and the dictionary."""

    start: Board
    lexicon: Lexicon


class RuzzleSharding(Sharding):
    """One shard per search chain of ``best_board`` (see the module)."""

    version = "1"
    uses_seed = True

    def supports(self, spec: Any) -> bool:
        """The ``best_board`` search."""
        return bool(spec.task == "best_board")

    def prepare(self, spec: Any) -> RuzzleContext:
        """The starting board and the dictionary."""
        return RuzzleContext(Board.from_tiles(spec.tiles(), spec.bonus_cells(), spec.alphabet()), lexicon_for(spec))

    def plan(self, spec: Any, context: RuzzleContext, budget: Budget | None = None) -> list[Shard]:
        """One chain a worker of the run (:data:`CHAINS` when the run does not know its workers)."""
        chains = budget.workers if budget is not None and budget.workers > 1 else CHAINS
        return [Shard(f"chain:{i:03d}", {"chain": i, "seed": chain_seed(spec.seed, i)}, cost=float(spec.iterations or 1))
                for i in range(chains)]

    def enough(self, spec: Any, partial: Any) -> bool:
        """A chain that reached the spec's ``target`` ends the others."""
        return spec.target is not None and partial is not None and partial["value"] >= spec.target

    def run(self, spec: Any, context: RuzzleContext, shard: Shard, budget: Budget) -> dict[str, Any]:
        """One chain: its best board and value.

        Raises
        ------
        ShardStopped
            When the budget ended the chain early (with the best board it saw).
        """
        from cpwords.puzzles.ruzzle.climb import search_board

        board, stats = search_board(spec.model_copy(update={"seed": shard.data["seed"]}), context.start,
                                  context.lexicon, budget)
        partial = {**shard.data, "value": stats["best_value"], "grid": board.row_strings(),
                   "moves": stats["moves"], "accepted": stats["accepted"]}
        if stats["stopped_by_time"]:
            raise ShardStopped(partial)
        return partial

    def combine(self, spec: Any, context: RuzzleContext, partials: Sequence[tuple[Shard, Any]],
                complete: bool) -> Found:
        """The best chain's board (ties: the lowest chain) and every word on it."""
        from cpwords.puzzles.ruzzle.engines.trie import words

        chains = [p for _, p in partials if p is not None]
        if not chains:
            return Found(complete=False)
        best = max(chains, key=lambda p: (p["value"], -p["chain"]))
        board = _board(context.start, best["grid"])
        found = words(RuzzleProblem(board, context.lexicon), spec, Budget(None))
        found.stats = {"best_value": best["value"], "best_chain": best["chain"], "chains": len(chains),
                       "chain_values": [p["value"] for p in sorted(chains, key=lambda p: p["chain"])],
                       "moves": sum(p["moves"] for p in chains), "accepted": sum(p["accepted"] for p in chains),
                       } | found.stats | {"grid": best["grid"]}
        found.complete = False
        found.stopped = "heuristic"
        found.message = (f"the board is the best that {len(chains)} {spec.search} chains saw, not proved best"
                         + ("" if complete else " (the time limit cut the search short)"))
        return found

    def result(self, spec: Any, context: RuzzleContext, found: Found) -> Result:
        """The Result, as the kind's own solve builds it."""
        from cpwords.puzzles.ruzzle.solve import word_solutions

        board = _board(context.start, found.stats["grid"]) if "grid" in found.stats else context.start
        solutions = word_solutions(board, found.answers, with_grid=True)
        found.count = len(solutions)
        if spec.scoring != "none":
            found.objective = sum(s.score for s in solutions)
        infeasible = (f"no word of {spec.dictionary.label()} with at least {counted(spec.min_letters(), 'letter')} "
                      "can be traced on this board")
        result = Result.from_search(spec, found, solutions, infeasible=infeasible, what="word", stats={
            "dictionary": spec.dictionary.label(), "dictionary_words": len(context.lexicon)})
        result.count_exact = True  # the words of the board found are all listed
        return result


def _board(start: Board, rows: list[str]) -> Board:
    return start.with_tiles([t for row in rows for t in parse_row(row)])


SHARDING = RuzzleSharding()
