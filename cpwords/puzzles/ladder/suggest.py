"""Suggestions for a word that is not in the dictionary."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cpwords.puzzles.ladder.index import LadderIndex


def nearest_words(index: LadderIndex, word: str, n: int = 5) -> list[str]:
    """Up to ``n`` dictionary words close to ``word``, most frequent first.

    First the words one change away (a letter replaced, added or removed), then, when there are
    none, the most similar words of the same length (``difflib``).

    >>> from cpwords.lexicon import Lexicon
    >>> from cpwords.puzzles.ladder.index import build_index
    >>> nearest_words(build_index(Lexicon.from_words(["cold", "cord", "warm"])), "coldd")
    ['cold']
    """
    edits = set()
    # The dictionary's own letters (a-z, or an Italian, Spanish, German list's): only on a miss.
    alphabet = sorted(set("".join(index.words)))
    for p in range(len(word) + 1):
        head, tail = word[:p], word[p:]
        if tail:
            edits.add(head + tail[1:])  # removed
        for c in alphabet:
            edits.add(head + c + tail)  # added
            if tail:
                edits.add(head + c + tail[1:])  # replaced
    edits.discard(word)
    found = sorted((w for w in edits if w in index), key=index.id_of)
    if found:
        return found[:n]
    same_length = [w for w in index.words if len(w) == len(word)]
    close = difflib.get_close_matches(word, same_length, n=n, cutoff=0.6)
    return sorted(close, key=index.id_of)
