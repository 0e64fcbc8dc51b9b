"""Search for a high-scoring board by hill climbing a pool of boards (seeded, so repeatable).

A *climb* starts from a pool of random boards and keeps the best ``pool`` boards it has seen.
Each board that enters the pool is *expanded*: every board one cell away (each cell set to each
other tile of the alphabet) is scored, all in one search
(:class:`~cpwords.puzzles.ruzzle.neighbourhood.Neighbourhood`, compiled in
:mod:`~cpwords.puzzles.ruzzle.compiled` when numba is there), and the best of them join the pool
when they beat its worst board. The best unexpanded pool boards go first, :data:`EXPAND_BATCH` at a
time. (danvk's rounds, in which the whole pool is expanded before it is updated, were tried too:
as reliable, but on 4×4 slower than 60 s a climb here, where the best-first climb took 25-35 s.) When every pool board is expanded, the pool's boards are
expanded by *swaps* (every two cells of different tiles exchanged, scored by the batched array
search); the climb ends when that brings nothing new either. The chain then climbs again from a
fresh random pool, until its budget, its number of climbs or its ``target`` value is reached, and
keeps the best board of all its climbs.

This is the hill climbing with which danvk's hybrid-boggle found the proven-best Boggle boards
(a pool of the best boards, improved by every one-cell change and every swap), with two
changes: a board's neighbours are scored together from one search, and a pool board is expanded
once (its neighbours do not change), so a climb costs what its new boards cost. Boards are kept
up to the board's symmetries (rotations and mirrors that keep the bonus squares in place), so a
pool never holds one board twice under another orientation.

The tiles are the letters the dictionary uses, ``q`` as the Boggle die's ``qu`` (the Boggle
rule: a ``q`` is always followed by ``u``) when the dictionary has ``qu`` words.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any

import numpy as np

from cpwords.engines.budget import Budget, building_freely
from cpwords.puzzles.ruzzle.annealing import bonus_cells_of, tile_frequencies
from cpwords.puzzles.ruzzle.board import Board
from cpwords.puzzles.ruzzle.compiled import CompiledNeighbourhood, available, compiled_ready, worth_compiling
from cpwords.puzzles.ruzzle.neighbourhood import Neighbourhood

#: Pool size when the spec gives none, for boards of up to :data:`LARGE_CELLS` cells. danvk's
#: rounds used 250 on 4×4 and 500 on 5×5; here 100 is the size measured on 3×3 to 4×4
#: (docs/benchmarks.md, "Best boards").
POOL = 100
#: Boards with more cells than this get :data:`LARGE_POOL`. On 5×5 a pool of 100 settles on
#: runners-up: a 400 s chain reached 9,186 (seed 2) where a pool of 300 reached the best known
#: 10,406, and seed 1 reached 9,929 in 500 s with 300 against 9,265 in 180 s with 100.
LARGE_CELLS, LARGE_POOL = 16, 300


def pool_for(cells: int, asked: int | None) -> int:
    """The pool size of a climb on a board of ``cells`` cells (``asked``: the spec's ``pool``).

    >>> pool_for(16, None), pool_for(25, None), pool_for(25, 50)
    (100, 300, 50)
    """
    return asked or (LARGE_POOL if cells > LARGE_CELLS else POOL)

#: Pool boards expanded at a time, the best unexpanded first, before the pool is updated. One is
#: the greediest: on 3×4 (seed 1) it stuck at 1,552 where 8 reached 1,651. The climb does not
#: depend on which search (numpy or compiled) scores the boards.
EXPAND_BATCH = 8

#: Swapped boards scored per batch between two looks at the budget.
SWAP_BATCH = 512

Tiles = tuple[str, ...]


def alphabet_of(words: Any) -> list[str]:
    """The tiles a board of this dictionary uses: every letter of its words, ``q`` as ``qu`` when
    some word has ``qu`` (the Boggle die), alphabetical.

    >>> alphabet_of(["quit", "tea"])
    ['a', 'e', 'i', 'qu', 't', 'u']
    """
    letters: set[str] = set()
    has_qu = False
    for word in words:
        letters.update(word)
        has_qu = has_qu or "qu" in word
    return sorted("qu" if c == "q" and has_qu else c for c in letters)


def symmetries(board: Board, scoring: str) -> list[tuple[int, ...]]:
    """Cell permutations of the board's rotations and mirrors that keep its bonus squares (which
    only Ruzzle scoring reads) in place; the identity first.

    >>> len(symmetries(Board.from_tiles([["a"] * 3] * 3), "boggle")), len(symmetries(
    ...     Board.from_tiles([["a"] * 4] * 3), "boggle"))
    (8, 4)
    """
    rows, cols = board.rows, board.cols
    maps = [lambda r, c: (r, c), lambda r, c: (rows - 1 - r, c), lambda r, c: (r, cols - 1 - c),
            lambda r, c: (rows - 1 - r, cols - 1 - c)]
    if rows == cols:
        maps += [lambda r, c: (c, r), lambda r, c: (cols - 1 - c, rows - 1 - r),
                 lambda r, c: (c, rows - 1 - r), lambda r, c: (cols - 1 - c, r)]
    out: list[tuple[int, ...]] = []
    bonus = (board.letter_mult, board.word_mult)
    for f in maps:
        # perm[i]: the cell whose tile lands on cell i.
        perm = tuple(f(i // cols, i % cols)[0] * cols + f(i // cols, i % cols)[1] for i in range(board.size))
        moved = tuple(tuple(m[p] for p in perm) for m in bonus)
        if (scoring != "ruzzle" or moved == bonus) and perm not in out:
            out.append(perm)
    return out


class _Climber:
    """One chain's state: scorer, neighbourhood, symmetries and random stream."""

    def __init__(self, spec: Any, start: Board, lexicon: Any, budget: Budget) -> None:
        from cpwords.puzzles.ruzzle.scoring import scorer_for

        self.start, self.budget = start, budget
        self.scorer = scorer_for(lexicon, scoring=spec.scoring, min_letters=spec.min_letters(), rows=start.rows,
                                 cols=start.cols, bonus_cells=bonus_cells_of(start))
        self.alphabet = alphabet_of(lexicon)
        # The numpy search until the compiled one is ready (see compiled.py): the same scores.
        self.numpy_hood = Neighbourhood(self.scorer, self.alphabet)
        self.compiled_hood: CompiledNeighbourhood | None = None
        # A run too short for a compile to pay off searches with numpy at full speed; the background
        # builder (which builds freely) waits for the compile, so that the next run loads it.
        self.compile = building_freely() or worth_compiling(budget.left())
        if building_freely():
            compiled_ready(wait=True)
        self.cap = spec.iterations
        self.tick: Callable[[], None] | None = None  # progress by time (see :func:`search_board`)
        self.perms = symmetries(start, spec.scoring)
        self.rng = random.Random(spec.seed)
        frequency = tile_frequencies(lexicon)  # the language's letters (English: LETTER_FREQUENCIES)
        weights = [frequency.get(t, 0.05) for t in self.alphabet]
        self.cumulative = list(accumulate(weights))
        self.pool_size = pool_for(start.size, spec.pool)
        self.scored = 0

    def canonical(self, tiles: Sequence[str]) -> Tiles:
        return min(tuple(tiles[p] for p in perm) for perm in self.perms)

    def random_board(self) -> Tiles:
        return self.canonical(self.rng.choices(self.alphabet, cum_weights=self.cumulative, k=self.start.size))

    def hood(self) -> Neighbourhood | CompiledNeighbourhood:
        """The compiled neighbourhood search once it is ready, the numpy one before."""
        if self.compiled_hood is None and compiled_ready(start=self.compile):
            self.compiled_hood = CompiledNeighbourhood(self.scorer, self.alphabet)
        return self.compiled_hood or self.numpy_hood

    def score_many(self, boards: list[Tiles]) -> list[int]:
        """Whole boards' values: the compiled walk once it is ready (several times faster than
        the array scorer on good boards), the array scorer before; the same values."""
        hood = self.hood()
        return hood.score_many(boards) if isinstance(hood, CompiledNeighbourhood) else self.scorer.score_many(boards)

    def _change(self, board: Tiles) -> np.ndarray:
        """One board's one-cell change values (1, cells, letters of the alphabet); an expired budget
        gives all -1."""
        if self.budget.expired():
            return np.full((1, self.start.size, self.numpy_hood.width), -1, dtype=np.int64)
        return self.hood().scores([board])[1]

    def spent(self) -> bool:
        """The budget is spent, or the boards the spec allows are scored (and, climbing until the
        time limit, the progress reporter hears how much of the time has passed)."""
        if self.tick is not None:
            self.tick()
        return self.budget.expired() or (self.cap is not None and self.scored >= self.cap)

    def climb(self, target: int | None) -> tuple[Tiles, int, int]:
        """One climb from a fresh random pool: its best board, value and number of rounds."""
        seen: dict[Tiles, int] = {}
        fresh = list(dict.fromkeys(self.random_board() for _ in range(self.pool_size)))
        for tiles, value in zip(fresh, self.score_many(fresh), strict=True):
            seen[tiles] = value
        self.scored += len(fresh)
        pool = self._top(seen)
        expanded: set[Tiles] = set()
        swapped: set[Tiles] = set()
        rounds = 0
        while not self.spent():
            best = pool[0]
            if target is not None and seen[best] >= target:
                break
            rounds += 1
            todo = [b for b in pool if b not in expanded][:EXPAND_BATCH]
            if todo:
                expanded.update(todo)
                self._expand(todo, seen, seen[pool[-1]])
            else:
                todo = [b for b in pool if b not in swapped]
                if not todo:
                    break
                swapped.update(todo)
                self._swaps(todo, seen)
            pool = self._top(seen)
        best = pool[0]
        return best, seen[best], rounds

    def _top(self, seen: dict[Tiles, int]) -> list[Tiles]:
        # Ties by the tiles, so the pool is a function of the seed alone.
        return heapq.nsmallest(self.pool_size, seen, key=lambda b: (-seen[b], b))

    def _expand(self, boards: list[Tiles], seen: dict[Tiles, int], floor: int) -> None:
        """Score every one-cell change of ``boards``; keep in ``seen`` those that could enter the pool."""
        change = np.concatenate([self._change(board) for board in boards])
        self.scored += int((change >= 0).sum())
        flat = change.ravel()
        better = np.flatnonzero(flat > floor)
        if better.size > self.pool_size:  # only the best few can enter the pool
            better = better[np.argpartition(-flat[better], self.pool_size)[:self.pool_size]]
        n, width = self.start.size, self.numpy_hood.width
        for k in better.tolist():
            b, rest = divmod(k, n * width)
            cell, letter = divmod(rest, width)
            tiles = list(boards[b])
            tiles[cell] = self.numpy_hood.tile_of[letter]
            key = self.canonical(tiles)
            if key not in seen:
                seen[key] = int(flat[k])

    def _swaps(self, boards: list[Tiles], seen: dict[Tiles, int]) -> None:
        """Score every swap of two different tiles of ``boards`` not seen yet."""
        new: dict[Tiles, None] = {}
        n = self.start.size
        for board in boards:
            for i in range(n - 1):
                for j in range(i + 1, n):
                    if board[i] != board[j]:
                        tiles = list(board)
                        tiles[i], tiles[j] = tiles[j], tiles[i]
                        key = self.canonical(tiles)
                        if key not in seen:
                            new[key] = None
        keys = list(new)
        for start in range(0, len(keys), SWAP_BATCH):
            if self.spent():
                break
            chunk = keys[start:start + SWAP_BATCH]
            for key, value in zip(chunk, self.score_many(chunk), strict=True):
                seen[key] = value
            self.scored += len(chunk)


