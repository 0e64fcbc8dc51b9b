"""The neighbourhood search compiled with numba (optional: ``pip install cpwords[fast]``).

The same search as :mod:`cpwords.puzzles.ruzzle.neighbourhood` (the board's trie paths, and those
that read one cell as another tile of the alphabet), walked depth first in compiled code instead
of breadth first in numpy arrays: a 4×4 board's ~400 one-cell changes cost a few milliseconds
instead of tens. :class:`CompiledNeighbourhood` has the numpy class's interface and answers, and
the tests compare both with :class:`~cpwords.puzzles.ruzzle.scoring.BoardScorer` on random boards.
Without numba the climber uses the numpy class.

Compiling takes seconds (tens on a busy machine) the first time; numba then keeps the machine code in
its cache (``__pycache__`` beside this file, or numba's user cache), and later processes load it in
well under a second. So that a short ``time_limit`` is kept even the first time, :func:`compiled_ready`
compiles (or loads) in a background thread and says when it is done; until then the climber uses the
numpy search, which gives the same scores (so the same climb). A compile holds the interpreter lock
most of the time, so a run too short to profit from it does not start one (:func:`worth_compiling`):
it searches with numpy at full speed, and the command line has the compile done by its detached
background builder (:mod:`cpwords.background`), for the next run.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from cpwords.puzzles.ruzzle.board import tile_value
from cpwords.puzzles.ruzzle.neighbourhood import Neighbourhood
from cpwords.puzzles.ruzzle.scoring import MAX_CELLS, BoardScorer

njit: Any
try:  # pragma: no cover - which branch runs depends on the installation
    from numba import njit
except ImportError:  # pragma: no cover
    njit = None


def available() -> bool:
    """True when numba is installed (the compiled search is used)."""
    return njit is not None


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
    cap = 4096
    r_state = np.empty(cap, np.int64)
    r_tag = np.empty(cap, np.int64)
    r_used = np.empty(cap, np.int64)
    r_score = np.empty(cap, np.int64)
    count = 0
    f_cell = np.empty(n + 1, np.int64)
    f_state = np.empty(n + 1, np.int64)
    f_used = np.empty(n + 1, np.int64)
    f_tag = np.empty(n + 1, np.int64)
    f_total = np.empty(n + 1, np.int64)
    f_factor = np.empty(n + 1, np.int64)
    f_j = np.empty(n + 1, np.int64)
    f_bits = np.empty(n + 1, np.int64)
    for c0 in range(n):
        for opt in range(width + 1):
            if opt == width:
                s = _follow(base, check, 0, tiles[c0], 0, tile_len[c0])
                tag = -1
                pts = gain[c0]
            else:
                if not wild_on or not (alpha_mask >> opt) & 1 or opt == tiles[c0, 0]:
                    continue
                s = _follow(base, check, 0, alpha[opt], 0, alpha_len[opt])
                tag = c0 * width + opt
                pts = alpha_points[opt] * letter_mult[c0]
            if s < 0:
                continue
            d = 0
            f_cell[0], f_state[0], f_used[0], f_tag[0] = c0, s, np.int64(1) << c0, tag
            f_total[0], f_factor[0], f_j[0], f_bits[0] = pts, word_mult[c0], 0, -1
            while d >= 0:
                if f_j[d] == 0 and f_bits[d] == -1 and value[f_state[d]] >= 0:  # a word: record it
                    if count == cap:
                        cap *= 2
                        r_state = _grow(r_state, cap)
                        r_tag = _grow(r_tag, cap)
                        r_used = _grow(r_used, cap)
                        r_score = _grow(r_score, cap)
                    r_state[count], r_tag[count], r_used[count] = f_state[d], f_tag[d], f_used[d]
                    r_score[count] = f_total[d] * f_factor[d] if bonus else 0
                    count += 1
                cell = f_cell[d]
                st = f_state[d]
                child = -1
                nb = 0
                ctag = 0
                cpts = 0
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
    return _totals(n, width, value, r_state[:count], r_tag[:count], r_used[:count], r_score[:count], bonus,
                   wild_on, word_of, change)


def _grow(a: Any, cap: int) -> Any:
    out = np.empty(cap, a.dtype)
    out[:len(a)] = a
    return out


def _totals(n: int, width: int, value: Any, r_state: Any, r_tag: Any, r_used: Any, r_score: Any, bonus: bool, wild_on: bool,
            word_of: Any, change: Any) -> int:
    """The board's value and (``wild_on``) the one-cell changes' values, from the recorded words."""
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
    total = 0
    kept = np.zeros(n, np.int64)
    for k in range(found):
        v = value[words[k]]
        total += v + (best_all[k] if bonus else 0)
        for i in range(n):
            if (avoid[k] >> i) & 1:
                kept[i] += v + (best_kept[k, i] if bonus else 0)
    if wild_on:
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
    for k in range(found):
        word_of[words[k]] = -1
    return total


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
    f_cell = np.empty(n + 1, np.int64)
    f_state = np.empty(n + 1, np.int64)
    f_used = np.empty(n + 1, np.int64)
    f_total = np.empty(n + 1, np.int64)
    f_factor = np.empty(n + 1, np.int64)
    f_j = np.empty(n + 1, np.int64)
    total = 0
    found = 0
    for c0 in range(n):
        s = _follow(base, check, 0, tiles[c0], 0, tile_len[c0])
        if s < 0:
            continue
        d = 0
        f_cell[0], f_state[0], f_used[0] = c0, s, np.int64(1) << c0
        f_total[0], f_factor[0], f_j[0] = gain[c0], word_mult[c0], -1
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
    for k in range(found):
        total += value[touched[k]] + best[touched[k]]
    return total


def _lean_many(base: Any, check: Any, kids: Any, value: Any, tiles: Any, tile_len: Any, neighbours: Any,
               nb_count: Any, gain: Any, word_mult: Any, bonus: bool, stamp: Any, best: Any, touched: Any,
               first_mark: int, out: Any) -> None:
    """:func:`_lean` of each board of ``tiles`` (boards, cells, longest tile) into ``out``."""
    for b in range(tiles.shape[0]):
        out[b] = _lean(base, check, kids, value, tiles[b], tile_len[b], neighbours, nb_count, gain[b], word_mult,
                       bonus, stamp, best, touched, first_mark + b)


if njit is not None:  # pragma: no branch
    _follow = njit(cache=True, nogil=True)(_follow)
    _grow = njit(cache=True, nogil=True)(_grow)
    _totals = njit(cache=True, nogil=True)(_totals)
    _search = njit(cache=True, nogil=True)(_search)
    _many = njit(cache=True, nogil=True)(_many)
    _lean = njit(cache=True, nogil=True)(_lean)
    _lean_many = njit(cache=True, nogil=True)(_lean_many)


_compiled = threading.Event()
_compiling: list[threading.Thread] = []
_lock = threading.Lock()


def _compile() -> None:
    """Compile (or load from numba's cache) the search, with the argument types the class passes."""
    i64 = np.int64
    _many(np.zeros(40, i64), np.full(40, -1, i64), np.zeros(40, i64), np.full(40, -1, i64), np.zeros((1, 1, 1), i64),
          np.ones((1, 1), i64), np.zeros((26, 1), i64), np.zeros(26, i64), 1, np.zeros((1, 8), i64),
          np.zeros(1, i64), np.zeros((1, 1), i64), np.ones(1, i64), np.ones(1, i64), np.zeros(26, i64), False, True,
          np.full(40, -1, i64), np.zeros((1, 1, 26), i64), np.zeros(1, i64))
    _lean_many(np.zeros(40, i64), np.full(40, -1, i64), np.zeros(40, i64), np.full(40, -1, i64),
               np.zeros((1, 1, 1), i64), np.ones((1, 1), i64), np.zeros((1, 8), i64), np.zeros(1, i64),
               np.zeros((1, 1), i64), np.ones(1, i64), False, np.full(40, -1, i64), np.zeros(40, i64),
               np.zeros(40, i64), 0, np.zeros(1, i64))
    _compiled.set()


#: Seconds a run must have left for compiling the search in it to pay off (a compile takes seconds,
#: tens on a busy machine, and slows the numpy search beside it).
COMPILE_PAYS_OFF_S = 30.0


def in_disk_cache() -> bool:
    """True when numba's cache holds the compiled search, so that getting it ready means loading it
    (well under a second), not compiling it."""
    try:
        dispatchers: tuple[Any, ...] = (_many, _lean_many)
        return all(Path(f._cache._cache_file._index_path).is_file() for f in dispatchers)
    except (AttributeError, NameError, TypeError):  # another numba's layout: as if not cached
        return False


def worth_compiling(seconds_left: float | None) -> bool:
    """Whether a run with ``seconds_left`` (None: no limit) should get the compiled search ready:
    always when it is only loaded from the disk cache, else when the run is long enough to profit."""
    if njit is None:
        return False
    return seconds_left is None or seconds_left >= COMPILE_PAYS_OFF_S or _compiled.is_set() or in_disk_cache()


def compiled_ready(*, wait: bool = False, start: bool = True) -> bool:
    """True when the compiled search can run without compiling; the first call starts compiling it
    in a background thread (``wait=True``: and waits for it; ``start=False``: only says). False
    without numba."""
    if njit is None:
        return False
    if _compiled.is_set():
        return True
    if not start and not wait:
        return False
    with _lock:
        if not _compiling:
            thread = threading.Thread(target=_compile, name="cpwords-numba-compile", daemon=True)
            _compiling.append(thread)
            thread.start()
    if wait:
        _compiling[0].join()
    return _compiled.is_set()


class CompiledNeighbourhood:
    """:class:`~cpwords.puzzles.ruzzle.neighbourhood.Neighbourhood` in compiled code (numba).

    Also scores whole boards (:meth:`score_many`), with the same values as :class:`BoardScorer`.

    Raises
    ------
    ValueError
        As :class:`Neighbourhood`; RuntimeError when numba is not installed.
    """

    def __init__(self, scorer: BoardScorer, alphabet: Sequence[str]) -> None:
        if njit is None:
            raise RuntimeError("the compiled neighbourhood search needs numba: pip install 'cpwords[fast]'")
        if scorer.size > MAX_CELLS:
            raise ValueError(f"boards of more than {MAX_CELLS} cells are not supported")
        self.numpy = Neighbourhood(scorer, alphabet)  # checks the alphabet; its tables are shared
        self.scorer, self.alphabet, self.tile_of = scorer, self.numpy.alphabet, self.numpy.tile_of
        t = scorer.tables
        self._base, self._check, self._kids = t.base, t.check, t.kids
        self._value = np.where(scorer._accept, scorer._value, -1).astype(np.int64)
        longest = max([len(a) for a in alphabet] + [1])
        self.width, self.values = self.numpy.width, self.numpy.values  # the alphabet's letters and values
        self._alpha = np.full((self.width, longest), -1, np.int64)
        self._alpha_len = np.zeros(self.width, np.int64)
        self._alpha_points = np.zeros(self.width, np.int64)
        for c, tile in self.tile_of.items():
            self._alpha[c, :len(tile)] = [scorer.alphabet.index[ch] for ch in tile]
            self._alpha_len[c] = len(tile)
            self._alpha_points[c] = tile_value(tile, self.values)
        self._mask = sum(1 << c for c in self.tile_of)
        n = scorer.size
        self._neighbours = np.ascontiguousarray(scorer._neighbours[:n])
        self._nb_count = (self._neighbours < n).sum(axis=1).astype(np.int64)
        self._letter_mult = np.ascontiguousarray(scorer._letter_mult[:n])
        self._word_mult = np.ascontiguousarray(scorer._word_mult[:n])
        self._word_of = np.full(t.states, -1, np.int64)
        # Scratch of the lean walk (:meth:`score_many`): per trie state, the board that last found
        # it (boards are numbered on from ``_mark``), its best path's points, and the words found.
        self._stamp = np.full(t.states, -1, np.int64)
        self._best = np.zeros(t.states, np.int64)
        self._touched = np.zeros(t.states, np.int64)
        self._mark = 0
        compiled_ready(wait=True)

    def _encode(self, boards: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The boards' tiles as letter codes (boards, cells, longest tile), their lengths, and
        (with bonus squares) each cell's points."""
        s = self.scorer
        n = s.size
        codes = [[s._codes(tile) for tile in board] for board in boards]
        longest = max([len(c) for board in codes for c in board] + [1])
        tiles = np.full((len(boards), n, longest), -1, np.int64)
        tile_len = np.zeros((len(boards), n), np.int64)
        gain = np.zeros((len(boards), n), np.int64)
        for b, board in enumerate(codes):
            for i, c in enumerate(board):
                tiles[b, i, :len(c)] = c
                tile_len[b, i] = len(c)
            if s._bonus:
                gain[b] = [tile_value(t, self.values) for t in boards[b]] * self._letter_mult
        return tiles, tile_len, gain

    def _run(self, boards: Sequence[Sequence[str]], wild: bool) -> tuple[np.ndarray, np.ndarray]:
        s = self.scorer
        n = s.size
        tiles, tile_len, gain = self._encode(boards)
        out = np.zeros(len(boards), np.int64)
        change = np.zeros((len(boards), n if wild else 0, self.width), np.int64)
        _many(self._base, self._check, self._kids, self._value, tiles, tile_len, self._alpha, self._alpha_len,
              self._mask, self._neighbours, self._nb_count, gain, self._letter_mult, self._word_mult,
              self._alpha_points, s._bonus, wild, self._word_of, change if wild else np.zeros((len(boards), n, self.width),
                                                                                          np.int64), out)
        if wild:
            change[:, :, [c for c in range(self.width) if not self._mask >> c & 1]] = -1
            own = tiles[:, :, 0]
            b_idx, c_idx = np.nonzero(own >= 0)
            change[b_idx, c_idx, own[b_idx, c_idx]] = -1
        return out, change

    def scores(self, boards: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
        """As :meth:`Neighbourhood.scores`."""
        return self._run(boards, True)

    def score_many(self, boards: Sequence[Sequence[str]]) -> list[int]:
        """The value of each board (tiles row by row), as :meth:`BoardScorer.score_many`: the
        depth-first walk without the one-cell changes' bookkeeping (on 4×4 boards of ENABLE2K
        several times faster than the array scorer)."""
        if not boards:
            return []
        tiles, tile_len, gain = self._encode(boards)
        out = np.zeros(len(boards), np.int64)
        _lean_many(self._base, self._check, self._kids, self._value, tiles, tile_len, self._neighbours,
                   self._nb_count, gain, self._word_mult, self.scorer._bonus, self._stamp, self._best, self._touched,
                   self._mark, out)
        self._mark += len(boards)
        return [int(v) for v in out]
