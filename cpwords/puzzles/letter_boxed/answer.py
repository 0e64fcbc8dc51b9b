"""The answer model of Letter Boxed and helpers to build results from word indexes."""

from __future__ import annotations

from cpwords.lexicon import Lexicon
from cpwords.puzzles.letter_boxed.words import WordTable
from cpwords.results import Solution


class LetterBoxedSolution(Solution):
    """One Letter Boxed answer: its words in order, with its total letters and rareness."""

    letters: int = 0
    """Total number of letters of the words."""
    rareness: int = 0
    """Sum of the words' rareness (lower = more common words)."""
    sides: list[str] | None = None
    """The box, for generated puzzles (``task: generate``); None when it is the spec's box."""
    answers_at_par: int | None = None
    """``generate``: how many answers have ``par`` words (fewer = a harder puzzle)."""


def make_solution(table: WordTable, indexes: list[int], lexicon: Lexicon, **extra: object) -> LetterBoxedSolution:
    """The answer made of the table's words at ``indexes``."""
    words = [table.words[i] for i in indexes]
    return LetterBoxedSolution(words=words, letters=sum(map(len, words)),
                               rareness=sum(lexicon.rareness(w) for w in words), **extra)  # type: ignore[arg-type]


def sort_key(rank: str):  # type: ignore[no-untyped-def]
    """Order of answers: fewer words, then fewer letters (or lower rareness), then alphabetical."""
    if rank == "letters":
        return lambda s: (len(s.words), s.letters, s.words)
    return lambda s: (len(s.words), s.rareness, s.words)
