"""The answer model of the template kind: one word, and the letters it leaves.

Fill in: what one answer holds. ``words`` (from ``Solution``) lists the dictionary words the
answer uses; add a field, with a docstring, for everything else a user reads in ``--json``.
"""

from __future__ import annotations

from cpwords.results import Solution


class TemplateSolution(Solution):
    """One word made of the letters (``words`` holds it alone)."""

    left: str = ""
    """The letters the word does not use, in alphabet order."""
