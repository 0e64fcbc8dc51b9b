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
``benchmarks/bench_ruzzle_scoring.py`` measures it against the reference in one run.
Boards of more than 63 cells (the used-cells mask is an int64) and boards whose Ruzzle score could
overflow int64 are scored by the reference search instead.

>>> scorer = BoardScorer(["cat", "cats", "act", "at", "sat"], scoring="boggle", min_letters=3, rows=2, cols=2)
>>> scorer.score([["c", "a"], ["t", "s"]])  # act, cat, cats, sat: 1 point each
4
>>> scorer.score_many(["cats", "ttcc"])
[4, 0]
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cpwords.alphabet import ENGLISH, Alphabet
from cpwords.engines.budget import build_checkpoint
from cpwords.lexicon.core import Lexicon
from cpwords.puzzles.ruzzle.board import (
    BONUS_MULTIPLIERS,
    Board,
    boggle_points,
    king_neighbours,
    letter_values,
    parse_row,
    path_score,
    tile_value,
)
from cpwords.puzzles.ruzzle.trie import CACHE_VERSION as TRIE_CACHE_VERSION
from cpwords.puzzles.ruzzle.trie import LETTER_SLOTS, Trie, build_trie, load_trie, trie_words

#: Bump when the cached tables change format or meaning.
TABLES_VERSION = 1
#: Scoring rules, as in the ruzzle spec.
SCORINGS = ("ruzzle", "boggle", "none")
#: Largest board the array search handles (cells are bits of an int64 mask).
MAX_CELLS = 63
#: Boards scored per batch of array operations (memory grows with it; fastest near 128 on a 4x4 board).
CHUNK = 128

_SENTINEL = LETTER_SLOTS - 1  # the letter of the padding cell: no alphabet has it, no trie node a child by it
_ALL_LETTERS = (1 << _SENTINEL) - 1


def _letter_value_array(alphabet: Alphabet) -> np.ndarray:
    """Ruzzle value of each letter index of ``alphabet`` (0 for the unused slots)."""
    values = letter_values(alphabet.language)
    return np.array([values[ch] for ch in alphabet.letters] + [0] * (LETTER_SLOTS - alphabet.size), dtype=np.int64)

TileGrid = Board | str | Sequence[str] | Sequence[Sequence[str]]
"""A board's tiles: a :class:`Board`; ``rows * cols`` tiles row by row; rows, each a sequence of
tiles or a string read by :func:`~cpwords.puzzles.ruzzle.board.parse_row`; or the whole board as
one such string (``"quitetc..."``: tiles row after row)."""


@dataclass(frozen=True)
class TrieTables:
    """A double-array trie as numpy arrays (int64, ``is_word`` bool), with per-state tables for scoring.

    Attributes
    ----------
    base, check:
        The double-array trie (see :class:`~cpwords.puzzles.ruzzle.trie.Trie`): state ``s`` has a
        child by letter ``c`` exactly when ``check[base[s] + c] == s``, and that child is
        ``base[s] + c``.
    kids:
        Bit ``c`` is set when the state has a child by letter ``c``: one shift answers "can this
        path go on with this letter?" without touching ``check``.
    is_word:
        True where a word ends.
    depth:
        Letters from the root (the word's length when ``is_word``).
    letter_sum:
        Sum of the Ruzzle letter values of those letters.
    """

    base: np.ndarray
    check: np.ndarray
    kids: np.ndarray
    is_word: np.ndarray
    depth: np.ndarray
    letter_sum: np.ndarray

    @property
    def states(self) -> int:
        """Length of the arrays (trie states plus free slots)."""
        return len(self.base)


