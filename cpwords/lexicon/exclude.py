"""Word lists a dictionary can leave out (``exclude: [offensive]``).

``offensive``: slurs, obscenities and swear words, from WordNet 3.0's own usage labels and glosses
joined with the ``wordfilter`` (MIT) and ``better-profanity`` (MIT) lists (a listed word with a slur or
obscene sense is in unless that sense is one among many everyday ones: ``screw`` and ``kill`` stay); the rule that joins them
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
from typing import Any

#: Lists that ``exclude`` may name, and the data file of each.
EXCLUDE_LISTS = {"offensive": "offensive.txt"}

#: What is left out by default where cpwords chooses the words (generators, examples, web pages).
GENERATING_EXCLUDE: tuple[str, ...] = ("offensive",)

#: Tasks in which cpwords chooses the words itself (``generate`` of every kind, Ruzzle's ``best_board``,
#: the word-grid ``fill``, a filled grid being a generated one, and the word grid's ``puzzle``).
GENERATING_TASKS: frozenset[str] = frozenset({"generate", "best_board", "fill", "puzzle"})


def is_generating(task: str | None) -> bool:
    """True for a task in which cpwords chooses the words (so offensive words are left out by default).

    >>> is_generating("generate"), is_generating("fill"), is_generating("solve")
    (True, True, False)
    """
    return task in GENERATING_TASKS


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


def chosen_for_others(spec: Any) -> Any:
    """A copy of ``spec`` whose dictionary leaves :data:`GENERATING_EXCLUDE` out unless the spec
    sets ``exclude`` itself (even ``[]``), whatever its task: for callers that show words to
    people who did not choose the dictionary (the web pages). Specs without a dictionary come back
    unchanged.

    >>> from types import SimpleNamespace
    >>> from cpwords.specs import DictionaryRef
    >>> class Spec(SimpleNamespace):
    ...     def model_copy(self, update): return Spec(**{**vars(self), **update})
    >>> chosen_for_others(Spec(dictionary=DictionaryRef(name="scowl-70"))).dictionary.exclude
    ['offensive']
    """
    ref = getattr(spec, "dictionary", None)
    if ref is None or not hasattr(ref, "with_default_exclude"):
        return spec
    return spec.model_copy(update={"dictionary": ref.with_default_exclude(GENERATING_EXCLUDE)})
