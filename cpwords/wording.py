"""How counts are written in messages: a number and its noun, agreeing in number.

>>> counted(1, "word"), counted(12_000, "word"), counted(0, "answer")
('1 word', '12,000 words', '0 answers')
>>> counted(1, "box", "boxes"), counted(3, "box", "boxes"), plural(2, "hive")
('1 box', '3 boxes', 'hives')
"""

from __future__ import annotations


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``noun`` for one, ``many`` (default ``noun + "s"``) for any other number."""
    return noun if n == 1 else many or noun + "s"


def counted(n: int, noun: str, many: str | None = None) -> str:
    """``n`` with thousands separators and its noun in the right number."""
    return f"{n:,} {plural(n, noun, many)}"
