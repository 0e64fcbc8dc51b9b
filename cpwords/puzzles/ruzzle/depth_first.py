"""The depth-first board walks that :mod:`cpwords.puzzles.ruzzle.compiled` compiles with numba.

Plain functions over int64 arrays (a trie's ``base``/``check``/``kids``, a board's tiles as letter
codes, its neighbour table, its bonus squares), compiled when numba is installed; the module
docstring of :mod:`~cpwords.puzzles.ruzzle.compiled` says what they compute and when.

- :func:`_many` / :func:`_search`: every path of a board and of its one-cell changes (a *wildcard*
  cell read as another tile of the alphabet), recorded, then summed by :func:`_totals`;
- :func:`_lean_many` / :func:`_lean`: a board's value alone, with no paths recorded.

Each walk is split where a call costs nothing: per start of a path (:func:`_walk_from`,
:func:`_lean_from`), never inside its steps. (Helpers inlined into the steps with numba's
``inline="always"`` made the search three times slower.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

njit: Any
try:  # pragma: no cover - which branch runs depends on the installation
    from numba import njit
except ImportError:  # pragma: no cover
    njit = None


def _follow(base: Any, check: Any, state: int, codes: Any, start: int, length: int) -> int:
    for j in range(start, length):
        nxt = base[state] + codes[j]
        if check[nxt] != state:
            return -1
        state = nxt
    return state


def _search(base: Any, check: Any, kids: Any, value: Any, tiles: Any, tile_len: Any, alpha: Any, alpha_len: Any,
            alpha_mask: int, neighbours: Any, nb_count: Any, gain: Any, letter_mult: Any, word_mult: Any,
            alpha_points: Any, bonus: bool, wild_on: bool, word_of: Any, change: Any) -> int:
    """Depth-first search of one board (see the module); fills ``change`` (cells, letters of the
    alphabet: its width, ``len(alpha)``) when
    ``wild_on`` and returns the board's value. ``word_of`` (one int per trie state, all -1) is
    scratch space, left all -1."""
    n = tiles.shape[0]
    width = alpha.shape[0]
    records = np.empty((4, 4096), np.int64)  # per word path: its trie state, wildcard tag, used cells, score
    count = 0
    f_cell, f_state, f_used, f_tag = (np.empty(n + 1, np.int64), np.empty(n + 1, np.int64),
                                      np.empty(n + 1, np.int64), np.empty(n + 1, np.int64))
    f_total, f_factor, f_j, f_bits = (np.empty(n + 1, np.int64), np.empty(n + 1, np.int64),
                                      np.empty(n + 1, np.int64), np.empty(n + 1, np.int64))
    for c0 in range(n):
        for opt in range(width + 1):
            s, tag, pts = _start(base, check, tiles, tile_len, alpha, alpha_len, alpha_mask, gain, letter_mult,
                                 alpha_points, wild_on, width, c0, opt)
            if s < 0:
                continue
            f_cell[0], f_state[0], f_used[0], f_tag[0] = c0, s, np.int64(1) << c0, tag
            f_total[0], f_factor[0], f_j[0], f_bits[0] = pts, word_mult[c0], 0, -1
            records, count = _walk_from(base, check, kids, value, tiles, tile_len, alpha, alpha_len, alpha_mask,
                                        neighbours, nb_count, gain, letter_mult, word_mult, alpha_points, bonus,
                                        wild_on, width, f_cell, f_state, f_used, f_tag, f_total, f_factor, f_j, f_bits,
                                        records, count)
    return _totals(n, width, value, records[0, :count], records[1, :count], records[2, :count], records[3, :count],
                   bonus, wild_on, word_of, change)


def _start(base: Any, check: Any, tiles: Any, tile_len: Any, alpha: Any, alpha_len: Any, alpha_mask: int, gain: Any,
           letter_mult: Any, alpha_points: Any, wild_on: bool, width: int, c0: int, opt: int) -> tuple[int, int, int]:
    """A path's first tile: cell ``c0`` as its own tile (``opt == width``) or read as letter ``opt``
    of the alphabet: ``(trie state, wildcard tag, points)``, the state -1 when there is no such start."""
    if opt == width:
        return _follow(base, check, 0, tiles[c0], 0, tile_len[c0]), -1, gain[c0]
    if not wild_on or not (alpha_mask >> opt) & 1 or opt == tiles[c0, 0]:
        return -1, -1, 0
    return _follow(base, check, 0, alpha[opt], 0, alpha_len[opt]), c0 * width + opt, alpha_points[opt] * letter_mult[c0]


def _walk_from(base: Any, check: Any, kids: Any, value: Any, tiles: Any, tile_len: Any, alpha: Any, alpha_len: Any,
               alpha_mask: int, neighbours: Any, nb_count: Any, gain: Any, letter_mult: Any, word_mult: Any,
               alpha_points: Any, bonus: bool, wild_on: bool, width: int, f_cell: Any, f_state: Any, f_used: Any,
               f_tag: Any, f_total: Any, f_factor: Any, f_j: Any, f_bits: Any, records: Any,
               count: int) -> tuple[Any, int]:
    """:func:`_search`'s walk from the start in the stack's first entry (``f_*[0]``): each word path
    recorded in ``records`` from ``count`` on (the array grown when full); returns it and the new count."""
    d = 0
    while d >= 0:
        if f_j[d] == 0 and f_bits[d] == -1 and value[f_state[d]] >= 0:  # a word: record it
            if count == records.shape[1]:
                records = _grow(records)
            records[0, count], records[1, count], records[2, count] = f_state[d], f_tag[d], f_used[d]
            records[3, count] = f_total[d] * f_factor[d] if bonus else 0
            count += 1
        cell, st = f_cell[d], f_state[d]
        child, nb, ctag, cpts = -1, 0, 0, 0
        while f_j[d] < nb_count[cell]:
            nb = neighbours[cell, f_j[d]]
            if (f_used[d] >> nb) & 1 or kids[st] == 0:
                f_j[d] += 1
                f_bits[d] = -1
                continue
            if f_bits[d] == -1:
                first = tiles[nb, 0]
                f_bits[d] = kids[st] & alpha_mask & ~(np.int64(1) << first) if wild_on and f_tag[d] < 0 else 0
                if (kids[st] >> first) & 1:
                    child = _follow(base, check, st, tiles[nb], 0, tile_len[nb])
                    if child >= 0:
                        ctag, cpts = f_tag[d], gain[nb]
                        break
            elif f_bits[d] != 0:
                b = f_bits[d]
                letter = 0
                while not (b >> letter) & 1:
                    letter += 1
                f_bits[d] = b & (b - 1)
                child = _follow(base, check, st, alpha[letter], 0, alpha_len[letter])
                if child >= 0:
                    ctag, cpts = nb * width + letter, alpha_points[letter] * letter_mult[nb]
                    break
            else:
                f_j[d] += 1
                f_bits[d] = -1
        if child < 0:
            d -= 1
            continue
        f_cell[d + 1], f_state[d + 1], f_used[d + 1], f_tag[d + 1] = nb, child, f_used[d] | (np.int64(1) << nb), ctag
        f_total[d + 1], f_factor[d + 1], f_j[d + 1], f_bits[d + 1] = f_total[d] + cpts, f_factor[d] * word_mult[nb], 0, -1
        d += 1
    return records, count


def _grow(records: Any) -> Any:
    """``records`` (rows, cap) with twice the columns, the first ``cap`` copied."""
    out = np.empty((records.shape[0], 2 * records.shape[1]), records.dtype)
    out[:, :records.shape[1]] = records
    return out


def _totals(n: int, width: int, value: Any, r_state: Any, r_tag: Any, r_used: Any, r_score: Any, bonus: bool, wild_on: bool,
            word_of: Any, change: Any) -> int:
    """The board's value and (``wild_on``) the one-cell changes' values, from the recorded words."""
    words, avoid, best_all, best_kept, found = _word_bests(n, r_state, r_tag, r_used, r_score, bonus, word_of)
    total = 0
    kept = np.zeros(n, np.int64)
    for k in range(found):
        v = value[words[k]]
        total += v + (best_all[k] if bonus else 0)
        for i in range(n):
            if (avoid[k] >> i) & 1:
                kept[i] += v + (best_kept[k, i] if bonus else 0)
    if wild_on:
        _wild_changes(n, width, value, r_state, r_tag, r_score, bonus, word_of, avoid, best_kept, kept, change)
    for k in range(found):
        word_of[words[k]] = -1
    return total


def _word_bests(n: int, r_state: Any, r_tag: Any, r_used: Any, r_score: Any, bonus: bool,
                word_of: Any) -> tuple[Any, Any, Any, Any, int]:
    """The distinct words of the board's own paths (numbered in ``word_of``, by trie state):
    ``(words, avoid, best_all, best_kept, found)``: each word's state, the cells some path of it
    avoids (a mask), its best path score, its best score over the paths avoiding each cell (with
    bonus squares), and how many words there are."""
    count = len(r_state)
    words = np.empty(count, np.int64)
    avoid = np.zeros(count, np.int64)
    best_all = np.full(count, -1, np.int64)
    best_kept = np.full((count, n), -1, np.int64)
    found = 0
    for r in range(count):
        if r_tag[r] >= 0:
            continue
        s = r_state[r]
        k = word_of[s]
        if k < 0:
            k = found
            word_of[s] = k
            words[k] = s
            found += 1
        avoid[k] |= ~r_used[r]
        if r_score[r] > best_all[k]:
            best_all[k] = r_score[r]
        if bonus:
            for i in range(n):
                if not (r_used[r] >> i) & 1 and r_score[r] > best_kept[k, i]:
                    best_kept[k, i] = r_score[r]
    return words, avoid, best_all, best_kept, found


def _wild_changes(n: int, width: int, value: Any, r_state: Any, r_tag: Any, r_score: Any, bonus: bool, word_of: Any,
                  avoid: Any, best_kept: Any, kept: Any, change: Any) -> None:
    """Fill ``change`` (cells, alphabet letters): each one-cell change's value, the words kept
    (``kept``, per cell) plus those its wildcard paths gain, each at its best path."""
    n_states = len(value)
    wild = np.flatnonzero(r_tag >= 0)
    keys = r_tag[wild] * n_states + r_state[wild]
    order = np.argsort(keys)
    for i in range(n):
        for c in range(width):
            change[i, c] = kept[i]
    m = len(order)
    a = 0
    while a < m:
        key = keys[order[a]]
        best = r_score[wild[order[a]]]
        b = a + 1
        while b < m and keys[order[b]] == key:
            if r_score[wild[order[b]]] > best:
                best = r_score[wild[order[b]]]
            b += 1
        tag, s = key // n_states, key % n_states
        i, c = tag // width, tag % width
        k = word_of[s]
        if k >= 0 and (avoid[k] >> i) & 1:
            if bonus and best > best_kept[k, i]:
                change[i, c] += best - best_kept[k, i]
        else:
            change[i, c] += value[s] + (best if bonus else 0)
        a = b


def _many(base: Any, check: Any, kids: Any, value: Any, tiles: Any, tile_len: Any, alpha: Any, alpha_len: Any,
          alpha_mask: int, neighbours: Any, nb_count: Any, gain: Any, letter_mult: Any, word_mult: Any,
          alpha_points: Any, bonus: bool, wild_on: bool, word_of: Any, change: Any, out: Any) -> None:
    """:func:`_search` of each board of ``tiles`` (boards, cells, longest tile) into ``out``/``change``."""
    for b in range(tiles.shape[0]):
        out[b] = _search(base, check, kids, value, tiles[b], tile_len[b], alpha, alpha_len, alpha_mask, neighbours,
                         nb_count, gain[b], letter_mult, word_mult, alpha_points, bonus, wild_on, word_of, change[b])


def _lean(base: Any, check: Any, kids: Any, value: Any, tiles: Any, tile_len: Any, neighbours: Any, nb_count: Any,
          gain: Any, word_mult: Any, bonus: bool, stamp: Any, best: Any, touched: Any, mark: int) -> int:
    """One board's value alone (no one-cell changes): the depth-first walk of :func:`_search`
    without recording paths. A word counts once: ``stamp[state] == mark`` once it was found on
    this board (``mark`` differs per board, so ``stamp`` needs no clearing); with bonus squares
    ``best`` keeps its best path's points and ``touched`` the words found."""
    n = tiles.shape[0]
    f_cell, f_state, f_used = np.empty(n + 1, np.int64), np.empty(n + 1, np.int64), np.empty(n + 1, np.int64)
    f_total, f_factor, f_j = np.empty(n + 1, np.int64), np.empty(n + 1, np.int64), np.empty(n + 1, np.int64)
    total = 0
    found = 0
    for c0 in range(n):
        s = _follow(base, check, 0, tiles[c0], 0, tile_len[c0])
        if s < 0:
            continue
        f_cell[0], f_state[0], f_used[0] = c0, s, np.int64(1) << c0
        f_total[0], f_factor[0], f_j[0] = gain[c0], word_mult[c0], -1
        total, found = _lean_from(base, check, kids, value, tiles, tile_len, neighbours, nb_count, gain, word_mult,
                                  bonus, stamp, best, touched, mark, f_cell, f_state, f_used, f_total, f_factor, f_j,
                                  total, found)
    for k in range(found):
        total += value[touched[k]] + best[touched[k]]
    return total


