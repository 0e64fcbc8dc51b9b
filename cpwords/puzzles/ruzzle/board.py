"""The board: tiles, king-move neighbours, letter values and the two scoring rules.

Pure data and small functions shared by the three word-finding algorithms and the annealer.
A tile is one or more letters (``qu`` is the usual multi-letter tile); cells are numbered
row by row from 0 internally and shown to people as 1-based ``[row, col]``.

>>> board = Board.from_tiles([["c", "a"], ["t", "s"]])
>>> board.neighbours[0]
(1, 2, 3)
>>> board.cell_of(1, 2), board.row_col(3)
(1, [2, 2])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from cpwords.alphabet import ENGLISH, Alphabet

#: Letter values of English Ruzzle (as published for the game; Q is worth 10, J and Z 10, X 8).
RUZZLE_LETTER_VALUES: dict[str, int] = {
    "a": 1, "b": 4, "c": 4, "d": 2, "e": 1, "f": 4, "g": 3, "h": 4, "i": 1, "j": 10, "k": 5, "l": 1, "m": 3,
    "n": 1, "o": 1, "p": 4, "q": 10, "r": 1, "s": 1, "t": 1, "u": 2, "v": 4, "w": 4, "x": 8, "y": 4, "z": 10,
}

#: Letter values by language. English: Ruzzle's own. Italian, Spanish, German, French: the values of
#: the language's Scrabble set, which is what players' guides and solvers report for Ruzzle wherever
#: they give values (Ruzzle publishes no table; sources in docs/ruzzle.md); letters the set lacks
#: (Italian j k w x y, Spanish k w) are worth 10 like its rarest letters.
LETTER_VALUES: dict[str, dict[str, int]] = {
    "english": RUZZLE_LETTER_VALUES,
    "italian": {
        "a": 1, "b": 5, "c": 2, "d": 5, "e": 1, "f": 5, "g": 8, "h": 8, "i": 1, "j": 10, "k": 10, "l": 3,
        "m": 3, "n": 3, "o": 1, "p": 5, "q": 10, "r": 2, "s": 2, "t": 2, "u": 3, "v": 5, "w": 10, "x": 10,
        "y": 10, "z": 8,
    },
    "spanish": {
        "a": 1, "b": 3, "c": 3, "d": 2, "e": 1, "f": 4, "g": 2, "h": 4, "i": 1, "j": 8, "k": 10, "l": 1,
        "m": 3, "n": 1, "o": 1, "p": 3, "q": 5, "r": 1, "s": 1, "t": 1, "u": 1, "v": 4, "w": 10, "x": 8,
        "y": 4, "z": 10, "ñ": 8,
    },
    "german": {
        "a": 1, "b": 3, "c": 4, "d": 1, "e": 1, "f": 4, "g": 2, "h": 2, "i": 1, "j": 6, "k": 4, "l": 2,
        "m": 3, "n": 1, "o": 2, "p": 4, "q": 10, "r": 1, "s": 1, "t": 1, "u": 1, "v": 6, "w": 3, "x": 8,
        "y": 10, "z": 3, "ä": 6, "ö": 8, "ü": 6,
    },
    "french": {
        "a": 1, "b": 3, "c": 3, "d": 2, "e": 1, "f": 4, "g": 2, "h": 4, "i": 1, "j": 8, "k": 10, "l": 1,
        "m": 2, "n": 1, "o": 1, "p": 3, "q": 8, "r": 1, "s": 1, "t": 1, "u": 1, "v": 4, "w": 10, "x": 10,
        "y": 10, "z": 10,
    },
}


def letter_values(language: str) -> dict[str, int]:
    """Ruzzle letter values of a language (English for one without its own table)."""
    return LETTER_VALUES.get(language, RUZZLE_LETTER_VALUES)


#: Bonus square name -> (letter multiplier, word multiplier).
BONUS_MULTIPLIERS: dict[str, tuple[int, int]] = {"DL": (2, 1), "TL": (3, 1), "DW": (1, 2), "TW": (1, 3)}

#: Boggle points by word length in letters (8 or more letters: 11).
BOGGLE_POINTS: dict[int, int] = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}


def boggle_points(length: int) -> int:
    """Boggle points of a word of ``length`` letters (0 below 3 letters).

    >>> [boggle_points(n) for n in (2, 3, 5, 8, 12)]
    [0, 1, 2, 11, 11]
    """
    if length >= 8:
        return 11
    return BOGGLE_POINTS.get(length, 0)


def ruzzle_length_bonus(length: int) -> int:
    """Ruzzle's bonus for long words: 5 points for each letter beyond four (5 letters +5, 6 +10 ...).

    >>> [ruzzle_length_bonus(n) for n in (2, 4, 5, 6, 8)]
    [0, 0, 5, 10, 20]
    """
    return 5 * max(0, length - 4)


def tile_value(tile: str, values: dict[str, int] = RUZZLE_LETTER_VALUES) -> int:
    """Ruzzle value of a tile: the sum of its letters' values (``qu`` = 10 + 2 in English)."""
    return sum(values[ch] for ch in tile)


