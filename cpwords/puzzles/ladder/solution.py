"""The ladder's answer model (kept apart from the search so the checker can import it lightly)."""

from __future__ import annotations

from typing import Literal

from cpwords.results import Difficulty, Solution


class LadderSolution(Solution):
    """One ladder: ``words`` from start to target, each one letter away from the one before."""

    mode: Literal["shortest", "common"]
    """``shortest``: fewest changes; ``common``: least total rareness of the words after the start."""
    steps: int
    """Number of changes (one less than the number of words)."""
    rareness: int
    """Total rareness of the words after the start (lower = more common words)."""
    word_rareness: list[int]
    """Rareness of each word of the ladder, start included (the start does not count in ``rareness``)."""
    definitions: list[list[str]] | None = None
    """Definitions of each word (WordNet), when asked for with ``define``."""
    ladders: int | None = None
    """``generate``: how many shortest ladders the puzzle has (fewer = harder)."""
    difficulty: Difficulty | None = None
    """``generate``: how hard the puzzle is (docs/ladder.md)."""
