"""The answer model of a word grid."""

from __future__ import annotations

from cpwords.results import Solution


class GridSolution(Solution):
    """One filled grid."""

    rows: list[str]
    """The grid, one string a row; ``#`` marks a black cell."""
    rareness: int | None = None
    """Total rareness of the grid's words (lower = more common words)."""
    swaps: list[list[list[int]]] | None = None
    """For ``unscramble``: the swaps, in order, each a pair of cells [[row, col], [row, col]] (1-based)."""
