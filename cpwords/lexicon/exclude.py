"""Word lists a dictionary can leave out (``exclude: [offensive]``).

``offensive``: slurs, obscenities and swear words, from WordNet 3.0's own usage labels and glosses
joined with the ``wordfilter`` (MIT) and ``better-profanity`` (MIT) lists; the rule that joins them
is in ``scripts/build_offensive.py``, the list in ``data/offensive.txt`` (licences beside it).
Where cpwords chooses the words itself (every ``generate`` task, the examples, the web pages) the
list is left out by default; a puzzle the user typed is solved with every word unless asked.

>>> "cat" in excluded_words(["offensive"]), len(offensive_words()) > 500
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources

#: Lists that ``exclude`` may name, and the data file of each.
EXCLUDE_LISTS = {"offensive": "offensive.txt"}

#: What is left out by default where cpwords chooses the words (generators, examples, web pages).
GENERATING_EXCLUDE: tuple[str, ...] = ("offensive",)


@cache
def _list(name: str) -> frozenset[str]:
    text = resources.files("cpwords.lexicon.data").joinpath(EXCLUDE_LISTS[name]).read_text(encoding="ascii")
    return frozenset(line.split(" ", 1)[0] for line in text.splitlines() if line and not line.startswith("#"))


def offensive_words() -> frozenset[str]:
    """Every word of the ``offensive`` list."""
    return _list("offensive")


def excluded_words(names: Iterable[str]) -> frozenset[str]:
    """The union of the named lists (a name not in :data:`EXCLUDE_LISTS` is a KeyError)."""
    out: frozenset[str] = frozenset()
    for name in names:
        out |= _list(name)
    return out
