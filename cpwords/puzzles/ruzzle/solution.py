"""The answer model of a Ruzzle board: one word with its path and score."""

from __future__ import annotations

from pydantic import Field

from cpwords.results import Solution


class RuzzleSolution(Solution):
    """One word found on the board (``words`` holds just that word)."""

    word: str
    """The word."""
    path: list[list[int]] = Field(default_factory=list)
    """The cells the word follows, as [row, col] pairs (1-based, row 1 at the top), first letter first."""
    score: int = 0
    """Points of the word on this path (0 when scoring is ``none``)."""
    grid: list[str] | None = None
    """The board the word is on, when it is not the spec's grid (``best_board``): rows as strings,
    read like the spec's ``grid``."""
