"""Search for a high-scoring board by simulated annealing (seeded, so repeatable).

A move either puts a new letter, drawn by English letter frequency, on one cell, or swaps two
cells (which matters with bonus squares). A move that loses points is still taken with
probability ``exp(-loss / temperature)``; the temperature falls geometrically, so the search
wanders early and climbs at the end. Every board is scored with the trie search.
"""

from __future__ import annotations

import math
import random
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.puzzles.ruzzle.board import Board, path_score

#: Letters and their frequency in English text (per cent); Q comes as a ``qu`` tile, as on Boggle dice.
LETTER_FREQUENCIES: dict[str, float] = {
    "e": 12.7, "t": 9.1, "a": 8.2, "o": 7.5, "i": 7.0, "n": 6.7, "s": 6.3, "h": 6.1, "r": 6.0, "d": 4.3,
    "l": 4.0, "c": 2.8, "u": 2.8, "m": 2.4, "w": 2.4, "f": 2.2, "g": 2.0, "y": 2.0, "p": 1.9, "b": 1.5,
    "v": 1.0, "k": 0.8, "j": 0.15, "x": 0.15, "qu": 0.1, "z": 0.07,
}


def board_value(board: Board, found: dict[str, tuple[int, ...]], scoring: str) -> int:
    """What the annealer maximises: total points, or the number of words when scoring is ``none``."""
    if scoring == "none":
        return len(found)
    return sum(path_score(board, path, scoring) for path in found.values())


def best_board(spec: Any, start: Board, lexicon: Any, budget: Budget) -> tuple[Board, dict[str, Any]]:
    """Anneal from ``start`` for ``spec.iterations`` moves (or until the budget is spent).

    Parameters
    ----------
    spec: the ruzzle spec (``seed``, ``iterations``, ``scoring``, ``min_letters()``).
    start: the board to start from; its shape and bonus squares are kept.
    lexicon: the dictionary.
    budget: the run's budget (the search stops when it is spent; progress is reported to it).

    Returns
    -------
    (the best board seen, figures: start and best value, moves made and accepted).
    """
    from cpwords.puzzles.ruzzle.trie import load_trie, trie_words

    trie, _ = load_trie(lexicon)
    rng = random.Random(spec.seed)
    letters, weights = list(LETTER_FREQUENCIES), list(LETTER_FREQUENCIES.values())
    min_letters, scoring = spec.min_letters(), spec.scoring

    def value(board: Board) -> int:
        return board_value(board, trie_words(board, trie, min_letters=min_letters, scoring=scoring), scoring)

    current, current_value = start, value(start)
    best, best_value = current, current_value
    t_start = max(1.0, 0.05 * current_value)
    t_end = 0.05
    accepted = moves = 0
    with budget.progress("searching for a high-scoring board", total=spec.iterations) as advance:
        for step in range(spec.iterations):
            if budget.expired():
                break
            if step % 50 == 49:
                advance(50)
            temperature = t_start * (t_end / t_start) ** (step / max(1, spec.iterations - 1))
            tiles = list(current.tiles)
            if start.size > 1 and rng.random() < 0.3:
                i, j = rng.sample(range(start.size), 2)
                tiles[i], tiles[j] = tiles[j], tiles[i]
            else:
                tiles[rng.randrange(start.size)] = rng.choices(letters, weights)[0]
            candidate = current.with_tiles(tiles)
            candidate_value = value(candidate)
            moves += 1
            gain = candidate_value - current_value
            if gain >= 0 or rng.random() < math.exp(gain / temperature):
                current, current_value = candidate, candidate_value
                accepted += 1
                if current_value > best_value:
                    best, best_value = current, current_value
    stats = {"start_value": value(start), "best_value": best_value, "moves": moves, "accepted": accepted,
             "stopped_by_time": moves < spec.iterations}
    return best, stats
