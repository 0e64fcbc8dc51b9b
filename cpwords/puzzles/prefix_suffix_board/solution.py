"""The answer model of a prefix/suffix board."""

from __future__ import annotations

from cpwords.results import Difficulty, Solution


class BoardSolution(Solution):
    """A filled board: the token of every slot, and the words of its edges (in board edge order)."""

    tokens: dict[str, str]
    """Slot name -> token (prefix tokens at prefix slots, suffix tokens at suffix slots)."""
    completions: int | None = None
    """For ``generate``: how many boards modulo symmetry fit the player's view (the suffixes), counted."""
    difficulty: Difficulty | None = None
    """For ``generate``: how hard the board's view is (docs/prefix_suffix_board.md)."""
