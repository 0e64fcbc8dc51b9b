"""The neighbourhood search compiled with numba (optional: ``pip install cpwords[fast]``).

The same search as :mod:`cpwords.puzzles.ruzzle.neighbourhood` (the board's trie paths, and those
that read one cell as another tile of the alphabet), walked depth first in compiled code instead
of breadth first in numpy arrays: a 4×4 board's ~400 one-cell changes cost a few milliseconds
instead of tens. :class:`CompiledNeighbourhood` has the numpy class's interface and answers, and
the tests compare both with :class:`~cpwords.puzzles.ruzzle.scoring.BoardScorer` on random boards.
Without numba the climber uses the numpy class.

The walks themselves are plain functions in :mod:`~cpwords.puzzles.ruzzle.depth_first`; this
module compiles them, says when they are ready and feeds them boards.

Compiling takes seconds (tens on a busy machine) the first time; numba then keeps the machine code in
its cache (``__pycache__`` beside ``depth_first.py``, or numba's user cache), and later processes load
it in well under a second. So that a short ``time_limit`` is kept even the first time, :func:`compiled_ready`
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
from cpwords.puzzles.ruzzle.depth_first import _lean_many, _many, njit
from cpwords.puzzles.ruzzle.neighbourhood import Neighbourhood
from cpwords.puzzles.ruzzle.scoring import MAX_CELLS, BoardScorer


def available() -> bool:
    """True when numba is installed (the compiled search is used)."""
    return njit is not None


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