def _lean_from(base: Any, check: Any, kids: Any, value: Any, tiles: Any, tile_len: Any, neighbours: Any,
               nb_count: Any, gain: Any, word_mult: Any, bonus: bool, stamp: Any, best: Any, touched: Any, mark: int,
               f_cell: Any, f_state: Any, f_used: Any, f_total: Any, f_factor: Any, f_j: Any, total: int,
               found: int) -> tuple[int, int]:
    """:func:`_lean`'s walk from the start in the stack's first entry (``f_*[0]``): returns
    ``total`` and ``found`` with the words of these paths added (see :func:`_lean`)."""
    d = 0
    while d >= 0:
        st = f_state[d]
        if f_j[d] == -1:  # the path has just reached this state: a word?
            f_j[d] = 0
            if value[st] >= 0:
                if not bonus:
                    if stamp[st] != mark:
                        stamp[st] = mark
                        total += value[st]
                else:
                    points = f_total[d] * f_factor[d]
                    if stamp[st] != mark:
                        stamp[st] = mark
                        best[st] = points
                        touched[found] = st
                        found += 1
                    elif points > best[st]:
                        best[st] = points
        if kids[st] == 0:
            d -= 1
            continue
        cell = f_cell[d]
        child = -1
        nb = 0
        while f_j[d] < nb_count[cell]:
            nb = neighbours[cell, f_j[d]]
            f_j[d] += 1
            if (f_used[d] >> nb) & 1 or not (kids[st] >> tiles[nb, 0]) & 1:
                continue
            child = _follow(base, check, st, tiles[nb], 0, tile_len[nb])
            if child >= 0:
                break
        if child < 0:
            d -= 1
            continue
        f_cell[d + 1], f_state[d + 1], f_used[d + 1] = nb, child, f_used[d] | (np.int64(1) << nb)
        f_total[d + 1], f_factor[d + 1], f_j[d + 1] = f_total[d] + gain[nb], f_factor[d] * word_mult[nb], -1
        d += 1
    return total, found