def _derived(trie: Trie, alphabet: Alphabet = ENGLISH,
             stage: Callable[[], None] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Child masks (int32), depths (int16) and letter sums (int32, the letter values of ``alphabet``'s
    language) of every state of ``trie``. ``stage`` runs between rounds and may raise to stop."""
    letter_value = _letter_value_array(alphabet)
    base = np.frombuffer(trie.base, dtype=np.int32).astype(np.int64)
    check = np.frombuffer(trie.check, dtype=np.int32).astype(np.int64)
    n = len(base)
    child = np.flatnonzero(check >= 0)  # every state but the root
    parent = check[child]
    letter = child - base[parent]
    kids = np.zeros(n, dtype=np.int64)
    np.bitwise_or.at(kids, parent, np.left_shift(1, letter))
    # Depth and letter sum: sums along the path to the root, by pointer jumping (each round
    # doubles the length of path summed; free slots point at the root and add nothing).
    up = np.zeros(n, dtype=np.int64)
    up[child] = parent
    depth = np.zeros(n, dtype=np.int64)
    depth[child] = 1
    letter_sum = np.zeros(n, dtype=np.int64)
    letter_sum[child] = letter_value[letter]
    while up.any():
        if stage is not None:
            stage()
        depth += depth[up]
        letter_sum += letter_sum[up]
        up = up[up]
    return kids.astype(np.int32), depth.astype(np.int16), letter_sum.astype(np.int32)


def _tables(trie: Trie, derived: tuple[np.ndarray, np.ndarray, np.ndarray]) -> TrieTables:
    kids, depth, letter_sum = derived
    return TrieTables(
        base=np.frombuffer(trie.base, dtype=np.int32).astype(np.int64),
        check=np.frombuffer(trie.check, dtype=np.int32).astype(np.int64),
        kids=kids.astype(np.int64),
        is_word=np.frombuffer(trie.is_word, dtype=np.uint8).astype(bool),
        depth=depth.astype(np.int64),
        letter_sum=letter_sum.astype(np.int64),
    )


def trie_tables(trie: Trie, alphabet: Alphabet = ENGLISH) -> TrieTables:
    """The scoring tables of a trie, computed in memory (about 0.2 s for 240,000 words)."""
    return _tables(trie, _derived(trie, alphabet))


def load_trie_tables(lexicon: Lexicon) -> tuple[Trie, TrieTables]:
    """The trie of a lexicon and its scoring tables, both through the lexicon cache.

    The derived tables (child masks, depths, letter sums) are stored beside the trie, so a later
    process loads them in milliseconds; this process keeps the last few it loaded.
    """
    from cpwords.lexicon.cache import cached

    key = lexicon.content_hash
    if key in _LOADED:
        return _LOADED[key]
    trie, _ = load_trie(lexicon)
    # The tables follow the trie's state numbering, so its format version is part of the name.
    name = f"ruzzle-scoring-tables-trie{TRIE_CACHE_VERSION}"
    check = functools.partial(build_checkpoint, f"the Ruzzle scoring tables of {lexicon.label}")
    derived = cached(lexicon, name, lambda: _derived(trie, lexicon.alphabet, check), version=TABLES_VERSION)
    if len(derived[0]) != len(trie.base):  # a trie rebuilt differently since: do not trust the file
        derived = _derived(trie, lexicon.alphabet)
    loaded = trie, _tables(trie, derived)
    _remember(_LOADED, key, loaded, keep=2)
    return loaded


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


_LOADED: dict[str, tuple[Trie, TrieTables]] = {}
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
        The dictionary's double-array trie and its :class:`TrieTables`.
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
        """Breadth-first trie search of a batch of boards; see the module docstring.

        ``letters``: (boards, cells + 1) first letter of each tile, the last column the sentinel.
        ``extra``: None, or per flat position (board * (cells + 1) + cell) the tile's letter codes,
        -1 padded. ``gain``: None, or (boards, cells + 1) Ruzzle points of each tile with its
        letter bonus (Ruzzle with bonus squares: then paths carry their letters and multiplier), and
        ``score_bits`` the bits of the largest score a path of the batch can reach.
        """
        base, check, kids = self.tables.base, self.tables.check, self.tables.kids
        boards, width = letters.shape
        flat = letters.ravel()
        # Optional per mode (None otherwise): ``gain_flat``, ``total`` and ``factor`` with bonus
        # squares, ``row`` and ``near`` in batches.
        gain_flat: Any = gain.ravel() if gain is not None else None
        neighbours, clear, word_mult = self._neighbours, self._clear, self._word_mult
        batched = boards > 1
        # The frontier: each live path's last cell, trie state and used cells; in a batch also its
        # board's row offset (board * width); with bonuses its letter points and word multiplier.
        cell = np.tile(self._cells, boards) if batched else self._cells
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
            later = self._follow_tiles(extra, pos, state)
            if later is not None:
                cell, state, free, row, total, factor = _take(later, cell, state, free, row, total, factor)
        seen_states, seen_rows, seen_scores = [state], [row], []
        near: Any = None
        if gain_flat is not None:
            seen_scores.append(total * factor)
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
                    later = self._follow_tiles(extra, pos, state)
                    if later is not None:
                        cell, state, free, row, total, factor = _take(later, cell, state, free, row, total, factor)
            seen_states.append(state)
            seen_rows.append(row)
            if gain_flat is not None:
                seen_scores.append(total * factor)
        return self._values(boards, seen_states, seen_rows if batched else None, seen_scores or None, score_bits)

    def _follow_tiles(self, extra: np.ndarray, pos: np.ndarray, state: np.ndarray) -> np.ndarray | None:
        """Take ``state`` (in place) through the later letters of multi-letter tiles.

        ``state`` has followed each tile's first letter. Returns the indices of the paths still in
        the trie, or None when none fell off.
        """
        base, check = self.tables.base, self.tables.check
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

    def _values(self, boards: int, states: list[np.ndarray], rows: list[np.ndarray] | None,
                scores: list[np.ndarray] | None, score_bits: int) -> list[tuple[int, int]]:
        """Per board: the sum over its distinct accepting states (best path score each, with
        bonuses) and their number.

        ``rows`` is None for a single board; otherwise each path's row offset (board * width).
        """
        n_states = self.tables.states
        state = np.concatenate(states)
        ok = self._accept[state]
        key = state[ok]
        if rows is not None:  # one key per (board, word)
            key += np.concatenate(rows)[ok] // (self.size + 1) * n_states
        if scores is None:
            key.sort()
            key = key[_run_ends(key)]
            value = self._value[key % n_states if rows is not None else key]
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
            value = score[last] + self._value[key % n_states]
        if rows is None:
            return [(int(value.sum()), len(value))]
        # Keys are sorted, so each board's words are one run: sums by cumulative sum.
        cumulative = np.concatenate(([0], np.cumsum(value)))
        bounds = np.searchsorted(key // n_states, np.arange(boards + 1))
        sums = (cumulative[bounds[1:]] - cumulative[bounds[:-1]]).tolist()
        return list(zip(sums, np.diff(bounds).tolist(), strict=True))


def _run_ends(sorted_keys: np.ndarray) -> np.ndarray:
    """Boolean mask of the last element of each run of equal values."""
    last = np.ones(len(sorted_keys), dtype=bool)
    np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=last[:-1])
    return last


def _take(keep: np.ndarray, *arrays: Any) -> tuple[Any, ...]:
    """Each array (None stays None) restricted to the indices ``keep``."""
    return tuple(a[keep] if a is not None else None for a in arrays)
