"""Ladder facts for ``cpwords dict``: the group-size table of a word length, a word's links and group.

The ``dict`` command (:mod:`cpwords.lexicon.cli`) calls :func:`groups_report` for
``cpwords dict groups NAME --length L`` and :func:`word_rows` for ``cpwords dict info WORD``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cpwords.specs import DictionaryRef


def groups_report(ref: DictionaryRef, length: int, top: int = 10) -> list[Any]:
    """Renderables: a summary line, the table of group sizes and the largest groups of ``length``.

    Raises
    ------
    InputError
        When the dictionary has no word of that length.
    """
    from cpwords.display import make_table
    from cpwords.errors import InputError
    from cpwords.puzzles.ladder.store import load_index

    index = load_index(ref)
    groups = index.groups_of_length(length)
    if not groups:
        raise InputError(f"{index.label} has no word of {length} letters", field="--length", value=length)
    sizes = {g: index.group_size(g) for g in groups}
    n_words = sum(sizes.values())
    ids = [i for g in groups for i in index.members(g)]
    n_links = sum(index.degree(i) for i in ids) // 2
    best = index.most_linked(length)
    best_links = index.degree(index.id_of(best)) if best else 0
    summary = (f"{index.label}, {length}-letter words: {n_words:,} words, {n_links:,} links, {len(groups):,} groups; "
               f"most linked: {best.upper() if best else '-'} ({best_links} links)")
    by_size = Counter(sizes.values())
    size_rows = [[size, count, size * count] for size, count in sorted(by_size.items(), reverse=True)]
    size_table = make_table(["group size", "groups", "words"], size_rows, title="Group sizes",
                            justify=["right", "right", "right"])
    largest = sorted(groups, key=lambda g: (-sizes[g], g))[:top]
    big_rows = []
    for g in largest:
        members = index.members(g)
        sample = ", ".join(index.words[i] for i in members[:6]) + (", …" if len(members) > 6 else "")
        big_rows.append([g, sizes[g], sample])
    big_table = make_table(["group", "words", "most common words"], big_rows, title=f"Largest {len(largest)} groups",
                           justify=["right", "right", "left"])
    return [summary, size_table, big_table]


def word_rows(word: str, ref: DictionaryRef, shown: int = 12) -> list[list[Any]]:
    """Rows for ``cpwords dict info WORD``: the word's group and its links (empty if not a word)."""
    from cpwords.puzzles.ladder.store import load_index

    index = load_index(ref)
    if word not in index:
        return []
    g = index.group_of(word)
    linked = index.linked_words(word)
    text = ", ".join(linked[:shown]) + (f", … ({len(linked) - shown} more)" if len(linked) > shown else "")
    return [
        ["ladder group", f"{g} ({index.group_size(g):,} words of {len(word)} letters)"],
        ["links", f"{len(linked)}: {text}" if linked else "0 (no word is one letter away)"],
    ]