def _lean_many(base: Any, check: Any, kids: Any, value: Any, tiles: Any, tile_len: Any, neighbours: Any,
               nb_count: Any, gain: Any, word_mult: Any, bonus: bool, stamp: Any, best: Any, touched: Any,
               first_mark: int, out: Any) -> None:
    """:func:`_lean` of each board of ``tiles`` (boards, cells, longest tile) into ``out``."""
    for b in range(tiles.shape[0]):
        out[b] = _lean(base, check, kids, value, tiles[b], tile_len[b], neighbours, nb_count, gain[b], word_mult,
                       bonus, stamp, best, touched, first_mark + b)


if njit is not None:  # pragma: no branch
    _follow = njit(cache=True, nogil=True)(_follow)
    _start = njit(cache=True, nogil=True)(_start)
    _walk_from = njit(cache=True, nogil=True)(_walk_from)
    _lean_from = njit(cache=True, nogil=True)(_lean_from)
    _grow = njit(cache=True, nogil=True)(_grow)
    _word_bests = njit(cache=True, nogil=True)(_word_bests)
    _wild_changes = njit(cache=True, nogil=True)(_wild_changes)
    _totals = njit(cache=True, nogil=True)(_totals)
    _search = njit(cache=True, nogil=True)(_search)
    _many = njit(cache=True, nogil=True)(_many)
    _lean = njit(cache=True, nogil=True)(_lean)
    _lean_many = njit(cache=True, nogil=True)(_lean_many)