def parse_row(row: str | Sequence[str]) -> list[str]:
    """Split one grid row into tiles (lowercase).

    A list is taken tile by tile. A string with spaces is split at the spaces; a string without
    spaces is one tile per letter, except that ``qu`` is read as one tile (as on Boggle's Qu die).

    >>> parse_row("QUIT"), parse_row("a b qu d"), parse_row(["q", "u"])
    (['qu', 'i', 't'], ['a', 'b', 'qu', 'd'], ['q', 'u'])
    """
    if not isinstance(row, str):
        return [str(t).strip().lower() for t in row]
    text = row.strip().lower()
    if " " in text:
        return text.split()
    tiles: list[str] = []
    i = 0
    while i < len(text):
        if text.startswith("qu", i):
            tiles.append("qu")
            i += 2
        else:
            tiles.append(text[i])
            i += 1
    return tiles


@lru_cache(maxsize=32)
def king_neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For each cell (row-major, 0-based) the cells one king move away, in increasing order
    (kept per shape: every board of a batch or an annealing run shares the table)."""
    out = []
    for r in range(rows):
        for c in range(cols):
            out.append(tuple(
                rr * cols + cc
                for rr in range(r - 1, r + 2)
                for cc in range(c - 1, c + 2)
                if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < cols
            ))
    return tuple(out)


@dataclass(frozen=True)
class Board:
    """A rectangular board of tiles with optional bonus squares.

    ``letter_mult[i]`` and ``word_mult[i]`` are the multipliers of cell ``i`` (1 when plain);
    ``alphabet`` is the dictionary's (letter indices and Ruzzle letter values follow it).
    """

    rows: int
    cols: int
    tiles: tuple[str, ...]
    letter_mult: tuple[int, ...]
    word_mult: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...] = field(repr=False)
    alphabet: Alphabet = field(default=ENGLISH, repr=False)

    @classmethod
    def from_tiles(cls, grid: Sequence[Sequence[str]], bonuses: dict[tuple[int, int], str] | None = None,
                   alphabet: Alphabet = ENGLISH) -> Board:
        """A board from rows of tiles and bonuses keyed by 1-based ``(row, col)``."""
        rows, cols = len(grid), len(grid[0])
        tiles = tuple(t for row in grid for t in row)
        letter_mult = [1] * (rows * cols)
        word_mult = [1] * (rows * cols)
        for (r, c), name in (bonuses or {}).items():
            i = (r - 1) * cols + (c - 1)
            letter_mult[i], word_mult[i] = BONUS_MULTIPLIERS[name]
        return cls(rows, cols, tiles, tuple(letter_mult), tuple(word_mult), king_neighbours(rows, cols), alphabet)

    def with_tiles(self, tiles: Sequence[str]) -> Board:
        """The same shape, bonuses and alphabet with other tiles."""
        return Board(self.rows, self.cols, tuple(tiles), self.letter_mult, self.word_mult, self.neighbours,
                     self.alphabet)

    @property
    def values(self) -> dict[str, int]:
        """Ruzzle letter values of the board's language."""
        return letter_values(self.alphabet.language)

    def tile_codes(self) -> list[tuple[int, ...]]:
        """Each tile's letter indices in the board's alphabet (``a`` = 0)."""
        index = self.alphabet.index
        return [tuple(index[ch] for ch in tile) for tile in self.tiles]

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.rows * self.cols

    def cell_of(self, row: int, col: int) -> int:
        """Internal index of the 1-based cell ``[row, col]``."""
        return (row - 1) * self.cols + (col - 1)

    def row_col(self, cell: int) -> list[int]:
        """The 1-based ``[row, col]`` of an internal cell index."""
        return [cell // self.cols + 1, cell % self.cols + 1]

    def grid(self) -> list[list[str]]:
        """Rows of tiles."""
        return [list(self.tiles[r * self.cols:(r + 1) * self.cols]) for r in range(self.rows)]

    def row_strings(self) -> list[str]:
        """Rows as strings that :func:`parse_row` reads back to the same tiles."""
        out = []
        for row in self.grid():
            compact = "".join(row)
            out.append(compact if parse_row(compact) == row else " ".join(row))
        return out

    def word_of(self, path: Sequence[int]) -> str:
        """The letters a path of cells spells."""
        return "".join(self.tiles[i] for i in path)


def path_score(board: Board, path: Sequence[int], scoring: str) -> int:
    """Points of the word traced by ``path`` under ``scoring`` (``ruzzle``, ``boggle`` or ``none``).

    Ruzzle: tile values times letter bonuses, summed, times every word bonus on the path, plus
    the length bonus. Boggle: by length in letters. ``none``: 0.

    >>> b = Board.from_tiles([["c", "a"], ["t", "s"]], {(1, 1): "TL", (2, 2): "DW"})
    >>> path_score(b, [0, 1, 2, 3], "ruzzle")  # c(4*3) a(1) t(1) s(1) = 15, doubled
    30
    """
    if scoring == "none":
        return 0
    length = sum(len(board.tiles[i]) for i in path)
    if scoring == "boggle":
        return boggle_points(length)
    letters = 0
    word_mult = 1
    for i in path:
        letters += tile_value(board.tiles[i], board.values) * board.letter_mult[i]
        word_mult *= board.word_mult[i]
    return letters * word_mult + ruzzle_length_bonus(length)


def path_matters(board: Board, scoring: str) -> bool:
    """True when two paths spelling the same word can score differently (Ruzzle with bonuses)."""
    return scoring == "ruzzle" and any(m != 1 for m in board.letter_mult + board.word_mult)
