"""Fast board scoring: many trie searches at once, level by level, in numpy.

The trie search of :mod:`cpwords.puzzles.ruzzle.trie` walks one path at a time in Python, a few
hundred interpreter steps per board. Here the search is breadth first instead: a *frontier* holds
every live path of a given number of tiles (its last cell, its trie state, its unused cells as a
bitmask)
for one board or a whole batch of boards, and one step extends all of them by all eight king
moves with a handful of array operations. A candidate move survives when the neighbour is unused
and the trie node has a child by the neighbour's letter, which is one shift of the node's 32-bit
*child mask* (a table derived from the double-array trie once per dictionary), so the trie's
``check`` array is only consulted for the second letter of multi-letter tiles (``qu``).

A word is its trie state, so the distinct words of a board are the distinct accepting states its
paths reach, and a board's value is a sum over them of a per-state table (the word's points under
Boggle or bonus-free Ruzzle scoring, or 1 when scoring is ``none``). With Ruzzle bonus squares
each path carries its letter sum and word multiplier and a word scores its best path.

A 4×4 board has about 600 live trie paths and its search about nine steps of some twenty array
operations each, whatever the frontier size, so a batch shares that fixed cost across boards (and
first drops the paths that no neighbour's letter can continue, which pays only on big frontiers).
``benchmarks/bench_ruzzle_scoring.py`` measures it against the reference in one run. The
per-state tables are made in :mod:`~cpwords.puzzles.ruzzle.tables`, the search runs in
:mod:`~cpwords.puzzles.ruzzle.frontier`; this module holds the scorer that feeds them boards.
Boards of more than 63 cells (the used-cells mask is an int64) and boards whose Ruzzle score could
overflow int64 are scored by the reference search instead.

>>> scorer = BoardScorer(["cat", "cats", "act", "at", "sat"], scoring="boggle", min_letters=3, rows=2, cols=2)
>>> scorer.score([["c", "a"], ["t", "s"]])  # act, cat, cats, sat: 1 point each
4
>>> scorer.score_many(["cats", "ttcc"])
[4, 0]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from cpwords.alphabet import ENGLISH, Alphabet
from cpwords.lexicon.core import Lexicon
from cpwords.puzzles.ruzzle.board import (
    BONUS_MULTIPLIERS,
    Board,
    boggle_points,
    king_neighbours,
    parse_row,
    path_score,
    tile_value,
)
from cpwords.puzzles.ruzzle.frontier import board_tallies, trie_paths
from cpwords.puzzles.ruzzle.tables import load_trie_tables, trie_tables
from cpwords.puzzles.ruzzle.trie import LETTER_SLOTS, Trie, build_trie, trie_words

#: Scoring rules, as in the ruzzle spec.
SCORINGS = ("ruzzle", "boggle", "none")
#: Largest board the array search handles (cells are bits of an int64 mask).
MAX_CELLS = 63
#: Boards scored per batch of array operations (memory grows with it; fastest near 128 on a 4x4 board).
CHUNK = 128

_SENTINEL = LETTER_SLOTS - 1  # the letter of the padding cell: no alphabet has it, no trie node a child by it


TileGrid = Board | str | Sequence[str] | Sequence[Sequence[str]]
"""A board's tiles: a :class:`Board`; ``rows * cols`` tiles row by row; rows, each a sequence of
tiles or a string read by :func:`~cpwords.puzzles.ruzzle.board.parse_row`; or the whole board as
one such string (``"quitetc..."``: tiles row after row)."""


def scorer_for(lexicon: Lexicon, *, scoring: str, min_letters: int, rows: int, cols: int,
               bonus_cells: Mapping[tuple[int, int], str] | None = None) -> BoardScorer:
    """A :class:`BoardScorer`, kept per process: an annealing run, a batch of boards and the next
    call with the same dictionary and rules share one (its set-up costs as much as a thousand boards).
    """
    bonus = tuple(sorted((bonus_cells or {}).items()))
    key = (lexicon.content_hash, scoring, min_letters, rows, cols, bonus if scoring == "ruzzle" else ())
    scorer = _SCORERS.get(key)
    if scorer is None:
        scorer = BoardScorer(lexicon, scoring=scoring, min_letters=min_letters, rows=rows, cols=cols,
                             bonus_cells=dict(bonus))
        _remember(_SCORERS, key, scorer, keep=8)
    return scorer


_SCORERS: dict[tuple[Any, ...], BoardScorer] = {}


def _remember(table: dict[Any, Any], key: Any, value: Any, *, keep: int) -> None:
    """Put ``value`` in a small per-process table, dropping the oldest entry beyond ``keep``."""
    if len(table) >= keep:
        table.pop(next(iter(table)))
    table[key] = value


class BoardScorer:
    """Scores R×C boards of one shape, bonus layout and scoring rule against one dictionary.

    A board's score is what the annealer maximises (``annealing.board_value`` of ``trie_words``):
    under ``boggle`` each distinct word scores by its length once; under ``ruzzle`` each distinct
    word scores its best path (letter values times letter bonuses, times the path's word bonuses,
    plus the length bonus); under ``none`` the score is the number of distinct words. Only words
    of at least ``min_letters`` letters count (a ``qu`` tile is two letters).

    Parameters
    ----------
    lexicon:
        The dictionary: a :class:`~cpwords.lexicon.Lexicon` (the trie and its tables go through
        the lexicon cache), a :class:`~cpwords.puzzles.ruzzle.trie.Trie`, or any iterable of
        lowercase words (built in memory).
    alphabet:
        The letters of a Trie or word iterable (a Lexicon brings its own); English a-z by default.
    scoring:
        ``ruzzle``, ``boggle`` or ``none``.
    min_letters:
        Shortest word that counts, in letters; default 2 for Ruzzle scoring, 3 otherwise (as the
        ruzzle spec's ``min_letters()``).
    rows, cols:
        Board shape.
    bonus_cells:
        Bonus squares, ``{(row, col): "DL" | "TL" | "DW" | "TW"}`` with 1-based cells, as
        :meth:`RuzzleSpec.bonus_cells` returns them. Only Ruzzle scoring uses them.

    Attributes
    ----------
    trie, tables:
        The dictionary's double-array trie and its
        :class:`~cpwords.puzzles.ruzzle.tables.TrieTables`.
    scoring, min_letters, rows, cols, bonus_cells:
        As given (``min_letters`` with its default filled in); ``size`` is ``rows * cols``.

    Raises
    ------
    ValueError
        Unknown scoring, an empty shape, or a bonus square off the board or of an unknown kind.

    Examples
    --------
    >>> s = BoardScorer(["cat", "cats"], scoring="ruzzle", min_letters=2, rows=2, cols=2,
    ...                 bonus_cells={(1, 1): "TL", (2, 2): "DW"})
    >>> s.score(["c", "a", "t", "s"])  # cat: 4*3+1+1 = 14; cats: (14+1)*2 = 30
    44
    """

    def __init__(
        self,
        lexicon: Lexicon | Trie | Iterable[str],
        *,
        scoring: str = "ruzzle",
        min_letters: int | None = None,
        rows: int = 4,
        cols: int = 4,
        bonus_cells: Mapping[tuple[int, int], str] | None = None,
        alphabet: Alphabet = ENGLISH,
    ) -> None:
        if isinstance(lexicon, Lexicon):
            alphabet = lexicon.alphabet
        self.alphabet = alphabet
        if scoring not in SCORINGS:
            raise ValueError(f"unknown scoring {scoring!r}; use one of {', '.join(SCORINGS)}")
        if rows < 1 or cols < 1:
            raise ValueError(f"a board needs at least one row and one column (got {rows}x{cols})")
        if min_letters is None:
            min_letters = 2 if scoring == "ruzzle" else 3
        self.scoring, self.min_letters, self.rows, self.cols = scoring, min_letters, rows, cols
        self.size = rows * cols
        self.bonus_cells: dict[tuple[int, int], str] = dict(bonus_cells or {})
        for (r, c), name in self.bonus_cells.items():
            if not (1 <= r <= rows and 1 <= c <= cols) or name not in BONUS_MULTIPLIERS:
                raise ValueError(f"bad bonus square {name!r} at [{r}, {c}] on a {rows}x{cols} board")
        # The reference search's board: the bonus layout, tiles filled in per board.
        self._template = Board.from_tiles([["a"] * cols for _ in range(rows)], self.bonus_cells, alphabet)
        if isinstance(lexicon, Trie):
            self.trie, self.tables = lexicon, trie_tables(lexicon, alphabet)
        elif isinstance(lexicon, Lexicon):
            self.trie, self.tables = load_trie_tables(lexicon)
        else:
            self.trie = build_trie(lexicon, alphabet)
            self.tables = trie_tables(self.trie, alphabet)
        t = self.tables
        self._letter_mult = np.array(self._template.letter_mult + (0,), dtype=np.int64)
        self._word_mult = np.array(self._template.word_mult + (1,), dtype=np.int64)
        # Bonus squares only matter to Ruzzle scoring, and only there can paths of a word differ.
        self._bonus = scoring == "ruzzle" and any(
            m != 1 for m in self._template.letter_mult + self._template.word_mult)
        self._accept = t.is_word & (t.depth >= min_letters)
        if scoring == "none":
            self._value = np.ones(t.states, dtype=np.int64)
        elif scoring == "boggle":
            points = np.array([boggle_points(n) for n in range(int(t.depth.max()) + 1)], dtype=np.int64)
            self._value = points[t.depth]
        else:  # the length bonus, plus the letters when no bonus square can change them
            self._value = 5 * np.maximum(0, t.depth - 4) + (0 if self._bonus else t.letter_sum)
        # Neighbour table padded to 8 columns with the sentinel cell ``size`` (letter _SENTINEL).
        self._neighbours = np.full((self.size + 1, 8), self.size, dtype=np.int64)
        for cell, nbs in enumerate(king_neighbours(rows, cols)):
            self._neighbours[cell, :len(nbs)] = nbs
        self._cells = np.arange(self.size, dtype=np.int64)
        # All bits but the cell's own: a path's free-cells mask is ANDed with it on each step.
        self._clear = ~np.left_shift(1, np.arange(min(self.size, MAX_CELLS) + 1, dtype=np.int64))
        self._tile_codes: dict[str, tuple[int, ...]] = {}
        self._tile_values: dict[str, int] = {}  # Ruzzle points of each tile seen (with bonus squares)
        # int64 bound for a bonus path's letters times its word multiplier.
        self._max_factor = math.prod(self._template.word_mult)

    # ------------------------------------------------------------ public API

    def score(self, tiles: TileGrid) -> int:
        """The value of one board.

        Parameters
        ----------
        tiles:
            The board's tiles (see :data:`TileGrid`): a :class:`Board` of this scorer's shape and
            bonuses, ``rows * cols`` tiles row by row, rows of tiles (a row may be a string, read
            by ``parse_row``), or the whole board as one such string.

        Returns
        -------
        The board's value, equal to ``annealing.board_value`` of ``trie_words`` on that board.

        Raises
        ------
        ValueError
            Not a board of this shape, a tile that is not letters of the alphabet, or (Ruzzle scoring) a
            :class:`Board` with other bonus squares.
        """
        return self._score_chunk([self._flat_tiles(tiles)])[0][0]

    def score_many(self, boards: Iterable[TileGrid]) -> list[int]:
        """The values of many boards, searched together in chunks of :data:`CHUNK`.

        Parameters
        ----------
        boards:
            Boards, each in any form :meth:`score` takes.

        Returns
        -------
        One value per board, in order.
        """
        return [value for value, _ in self.tally_many(boards)]

    def tally(self, tiles: TileGrid) -> tuple[int, int]:
        """The value of one board and its number of distinct words (of ``min_letters`` or more).

        >>> BoardScorer(["cat", "cats", "act"], scoring="boggle", rows=2, cols=2).tally("cats")
        (3, 3)
        """
        return self._score_chunk([self._flat_tiles(tiles)])[0]

    def tally_many(self, boards: Iterable[TileGrid]) -> list[tuple[int, int]]:
        """:meth:`tally` of many boards, searched together in chunks of :data:`CHUNK`: what a
        board's words would sum to and how many they are, without listing them (the number of
        distinct words comes with the search for free)."""
        flat = [self._flat_tiles(b) for b in boards]
        out: list[tuple[int, int]] = []
        for start in range(0, len(flat), CHUNK):
            out.extend(self._score_chunk(flat[start:start + CHUNK]))
        return out

    def reference_score(self, tiles: TileGrid) -> int:
        """The value of one board by the reference search (``trie_words`` and ``path_score``)."""
        return self._reference_tally(self._flat_tiles(tiles))[0]

    def _reference_tally(self, flat: list[str]) -> tuple[int, int]:
        board = self._template.with_tiles(flat)
        found = trie_words(board, self.trie, min_letters=self.min_letters, scoring=self.scoring)
        if self.scoring == "none":
            return len(found), len(found)
        return sum(path_score(board, path, self.scoring) for path in found.values()), len(found)

    # ------------------------------------------------------------ input

    def _flat_tiles(self, tiles: TileGrid) -> list[str]:
        """``tiles`` as a row-major list of ``rows * cols`` lowercase tiles."""
        if isinstance(tiles, Board):
            t = self._template
            if (tiles.rows, tiles.cols) != (t.rows, t.cols):
                raise ValueError(f"expected a {self.rows}x{self.cols} board, got {tiles.rows}x{tiles.cols}")
            # Only Ruzzle scoring reads bonus squares, so only there must they be the scorer's.
            if self.scoring == "ruzzle" and (tiles.letter_mult, tiles.word_mult) != (t.letter_mult, t.word_mult):
                raise ValueError("the board's bonus squares differ from the scorer's")
            return list(tiles.tiles)
        if isinstance(tiles, str):  # the whole board in one string, row after row
            items: list = parse_row(tiles)
        else:
            items = list(tiles)
        if len(items) == self.size and all(isinstance(x, str) for x in items):
            flat = [x.lower() for x in items]
        elif len(items) == self.rows:
            flat = [tile for row in items for tile in parse_row(row)]
        else:
            flat = []
        if len(flat) != self.size:
            raise ValueError(f"expected a {self.rows}x{self.cols} board: {self.size} tiles or {self.rows} rows")
        return flat

    def _codes(self, tile: str) -> tuple[int, ...]:
        """Letter indices of a tile in the alphabet; checked once per distinct tile."""
        codes = self._tile_codes.get(tile)
        if codes is None:
            if not self.alphabet.is_word(tile):
                raise ValueError(f"tiles must be letters {self.alphabet.describe()} (got {tile!r})")
            codes = self._tile_codes[tile] = tuple(self.alphabet.index[ch] for ch in tile)
        return codes

    # ------------------------------------------------------------ search

    def _score_chunk(self, boards: list[list[str]]) -> list[tuple[int, int]]:
        """(value, words) of a list of flat boards: the array search, or the reference where it cannot go."""
        if not boards:
            return []
        n, width = self.size, self.size + 1
        if n > MAX_CELLS:
            return [self._reference_tally(b) for b in boards]
        joined = "".join(tile for b in boards for tile in b)
        if len(joined) == n * len(boards) and joined.isascii() and joined.isalpha() and joined.islower():
            # One letter a tile (the common case): straight from the bytes.
            first = np.frombuffer(joined.encode("ascii"), dtype=np.uint8).astype(np.int64) - 97
            extra: np.ndarray | None = None
        else:
            codes = [self._codes(tile) for b in boards for tile in b]
            first = np.array([c[0] for c in codes], dtype=np.int64)
            longest = max(len(c) for c in codes)
            padded = np.full((len(codes), longest), -1, dtype=np.int64)
            for i, c in enumerate(codes):
                padded[i, :len(c)] = c
            by_cell = np.full((len(boards), width, longest), -1, dtype=np.int64)
            by_cell[:, :n] = padded.reshape(len(boards), n, longest)
            extra = by_cell.reshape(-1, longest) if longest > 1 else None  # row = flat position
        letters = np.full((len(boards), width), _SENTINEL, dtype=np.int64)
        letters[:, :n] = first.reshape(len(boards), n)
        gain: np.ndarray | None = None
        if self._bonus:
            value_of = self._tile_values
            for tile in set(joined) if extra is None else {t for b in boards for t in b}:
                if tile not in value_of:
                    value_of[tile] = tile_value(tile, self._template.values)
            values = np.array([value_of[t] for b in boards for t in b], dtype=np.int64).reshape(len(boards), n)
            gain = np.zeros((len(boards), width), dtype=np.int64)
            gain[:, :n] = values * self._letter_mult[:n]
            # Exact int64 arithmetic needs letters times word multipliers well inside 2**63.
            most = int(gain.sum(axis=1).max()) * self._max_factor
            if most >= 2**62:
                return [self._reference_tally(b) for b in boards]
            return self._search(letters, extra, gain, most.bit_length())
        return self._search(letters, extra, None, 0)

    def _search(self, letters: np.ndarray, extra: np.ndarray | None, gain: np.ndarray | None,
                score_bits: int) -> list[tuple[int, int]]:
        """(value, words) of each board of a batch by the breadth-first search of
        :mod:`~cpwords.puzzles.ruzzle.frontier` (its arguments as :func:`~.frontier.trie_paths` and
        :func:`~.frontier.board_tallies` take them)."""
        levels = trie_paths(self.tables, self._neighbours, self._clear, self._word_mult, self._cells, letters, extra,
                            gain)
        return board_tallies(letters.shape[0], letters.shape[1], levels, score_bits, self._accept, self._value)
