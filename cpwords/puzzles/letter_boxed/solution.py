"""The answer model of Letter Boxed."""

from __future__ import annotations

from cpwords.results import Difficulty, Solution


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
    difficulty: Difficulty | None = None
    """``generate``: how hard the puzzle is, from ``answers_at_par`` (docs/letter_boxed.md)."""
