"""The answer model of Spelling Bee: one hive with all of its words."""

from __future__ import annotations

from cpwords.results import Difficulty, Solution


class SpellingBeeSolution(Solution):
    """One hive (seven letters and a centre) with every word it allows, best first.

    ``words`` lists the words (pangrams first, then by points, then alphabetically) and
    ``points`` their game scores in the same order.
    """

    letters: str = ""
    """The seven letters of the hive, centre first."""
    center: str = ""
    """The required centre letter."""
    points: list[int] = []
    """Each word's score, in the order of ``words``."""
    pangrams: list[str] = []
    """The words that use all seven letters (worth 7 extra points each)."""
    total: int = 0
    """The sum of the words' scores: the points needed for Queen Bee."""
    ranks: dict[str, int] = {}
    """The game's ranks and the points each needs (Beginner 0 … Queen Bee = ``total``)."""
    difficulty: Difficulty | None = None
    """``generate``: how hard the hive is, from its words, points and pangrams (docs/spelling_bee.md)."""
