"""Letter Boxed answers kept compactly: rows of word indexes of the box's word table, four bytes a word.

A box of a dozen letters can have millions of answers of four words. As lists of words they take
about 100 bytes an answer, as Solution objects close to a kilobyte; as rows of indexes, 4 bytes a
word. Every engine's ``enumerate`` gives its answers as :class:`WordRows`; :func:`solutions` sorts
the rows and makes each Solution only when it is read (by the check, by the writers), so a listing
of two million answers is written in a few hundred megabytes.

>>> rows = WordRows(3)
>>> rows.append([4, 0]); rows.append([1, 2, 3])
>>> len(rows), rows[0], rows.matrix().tolist()
(2, [4, 0], [[4, 0, -1], [1, 2, 3]])
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, MutableSequence, Sequence
from functools import partial
from typing import Any, overload

import numpy as np

from cpwords.engines.budget import Budget
from cpwords.engines.found import WRITE_S, WritingHold
from cpwords.lexicon import Lexicon
from cpwords.puzzles.letter_boxed.solution import LetterBoxedSolution
from cpwords.puzzles.letter_boxed.words import WordTable
from cpwords.results import Solutions

#: What fills a row after the last word of an answer shorter than the widest.
PAD = -1


class WordRows(MutableSequence[list[int]]):
    """Answers of at most ``width`` words, each a row of word indexes (a list when read).

    Parameters
    ----------
    width: the most words an answer has (``max_words``).
    rows: answers to start with.
    budget: the search's budget: each answer added holds the time to write it out
        (:data:`~cpwords.engines.found.WRITE_S` of processor time, times how shared the processor
        is now; :meth:`~cpwords.engines.budget.Budget.hold`): answers come faster than they are
        written, and every one found is written within the time limit.
    """

    def __init__(self, width: int, rows: Iterable[Sequence[int]] = (), *, budget: Budget | None = None) -> None:
        self.width = width
        self._flat = array("i")
        self._pad = [PAD] * width
        self._hold = WritingHold(budget, WRITE_S)
        for row in rows:
            self.append(row)

    def _padded(self, indexes: Sequence[int]) -> list[int]:
        if len(indexes) > self.width:
            raise ValueError(f"an answer of {len(indexes)} words in rows of {self.width}")
        return [*indexes, *self._pad[len(indexes):]]

    def append(self, indexes: Sequence[int]) -> None:
        """Add one answer (its word indexes) at the end."""
        self._flat.extend(self._padded(indexes))
        self._hold.add()

    def __len__(self) -> int:
        return len(self._flat) // self.width

    @overload
    def __getitem__(self, index: int) -> list[int]: ...

    @overload
    def __getitem__(self, index: slice) -> WordRows: ...

    def __getitem__(self, index: int | slice) -> list[int] | WordRows:
        if isinstance(index, slice):
            return WordRows(self.width, (self[i] for i in range(len(self))[index]))
        i = range(len(self))[index]  # negative indexes, and IndexError past the end
        return [w for w in self._flat[i * self.width:(i + 1) * self.width] if w != PAD]

    def __setitem__(self, index: Any, value: Any) -> None:
        if isinstance(index, slice):
            raise TypeError("WordRows takes one answer at a time")
        i = range(len(self))[index]
        self._flat[i * self.width:(i + 1) * self.width] = array("i", self._padded(value))

    def __delitem__(self, index: Any) -> None:
        if isinstance(index, slice):
            raise TypeError("WordRows takes one answer at a time")
        i = range(len(self))[index]
        del self._flat[i * self.width:(i + 1) * self.width]

    def insert(self, index: int, value: Sequence[int]) -> None:
        """Add one answer before row ``index``."""
        i = min(max(index if index >= 0 else len(self) + index, 0), len(self))
        self._flat[i * self.width:i * self.width] = array("i", self._padded(value))

    def matrix(self) -> np.ndarray:
        """The rows as an ``(answers, width)`` int32 array, :data:`PAD` after an answer's last word."""
        return np.frombuffer(self._flat, dtype=np.int32).reshape(-1, self.width).copy()


def solutions(rows: Sequence[Sequence[int]], width: int, table: WordTable, lexicon: Lexicon,
              rank: str) -> Solutions[LetterBoxedSolution]:
    """Every answer of ``rows`` (word indexes of ``table``), sorted as :func:`~cpwords.puzzles.
    letter_boxed.solve.sort_key` sorts Solutions: fewer words, then fewer letters (``rank:
    letters``) or lower rareness (``common``), then alphabetically; each made into a
    :class:`LetterBoxedSolution` when read.

    >>> from cpwords.puzzles.letter_boxed.words import Box, playable_words
    >>> lex = Lexicon.from_words(["ace", "eca", "ab", "bad"])
    >>> table = playable_words(Box.from_sides(["ab", "cd", "ef"]), lex)
    >>> a, e = table.position("ace"), table.position("eca")
    >>> [s.words for s in solutions([[e, a], [a, e]], 2, table, lex, "letters")]
    [['ace', 'eca'], ['eca', 'ace']]
    """
    matrix = rows.matrix() if isinstance(rows, WordRows) else WordRows(width, rows).matrix()
    letters = [len(w) for w in table.words]
    rareness = [lexicon.rareness(w) for w in table.words]
    # One more entry at the end of each table: the PAD index (-1) reads it.
    cost = np.array([*(letters if rank == "letters" else rareness), 0], dtype=np.int64)
    alphabetical = np.empty(len(table.words) + 1, dtype=np.int64)
    alphabetical[sorted(range(len(table.words)), key=table.words.__getitem__)] = np.arange(len(table.words))
    alphabetical[-1] = -1
    # np.lexsort sorts by its last key first: number of words, then cost, then the words in turn.
    keys = [alphabetical[matrix[:, j]] for j in reversed(range(width))]
    order = np.lexsort([*keys, cost[matrix].sum(axis=1), (matrix != PAD).sum(axis=1)])
    return Solutions(matrix[order], partial(_solution, table.words, letters, rareness))


def _solution(words: list[str], letters: list[int], rareness: list[int], row: np.ndarray) -> LetterBoxedSolution:
    ids = row.tolist()
    if ids[-1] == PAD:
        del ids[ids.index(PAD):]
    return LetterBoxedSolution.trusted({
        "words": [words[i] for i in ids], "letters": sum(map(letters.__getitem__, ids)),
        "rareness": sum(map(rareness.__getitem__, ids)), "sides": None, "answers_at_par": None, "difficulty": None})
