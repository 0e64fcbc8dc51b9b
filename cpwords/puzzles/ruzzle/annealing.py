"""Search for a high-scoring board by simulated annealing (seeded, so repeatable).

A move either puts a new letter, drawn by English letter frequency, on one cell, or swaps two
cells (which matters with bonus squares). A move that loses points is still taken with
probability ``exp(-loss / temperature)``; the temperature falls geometrically, so the search
wanders early and climbs at the end.

The chain is a function of the seed alone. Each step draws its randomness from one stream in a
fixed order whatever happened before: the move, then the coin that decides whether a loss is
taken (drawn even when it is not needed). So the moves can be drawn ahead and the boards they
lead to scored together, in one :meth:`~cpwords.puzzles.ruzzle.scoring.BoardScorer.score_many`
call: walking through them in order, the first move taken ends the batch, and the moves drawn
after it are tried again from the new board. The chain is the same for every batch size, and
the same as scoring one board at a time with the trie search (``scorer="reference"``, which the
tests compare with and the benchmarks time as the baseline). Batches grow as the temperature
falls and fewer moves are taken; a move that changes nothing (a letter put on itself, two equal
tiles swapped) is not scored.

The moves come in *cycles* of :data:`CYCLE_MOVES` (the last one shorter): each cycle starts from
the best board seen so far, hot again (its start temperature set from that board's value), and
cools down to the same end temperature. One long cooling settles in the first good region it
finds; reheating from the best board lets the extra moves a fast scorer affords explore around
it again (measured in ``benchmarks/bench_ruzzle_best_board.py``). ``cycle_moves=None`` anneals in
one cycle over all the moves (the search before cycles, which the benchmark keeps as its baseline).
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from itertools import accumulate, islice
from typing import Any, Literal

from cpwords.engines.budget import Budget
from cpwords.puzzles.ruzzle.board import BONUS_MULTIPLIERS, Board, path_score

#: Letters and their frequency in English text (per cent); Q comes as a ``qu`` tile, as on Boggle dice.
LETTER_FREQUENCIES: dict[str, float] = {
    "e": 12.7, "t": 9.1, "a": 8.2, "o": 7.5, "i": 7.0, "n": 6.7, "s": 6.3, "h": 6.1, "r": 6.0, "d": 4.3,
    "l": 4.0, "c": 2.8, "u": 2.8, "m": 2.4, "w": 2.4, "f": 2.2, "g": 2.0, "y": 2.0, "p": 1.9, "b": 1.5,
    "v": 1.0, "k": 0.8, "j": 0.15, "x": 0.15, "qu": 0.1, "z": 0.07,
}



def tile_frequencies(lexicon: Any) -> dict[str, float]:
    """Tiles to draw and their weights: :data:`LETTER_FREQUENCIES` for English; for another
    language the letters of its 20,000 most frequent words (``q`` as a ``qu`` tile when ``q`` is
    nearly always followed by ``u``, as in Italian, Spanish and French)."""
    alphabet = getattr(lexicon, "alphabet", None)
    if alphabet is None or alphabet.language == "english":
        return LETTER_FREQUENCIES
    counts = Counter(ch for word in islice(lexicon, 20_000) for ch in word)
    qu = sum(word.count("qu") for word in islice(lexicon, 20_000))
    if counts["q"] and qu >= 0.9 * counts["q"]:
        counts["qu"] = counts.pop("q")
    total = sum(counts.values())
    return {tile: 100 * n / total for tile, n in counts.most_common()}


#: Most boards scored in one batch (the array search's cost per board stops falling near this).
MAX_BATCH = 64

#: Moves of one annealing cycle (see the module docstring). On the 4×4 Ruzzle board with bonus
#: squares, 10 s chains of about 45,000 moves reached ~30,000 points in cycles of 8,000 moves
#: against ~25,000 in one cooling (cycles of 4,000 and 16,000 did about as well as 8,000).
CYCLE_MOVES = 8000

#: Start temperature of the first cycle, and of the later ones (from the best board), as a share
#: of the cycle's start value. In 10 s chains (3 seeds, medians) later cycles restarted at 0.1
#: reached 31,067 points, at 0.05 30,265, at 0.02 27,214 and at 0.01 25,830: a restart must be hot
#: enough to leave the best board's neighbourhood.
START_HEAT = 0.05
REHEAT = 0.1

#: A move: ``(i, j, None)`` swaps cells i and j; ``(i, -1, tile)`` puts ``tile`` on cell i.
Move = tuple[int, int, str | None]
Tiles = tuple[str, ...]


def board_value(board: Board, found: dict[str, tuple[int, ...]], scoring: str) -> int:
    """What the annealer maximises: total points, or the number of words when scoring is ``none``."""
    if scoring == "none":
        return len(found)
    return sum(path_score(board, path, scoring) for path in found.values())


def bonus_cells_of(board: Board) -> dict[tuple[int, int], str]:
    """The bonus squares of a board by 1-based ``(row, col)``, as a spec names them.

    >>> bonus_cells_of(Board.from_tiles([["a", "b"], ["c", "d"]], {(2, 1): "TW"}))
    {(2, 1): 'TW'}
    """
    names = {mult: name for name, mult in BONUS_MULTIPLIERS.items()}
    return {(i // board.cols + 1, i % board.cols + 1): names[(lm, wm)]
            for i, (lm, wm) in enumerate(zip(board.letter_mult, board.word_mult, strict=True)) if (lm, wm) != (1, 1)}


def best_board(spec: Any, start: Board, lexicon: Any, budget: Budget, *,
               scorer: Literal["array", "reference"] = "array",
               cycle_moves: int | None = CYCLE_MOVES) -> tuple[Board, dict[str, Any]]:
    """Anneal from ``start`` for ``spec.moves()`` moves (or until the budget is spent), in
    cycles of ``cycle_moves`` moves each starting hot from the best board so far (None: one cycle).

    Parameters
    ----------
    spec: the ruzzle spec (``seed``, ``moves()``, ``scoring``, ``min_letters()``, ``target``: stop at
        a board worth at least this much).
    start: the board to start from; its shape and bonus squares are kept.
    lexicon: the dictionary.
    budget: the run's budget (the search stops when it is spent; progress is reported to it).
    scorer: ``array`` scores batches of boards with the array search
        (:class:`~cpwords.puzzles.ruzzle.scoring.BoardScorer`); ``reference`` scores one board at
        a time with the trie walk (``trie_words`` and :func:`board_value`). Both give the same
        chain: the same board for the same seed.

    Returns
    -------
    (the best board seen, figures: start and best value, moves made and accepted, boards
    scored (and of those, drawn after a move that was taken, so never used), seconds spent scoring
    them and boards scored per second of that).
    """
    values, batches = _scorer(scorer, spec, start, lexicon)
    draw = _move_drawer(random.Random(spec.seed), start.size, tile_frequencies(lexicon))
    iterations = spec.moves()
    target = getattr(spec, "target", None)
    chain = _Chain(values, start.tiles)
    _anneal(chain, draw, batches, iterations, iterations if cycle_moves is None else max(1, cycle_moves), target,
            budget)
    stats = {"start_value": chain.start_value, "best_value": chain.best_value, "moves": chain.step,
             "accepted": chain.accepted, "boards_scored": chain.scored, "boards_unused": chain.unused,
             "scoring_s": round(chain.scoring_s, 6),
             "boards_per_s": round(chain.scored / chain.scoring_s) if chain.scoring_s > 0 else None,
             "scorer": scorer, "cycles": chain.cycles, "reached_s": round(chain.reached, 3),
             "stopped_by_time": chain.step < iterations and not (target is not None and chain.best_value >= target)}
    return start.with_tiles(chain.best), stats


#: The temperature every cycle cools down to (in points, whatever the board is worth).
END_TEMPERATURE = 0.05


def _anneal(chain: _Chain, draw: Callable[[], tuple[Move, float]], batches: bool, iterations: int, cycle: int,
            target: int | None, budget: Budget) -> None:
    """Run ``chain`` for ``iterations`` moves drawn by ``draw``, in cycles of ``cycle`` moves, until
    the budget is spent or a board worth ``target`` is found; ``batches``: score many moves at once."""
    pending: deque[tuple[Move, float]] = deque()  # moves drawn, not yet made
    t_start = 1.0
    cycle_start = cycle_end = unreported = 0
    with budget.progress("searching for a high-scoring board", total=iterations) as advance:
        while chain.step < iterations and not budget.expired():
            if target is not None and chain.best_value >= target:
                break
            if chain.step == cycle_end:  # a new cycle: from the best board, hot again
                chain.current, chain.current_value = chain.best, chain.best_value
                cycle_start, cycle_end = chain.step, min(iterations, chain.step + cycle)
                chain.cycles += 1
                t_start = max(1.0, (START_HEAT if chain.cycles == 1 else REHEAT) * chain.current_value)
                chain.taken = 1.0
            k = min(cycle_end - chain.step, _batch_size(chain.taken) if batches else 1)
            while len(pending) < k:
                pending.append(draw())
            candidates = [_apply(move, chain.current) for move, _ in list(pending)[:k]]
            chain.walk(candidates, pending, t_start, cycle_start, cycle_end - cycle_start)
            unreported += len(candidates)
            if unreported >= 50:
                advance(unreported)
                unreported = 0


class _Chain:
    """The annealing chain: the board it is on, the best board it has seen, and its counts (moves
    made and accepted, boards scored and of those never used, seconds spent scoring)."""

    def __init__(self, values: Callable[[Sequence[Tiles]], list[int]], start: Tiles) -> None:
        self.values = values
        self.t0 = time.perf_counter()
        self.current = self.best = start
        self.current_value = self.best_value = self.start_value = values([start])[0]
        self.scoring_s = time.perf_counter() - self.t0
        self.reached = 0.0  # seconds from the start to the best board
        self.step = self.accepted = self.scored = self.unused = self.cycles = 0
        self.taken = 1.0  # running share of the moves that changed the board, for the batch size

    def walk(self, candidates: list[Tiles], pending: deque[tuple[Move, float]], t_start: float, cycle_start: int,
             length: int) -> None:
        """Score the ``candidates`` (the boards the first moves of ``pending`` lead to from the
        current board) and make their moves in order, each taken or not by its coin, up to the
        first one taken: the later candidates were made from the old board."""
        changed = [c for c in candidates if c != self.current]
        t1 = time.perf_counter()
        new_values = iter(self.values(changed) if changed else [])
        self.scoring_s += time.perf_counter() - t1
        self.scored += len(changed)
        self.unused += len(changed)
        for candidate in candidates:
            _, coin = pending.popleft()
            temperature = t_start * (END_TEMPERATURE / t_start) ** ((self.step - cycle_start) / max(1, length - 1))
            self.step += 1
            if candidate == self.current:  # a gain of 0: taken, and the board is the same
                self.accepted += 1
                continue
            value = next(new_values)
            self.unused -= 1
            gain = value - self.current_value
            took = gain >= 0 or coin < math.exp(gain / temperature)
            self.taken = 0.98 * self.taken + 0.02 * took
            if took:
                self.accepted += 1
                self.current, self.current_value = candidate, value
                if value > self.best_value:
                    self.best, self.best_value, self.reached = candidate, value, time.perf_counter() - self.t0
                break


def _move_drawer(rng: random.Random, size: int, frequencies: dict[str, float]) -> Callable[[], tuple[Move, float]]:
    """The chain's randomness, step by step: each call draws a move (a swap of two cells three
    times in ten, else a tile drawn by ``frequencies`` on a cell), then its coin (always both, in
    this order)."""
    letters = list(frequencies)
    cumulative = list(accumulate(frequencies.values()))

    def draw() -> tuple[Move, float]:
        if size > 1 and rng.random() < 0.3:
            i, j = rng.sample(range(size), 2)
            move: Move = (i, j, None)
        else:
            move = (rng.randrange(size), -1, rng.choices(letters, cum_weights=cumulative)[0])
        return move, rng.random()

    return draw


def _scorer(kind: str, spec: Any, start: Board, lexicon: Any) -> tuple[Callable[[Sequence[Tiles]], list[int]], bool]:
    """The function that scores boards given by their tiles, and whether it gains from batches."""
    min_letters, scoring = spec.min_letters(), spec.scoring
    if kind == "reference":
        from cpwords.puzzles.ruzzle.trie import trie_of, trie_words

        trie, _ = trie_of(lexicon)

        def one_by_one(boards: Sequence[Tiles]) -> list[int]:
            out = []
            for tiles in boards:
                board = start.with_tiles(tiles)
                out.append(board_value(board, trie_words(board, trie, min_letters=min_letters, scoring=scoring),
                                       scoring))
            return out

        return one_by_one, False
    from cpwords.puzzles.ruzzle.scoring import scorer_for

    scorer = scorer_for(lexicon, scoring=scoring, min_letters=min_letters, rows=start.rows, cols=start.cols,
                        bonus_cells=bonus_cells_of(start))
    return scorer.score_many, True


def _batch_size(taken: float) -> int:
    """Boards to score together when about ``taken`` of the moves are taken: about two moves'
    worth past the expected first one taken, so few batches end before their first move is."""
    return max(1, min(MAX_BATCH, round(2 / max(taken, 1 / MAX_BATCH))))


def _apply(move: Move, tiles: Tiles) -> Tiles:
    """The tiles after ``move``."""
    i, j, tile = move
    out = list(tiles)
    if tile is None:
        out[i], out[j] = out[j], out[i]
    else:
        out[i] = tile
    return tuple(out)
