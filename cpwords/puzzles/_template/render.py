"""Showing a result of the template kind as text.

Fill in: ``render(spec, result)`` returns a rich renderable (plain text when piped); use
``cpwords.display`` for tables, ``display.safe`` for text the user gave, and end with
``display.status_line``. A kind that draws adds ``svg(spec, result)`` (and ``draws=True`` in its
descriptor), and ``most_pictures(spec)`` when one result makes several pictures.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text

from cpwords import display
from cpwords.wording import counted


def render(spec: Any, result: Any) -> Any:
    """The words with the letters each leaves (a count alone for ``count``)."""
    items: list[Any] = []
    if result.title:
        items.append(Text(display.safe(result.title), style="bold"))
    if result.solutions:
        rows = [(s.words[0], s.left.upper() or "-") for s in result.solutions]
        items.append(display.make_table(["word", "left"], rows, what="word",
                                        title=f"{counted(len(rows), 'word')} from {spec.letters.upper()}"))
    elif result.count is not None:
        items.append(Text(f"{counted(result.count, 'word')} from {spec.letters.upper()}"))
    if result.message:
        items.append(Text(result.message))
    items.append(Text(display.status_line(result), style="dim"))
    return Group(*items)
