"""The answer model of a prefix/suffix board."""

from __future__ import annotations

from cpwords.results import Solution


class BoardSolution(Solution):
    """A filled board: the token of every slot, and the words of its edges (in board edge order)."""

    tokens: dict[str, str]
    """Slot name -> token (prefix tokens at prefix slots, suffix tokens at suffix slots)."""
