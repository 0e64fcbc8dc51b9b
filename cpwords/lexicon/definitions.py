"""Offline definitions from WordNet 3.0, read lazily from ``data/definitions.txt.gz``.

The file (written by ``scripts/build_lexicon.py``) holds the glosses of every WordNet lemma that is
a ``scowl-80`` word, WordNet's irregular forms (``*.exc``) and, per word, its senses most frequent
first::

    cpwords-definitions 1
    glosses <n>
    <pos> <gloss>                  n lines; a sense's id is its position here
    exceptions <m>
    <form> <pos> <base> ...        m lines, e.g. "happier adj happy"
    words <k>
    <word> <id> <id> ...           k lines

An inflected form (solves, walked, boxes, happier) resolves to its base form with WordNet's
"morphy" rules: the exception lists first, then suffix rules per part of speech.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from functools import cache
from importlib import resources

FORMAT = "cpwords-definitions 1"

# WordNet's morphy detachment rules (wn morph.c), per part of speech.
RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "noun": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
             ("men", "man"), ("ies", "y")),
    "verb": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
             ("ing", "")),
    "adj": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "adv": (),
}


@dataclass(frozen=True)
class Sense:
    """One meaning of ``lemma`` (the base form the looked-up word resolved to)."""

    lemma: str
    pos: str
    gloss: str


@dataclass(frozen=True)
class _Definitions:
    glosses: list[str]
    exceptions: dict[str, list[tuple[str, str]]]
    words: dict[str, str]


@cache
def _data() -> _Definitions:
    raw = resources.files("cpwords.lexicon.data").joinpath("definitions.txt.gz").read_bytes()
    lines = gzip.decompress(raw).decode("ascii").split("\n")
    if lines[0] != FORMAT:
        raise RuntimeError(f"cpwords definitions data has format {lines[0]!r}, expected {FORMAT!r}")
    n = int(lines[1].split()[1])
    glosses = lines[2 : 2 + n]
    at = 2 + n
    m = int(lines[at].split()[1])
    exceptions: dict[str, list[tuple[str, str]]] = {}
    for line in lines[at + 1 : at + 1 + m]:
        form, pos, *bases = line.split(" ")
        exceptions.setdefault(form, []).extend((pos, b) for b in bases)
    at += 1 + m
    words = dict(line.split(" ", 1) for line in lines[at + 1 :] if line)
    return _Definitions(glosses, exceptions, words)


def _senses_of(lemma: str, pos: str | None = None) -> list[Sense]:
    data = _data()
    ids = data.words.get(lemma)
    if ids is None:
        return []
    out = []
    for i in ids.split(" "):
        p, _, gloss = data.glosses[int(i)].partition(" ")
        if pos is None or p == pos:
            out.append(Sense(lemma, p, gloss))
    return out


def base_forms(word: str) -> list[tuple[str, str]]:
    """(pos, base) pairs an inflected ``word`` may come from, WordNet's exceptions first.

    >>> base_forms("boxes")
    [('noun', 'box'), ('verb', 'box')]
    """
    data = _data()
    found: list[tuple[str, str]] = [pb for pb in data.exceptions.get(word, []) if pb[1] != word]
    for pos, rules in RULES.items():
        for suffix, ending in rules:
            if word.endswith(suffix) and len(word) > len(suffix):
                base = word[: len(word) - len(suffix)] + ending
                if base != word and (pos, base) not in found and _senses_of(base, pos):
                    found.append((pos, base))
    return found


def senses(word: str) -> list[Sense]:
    """Meanings of ``word``: its own WordNet senses, then those of its base forms."""
    word = word.strip().lower()
    out = _senses_of(word)
    for pos, base in base_forms(word):
        out += _senses_of(base, pos)
    return out


def define(word: str) -> list[str]:
    """Definitions of ``word`` as lines ``"noun: gloss"``, or ``"verb (solve): gloss"`` for a base form.

    Empty when WordNet does not know the word.

    >>> define("solves")[0]
    'verb (solve): find the solution to (a problem or question) or understand the meaning of'
    """
    word = word.strip().lower()
    return [
        f"{s.pos}: {s.gloss}" if s.lemma == word else f"{s.pos} ({s.lemma}): {s.gloss}"
        for s in senses(word)
    ]