def climb_board(spec: Any, start: Board, lexicon: Any, budget: Budget) -> tuple[Board, dict[str, Any]]:
    """Hill-climb pools of boards of ``start``'s shape and bonus squares (see the module).

    Parameters
    ----------
    spec: the ruzzle spec: ``seed``, ``scoring``, ``min_letters()``, ``pool`` (boards kept; None:
        :func:`pool_for` the board's size), ``climbs`` (None: as many as the budget allows, one without a time limit) and
        ``target`` (stop at a board of at least this value; None: no target).
    start: its shape and bonus squares are kept; its value is the one to beat.
    lexicon: the dictionary.
    budget: the run's budget (a climb stops when it is spent).

    Returns
    -------
    (the best board seen, figures: ``start_value``, ``best_value``, ``climbs``, ``climb_values``
    (each climb's best), ``rounds``, ``boards_scored``, ``reached_s`` (seconds to the best value),
    ``until_time_limit`` (it climbed again and again until the time limit), and, as the
    annealer's, ``moves`` (boards scored), ``accepted`` (climbs) and ``stopped_by_time``.)
    """
    t0 = time.perf_counter()
    climber = _Climber(spec, start, lexicon, budget)
    best, best_value = start.tiles, climber.scorer.score(start)
    start_value, reached = best_value, 0.0
    limit = spec.climbs if spec.climbs is not None else (None if budget.left() is not None else 1)
    values: list[int] = []
    rounds = 0
    by_time = limit is None and budget.deadline is not None
    with budget.progress("hill climbing towards a high-scoring board",
                         total=PROGRESS_STEPS if by_time else limit) as advance:
        if by_time:  # no number of climbs: the share of the time limit used is the progress
            climber.tick = _time_ticker(budget, advance)
        while (limit is None or len(values) < limit) and not climber.spent():
            if spec.target is not None and best_value >= spec.target:
                break
            tiles, value, n = climber.climb(spec.target)
            values.append(value)
            rounds += n
            if value > best_value:
                best, best_value, reached = tiles, value, time.perf_counter() - t0
            if not by_time:
                advance(1)
    # Cut short: a climb the spec asked for (``climbs``, or the one climb without a time limit)
    # was stopped by the time limit or a stop request; climbing until the time limit is not.
    cut = budget.expired() and (spec.climbs is not None or budget.left() is None)
    stopped = cut and not (spec.target is not None and best_value >= spec.target)
    stats = {"start_value": start_value, "best_value": best_value, "climbs": len(values), "climb_values": values,
             "rounds": rounds, "boards_scored": climber.scored, "reached_s": round(reached, 3),
             "moves": climber.scored, "accepted": len(values), "search": "climb", "pool": climber.pool_size,
             "compiled": climber.compiled_hood is not None, "until_time_limit": by_time,
             "stopped_by_time": bool(stopped)}
    if available() and not climber.compile:
        stats["build_deferred"] = "the compiled board search"  # the command line builds it in the background
    return start.with_tiles(best), stats


#: Steps of the progress bar of a climb that runs until the time limit.
PROGRESS_STEPS = 100


def _time_ticker(budget: Budget, advance: Any) -> Any:
    """A callback that advances the progress bar to the share of the time limit used so far."""
    assert budget.deadline is not None
    start, end = budget.start, budget.deadline
    shown = [0]

    def tick() -> None:
        now = min(PROGRESS_STEPS, int(PROGRESS_STEPS * (time.monotonic() - start) / max(1e-9, end - start)))
        if now > shown[0]:
            advance(now - shown[0])
            shown[0] = now

    return tick


def search_board(spec: Any, start: Board, lexicon: Any, budget: Budget) -> tuple[Board, dict[str, Any]]:
    """One chain of the spec's ``search``: ``climb`` (:func:`climb_board`) or ``anneal``
    (:func:`~cpwords.puzzles.ruzzle.annealing.best_board`); both take ``spec.seed`` and stop with the budget."""
    if getattr(spec, "search", "climb") == "anneal":
        from cpwords.puzzles.ruzzle.annealing import best_board

        return best_board(spec, start, lexicon, budget)
    return climb_board(spec, start, lexicon, budget)
