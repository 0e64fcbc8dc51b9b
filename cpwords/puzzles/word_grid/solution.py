"""The answer model of a word grid."""

from __future__ import annotations

from cpwords.results import Difficulty, Solution


class GridSolution(Solution):
    """One filled grid."""

    rows: list[str]
    """The grid, one string a row; ``#`` marks a black cell."""
    rareness: int | None = None
    """Total rareness of the grid's words (lower = more common words)."""
    swaps: list[list[list[int]]] | None = None
    """For ``unscramble`` and ``puzzle``: the swaps, in order, each a pair of cells [[row, col], [row, col]] (1-based)."""
    scrambled: list[str] | None = None
    """For ``puzzle``: the board the player gets, one string a row (``#`` for black cells)."""
    colors: list[str] | None = None
    """For ``puzzle``: the board's colours, one string a row: ``g`` green (right cell), ``y`` yellow
    (the letter belongs elsewhere in a word through this cell), ``-`` grey, ``#`` black."""
    par: int | None = None
    """For ``puzzle``: the fewest swaps that turn ``scrambled`` into ``rows`` (proven)."""
    difficulty: Difficulty | None = None
    """For ``puzzle``: how hard the board is (docs/word_grid.md)."""
