"""The array search behind :class:`~cpwords.puzzles.ruzzle.scoring.BoardScorer`, as plain arrays in
and out: every trie path of a batch of boards, breadth first (:func:`trie_paths`), then each board's
value and number of words from the accepting states its paths reach (:func:`board_tallies`).

The method, and why it pays, is told in :mod:`cpwords.puzzles.ruzzle.scoring`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cpwords.puzzles.ruzzle.tables import TrieTables
from cpwords.puzzles.ruzzle.trie import LETTER_SLOTS

#: Every letter bit but the padding cell's (its letter is the last slot, which no trie node has).
_ALL_LETTERS = (1 << (LETTER_SLOTS - 1)) - 1

#: Per level of the search, the paths' trie states, their boards' row offsets (None for a single
#: board) and, with bonus squares, their scores (None without).
Levels = tuple[list[np.ndarray], list[np.ndarray] | None, list[np.ndarray] | None]


def trie_paths(tables: TrieTables, neighbours: np.ndarray, clear: np.ndarray, word_mult: np.ndarray,
               cells: np.ndarray, letters: np.ndarray, extra: np.ndarray | None, gain: np.ndarray | None) -> Levels:
    """Every trie path of a batch of boards, one level (number of tiles) a step.

    ``neighbours``, ``clear``, ``word_mult`` and ``cells`` are the board shape's tables (as
    :class:`BoardScorer` keeps them). ``letters``: (boards, cells + 1) first letter of each tile,
    the last column the padding cell's. ``extra``: None, or per flat position (board * (cells + 1)
    + cell) the tile's letter codes, -1 padded. ``gain``: None, or (boards, cells + 1) Ruzzle
    points of each tile with its letter bonus (then paths carry their letters and multiplier).
    """
    base, kids = tables.base, tables.kids
    boards, width = letters.shape
    flat = letters.ravel()
    gain_flat: Any = gain.ravel() if gain is not None else None
    batched = boards > 1
    # The frontier: each live path's last cell, trie state and unused cells; in a batch also its
    # board's row offset (board * width); with bonuses its letter points and word multiplier.
    cell, state, free, row, total, factor = _one_tile_paths(tables, clear, word_mult, cells, flat, width, boards,
                                                            gain_flat, extra)
    seen_states, seen_rows, seen_scores = [state], [row], []
    if gain_flat is not None:
        seen_scores.append(total * factor)
    near: Any = None
    if batched:  # per board and cell, the letters of its neighbours as a bit mask
        near = np.bitwise_or.reduce(np.left_shift(1, letters[:, neighbours]) & _ALL_LETTERS, axis=2).ravel()
    while state.size:
        k = kids[state]
        if batched:  # drop first the paths that no neighbour's letter continues (a third or so)
            go = (k & near[row + cell]).nonzero()[0]
            k, state, cell, row, free = k[go], state[go], cell[go], row[go], free[go]
            if gain_flat is not None:
                total, factor = total[go], factor[go]
        nb = neighbours[cell]  # (paths, 8)
        lt = flat[row[:, None] + nb] if batched else flat[nb]
        # Bit 0 set: the trie goes on by the neighbour's (first) letter and the neighbour is unused.
        ok = (k[:, None] >> lt) & (free[:, None] >> nb) & 1
        idx = ok.ravel().nonzero()[0]
        if not idx.size:
            break
        parent = idx >> 3
        cell = nb.ravel()[idx]
        state = base[state[parent]] + lt.ravel()[idx]
        free = free[parent] & clear[cell]
        if batched:
            row = row[parent]
        if gain_flat is not None or extra is not None:
            pos = row + cell if batched else cell
            if gain_flat is not None:
                total = total[parent] + gain_flat[pos]
                factor = factor[parent] * word_mult[cell]
            if extra is not None:
                later = _follow_tiles(tables, extra, pos, state)
                if later is not None:
                    cell, state, free, row, total, factor = _take(later, cell, state, free, row, total, factor)
        seen_states.append(state)
        seen_rows.append(row)
        if gain_flat is not None:
            seen_scores.append(total * factor)
    return seen_states, seen_rows if batched else None, seen_scores or None


def board_tallies(boards: int, width: int, levels: Levels, score_bits: int, accept: np.ndarray,
                  value: np.ndarray) -> list[tuple[int, int]]:
    """Per board: the sum over its distinct accepting states (best path score each, with
    bonuses) and their number.

    ``levels`` as :func:`trie_paths` returns them; ``width`` the boards' cells + 1; ``score_bits``
    the bits of the largest score a path of the batch can reach; ``accept`` and ``value`` per trie
    state, whether it is a word that counts and its points (less the letters, with bonus squares).
    """
    states, rows, scores = levels
    n_states = len(accept)
    state = np.concatenate(states)
    ok = accept[state]
    key = state[ok]
    if rows is not None:  # one key per (board, word)
        key += np.concatenate(rows)[ok] // width * n_states
    if scores is None:
        key.sort()
        key = key[_run_ends(key)]
        points = value[key % n_states if rows is not None else key]
    else:
        score = np.concatenate(scores)[ok]
        bits = score_bits
        if int(key.max(initial=0)).bit_length() + bits < 63:
            # Both in one int64, the key above the score: one plain sort puts each word's
            # paths together, best last (a lexsort of the two costs twice as much).
            packed = np.sort((key << bits) | score)
            key, score = packed >> bits, packed & ((1 << bits) - 1)
        else:
            order = np.lexsort((score, key))  # by word, best path last
            key, score = key[order], score[order]
        last = _run_ends(key)
        key = key[last]
        points = score[last] + value[key % n_states]
    if rows is None:
        return [(int(points.sum()), len(points))]
    # Keys are sorted, so each board's words are one run: sums by cumulative sum.
    cumulative = np.concatenate(([0], np.cumsum(points)))
    bounds = np.searchsorted(key // n_states, np.arange(boards + 1))
    sums = (cumulative[bounds[1:]] - cumulative[bounds[:-1]]).tolist()
    return list(zip(sums, np.diff(bounds).tolist(), strict=True))


def _one_tile_paths(tables: TrieTables, clear: np.ndarray, word_mult: np.ndarray, cells: np.ndarray,
                    flat: np.ndarray, width: int, boards: int, gain_flat: Any,
                    extra: np.ndarray | None) -> tuple[Any, ...]:
    """The first frontier: one path on each tile the dictionary starts a word with, as
    ``(cell, state, free, row, total, factor)`` (see :func:`trie_paths`)."""
    base, check = tables.base, tables.check
    batched = boards > 1
    cell = np.tile(cells, boards) if batched else cells
    row: Any = np.repeat(np.arange(boards, dtype=np.int64) * width, width - 1) if batched else None
    pos = row + cell if batched else cell
    state = base[0] + flat[pos]
    free = clear[cell]  # bits of the cells the path has not used
    total: Any = gain_flat[pos] if gain_flat is not None else None
    factor: Any = word_mult[cell] if gain_flat is not None else None
    keep = np.flatnonzero(check[state] == 0)  # first letters the dictionary has
    if keep.size < state.size:
        cell, state, pos, free, row, total, factor = _take(keep, cell, state, pos, free, row, total, factor)
    if extra is not None:
        later = _follow_tiles(tables, extra, pos, state)
        if later is not None:
            cell, state, free, row, total, factor = _take(later, cell, state, free, row, total, factor)
    return cell, state, free, row, total, factor


def _follow_tiles(tables: TrieTables, extra: np.ndarray, pos: np.ndarray, state: np.ndarray) -> np.ndarray | None:
    """Take ``state`` (in place) through the later letters of multi-letter tiles.

    ``state`` has followed each tile's first letter. Returns the indices of the paths still in
    the trie, or None when none fell off.
    """
    base, check = tables.base, tables.check
    codes = extra[pos]  # (paths, longest tile)
    going = np.flatnonzero(codes[:, 1] >= 0)
    if not going.size:
        return None
    alive = np.ones(len(state), dtype=bool)
    for j in range(1, codes.shape[1]):
        going = going[codes[going, j] >= 0]
        s = state[going]
        nxt = base[s] + codes[going, j]
        hit = check[nxt] == s
        alive[going[~hit]] = False
        going = going[hit]
        state[going] = nxt[hit]
    return None if alive.all() else np.flatnonzero(alive)


def _run_ends(sorted_keys: np.ndarray) -> np.ndarray:
    """Boolean mask of the last element of each run of equal values."""
    last = np.ones(len(sorted_keys), dtype=bool)
    np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=last[:-1])
    return last


def _take(keep: np.ndarray, *arrays: Any) -> tuple[Any, ...]:
    """Each array (None stays None) restricted to the indices ``keep``."""
    return tuple(a[keep] if a is not None else None for a in arrays)
