"""Active dictionary: scan every dictionary word and look for it on the board.

Cheap filters first, vectorised over the whole dictionary with numpy: the word's letters must
all be on the board (a letter-mask test, one bit per letter of the alphabet), then each letter must occur no more often than on the
board (a count test). The few words left are traced on the board by depth-first search.

>>> from cpwords.puzzles.ruzzle.board import Board
>>> index = DictionaryIndex(["cat", "cats", "dog", "act"])
>>> sorted(active_words(Board.from_tiles([["c", "a"], ["t", "s"]]), index, min_letters=2))
['act', 'cat', 'cats']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np

from cpwords.alphabet import ENGLISH, Alphabet
from cpwords.puzzles.ruzzle.board import Board, path_matters, path_score


class DictionaryIndex:
    """The words with their letter masks and letter counts (by alphabet index), as numpy arrays."""

    def __init__(self, words: Iterable[str], alphabet: Alphabet = ENGLISH) -> None:
        self.words: list[str] = list(words)
        self.alphabet = alphabet
        size = alphabet.size  # at most 29 letters: masks fit in uint32
        lengths = np.fromiter((len(w) for w in self.words), dtype=np.int64, count=len(self.words))
        letters = np.frombuffer(alphabet.codes("".join(self.words)), dtype=np.uint8)
        owner = np.repeat(np.arange(len(self.words)), lengths)
        self.counts = np.zeros((len(self.words), size), dtype=np.uint8)
        np.add.at(self.counts, (owner, letters), 1)
        self.masks = ((self.counts > 0).astype(np.uint32) << np.arange(size, dtype=np.uint32)).sum(
            axis=1, dtype=np.uint32)
        self.lengths = lengths


def board_letter_counts(board: Board) -> np.ndarray:
    """How often each letter of the board's alphabet occurs on it (a ``qu`` tile counts a q and a u)."""
    counts = np.zeros(board.alphabet.size, dtype=np.int64)
    for codes in board.tile_codes():
        for c in codes:
            counts[c] += 1
    return counts


def word_paths(board: Board, word: str) -> Iterator[tuple[int, ...]]:
    """Every path of cells spelling ``word`` (tiles matched in turn), by depth-first search.

    >>> list(word_paths(Board.from_tiles([["a", "b"], ["b", "a"]]), "aba"))
    [(0, 1, 3), (0, 2, 3), (3, 1, 0), (3, 2, 0)]
    """
    tiles, neighbours = board.tiles, board.neighbours
    path: list[int] = []

    def extend(cell: int, at: int, used: int) -> Iterator[tuple[int, ...]]:
        path.append(cell)
        if at == len(word):
            yield tuple(path)
        else:
            for nb in neighbours[cell]:
                if not used >> nb & 1 and word.startswith(tiles[nb], at):
                    yield from extend(nb, at + len(tiles[nb]), used | 1 << nb)
        path.pop()

    for cell in range(board.size):
        if word.startswith(tiles[cell]):
            yield from extend(cell, len(tiles[cell]), 1 << cell)


def best_path(board: Board, word: str, scoring: str) -> tuple[int, ...] | None:
    """A best-scoring path spelling ``word`` (the first found when all score alike), or None."""
    paths = word_paths(board, word)
    if not path_matters(board, scoring):
        return next(paths, None)
    return max(paths, key=lambda p: path_score(board, p, scoring), default=None)


def candidate_words(board: Board, index: DictionaryIndex, min_letters: int) -> Sequence[str]:
    """Words that pass the letter filters: right length, letters on the board, not too many of each."""
    counts = board_letter_counts(board)
    board_mask = np.uint32(sum(1 << i for i in range(len(counts)) if counts[i]))
    keep = (index.masks & ~board_mask) == 0
    keep &= (index.lengths >= min_letters) & (index.lengths <= int(counts.sum()))
    rows = np.flatnonzero(keep)
    rows = rows[np.all(index.counts[rows] <= counts, axis=1)]
    return [index.words[i] for i in rows.tolist()]


def active_words(board: Board, index: DictionaryIndex, *, min_letters: int,
                 scoring: str = "none") -> dict[str, tuple[int, ...]]:
    """Every dictionary word found on ``board`` with one path each (the best-scoring one when it matters).

    Parameters
    ----------
    board: the board.
    index: the dictionary, see :class:`DictionaryIndex`.
    min_letters: shortest word to report, in letters.
    scoring: ``ruzzle``, ``boggle`` or ``none`` (chooses among paths).

    Returns
    -------
    dict word -> path (tuple of 0-based cell indices).
    """
    return active_words_within(board, index, min_letters=min_letters, scoring=scoring)[0]


def active_words_within(board: Board, index: DictionaryIndex, *, min_letters: int, scoring: str = "none",
                        expired: Callable[[], bool] | None = None) -> tuple[dict[str, tuple[int, ...]], bool]:
    """:func:`active_words`, stopping when ``expired()`` says so (asked every few candidate
    words: on a big board one word can have thousands of paths); and whether it finished."""
    found: dict[str, tuple[int, ...]] = {}
    for k, word in enumerate(candidate_words(board, index, min_letters)):
        if expired is not None and k % 8 == 0 and expired():
            return found, False
        path = best_path(board, word, scoring)
        if path is not None:
            found[word] = path
    return found, True
