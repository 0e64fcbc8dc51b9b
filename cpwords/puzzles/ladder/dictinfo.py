"""Ladder facts about a dictionary: the word groups of one length, and a word's links and group.

``cpwords ladder --groups L`` prints :func:`groups_report` (or :func:`groups_data` as JSON);
``cpwords dict info WORD`` and the web API add :func:`word_rows` through the kind's descriptor
(``word_facts``), so the dictionary commands need not know about ladders.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from cpwords.wording import counted

if TYPE_CHECKING:
    from cpwords.specs import DictionaryRef


def groups_data(ref: DictionaryRef, length: int, top: int = 10) -> dict[str, Any]:
    """The groups of the ``length``-letter words as plain data: totals, sizes, the largest groups.

    Raises
    ------
    InputError
        When the dictionary has no word of that length.
    """
    from cpwords.errors import InputError
    from cpwords.puzzles.ladder.store import load_index

    index = load_index(ref)
    groups = index.groups_of_length(length)
    if not groups:
        raise InputError(f"{ref.label()} has no word of {counted(length, 'letter')}", field="--groups", value=length)
    sizes = {g: index.group_size(g) for g in groups}
    ids = [i for g in groups for i in index.members(g)]
    best = index.most_linked(length)
    largest = sorted(groups, key=lambda g: (-sizes[g], g))[:top]
    return {
        "dictionary": ref.label(),
        "length": length,
        "words": sum(sizes.values()),
        "links": sum(index.degree(i) for i in ids) // 2,
        "groups": len(groups),
        "most_linked": {"word": best, "links": index.degree(index.id_of(best)) if best else 0},
        "group_sizes": {str(size): count for size, count in sorted(Counter(sizes.values()).items(), reverse=True)},
        "largest": [{"group": g, "size": sizes[g], "most_common": [index.words[i] for i in index.members(g)[:6]]}
                    for g in largest],
    }


def groups_report(ref: DictionaryRef, length: int, top: int = 10) -> list[Any]:
    """Renderables: a summary line, the table of group sizes and the largest groups of ``length``."""
    from cpwords.display import make_table

    data = groups_data(ref, length, top)
    best = data["most_linked"]
    summary = (f"{data['dictionary']}, {length}-letter words: {counted(data['words'], 'word')}, "
               f"{counted(data['links'], 'link')}, {counted(data['groups'], 'group')}; most linked: "
               f"{(best['word'] or '-').upper()} ({counted(best['links'], 'link')})")
    size_rows = [[int(size), count, int(size) * count] for size, count in data["group_sizes"].items()]
    size_table = make_table(["group size", "groups", "words"], size_rows, title="Group sizes",
                            justify=["right", "right", "right"])
    big_rows = [[g["group"], g["size"], ", ".join(g["most_common"]) + (", …" if g["size"] > 6 else "")]
                for g in data["largest"]]
    big_table = make_table(["group", "words", "most common words"], big_rows,
                           title="Largest group" if len(data["largest"]) == 1 else f"Largest {len(data['largest'])} groups",
                           justify=["right", "right", "left"])
    return [summary, size_table, big_table]


def word_rows(word: str, ref: DictionaryRef, shown: int = 12) -> list[tuple[str, Any, str]]:
    """(label, data, text) facts about a dictionary word: its ladder group and its links (empty if
    not a word); ``data`` for JSON, ``text`` for a table."""
    from cpwords.puzzles.ladder.store import load_index

    index = load_index(ref)
    if word not in index:
        return []
    g = index.group_of(word)
    size = index.group_size(g)
    linked = index.linked_words(word)
    more = max(0, len(linked) - shown)
    links_text = (f"{len(linked)}: {', '.join(linked[:shown])}" + (f", … ({more} more)" if more else "")
                  if linked else "0 (no word is one letter away)")
    return [
        ("ladder_group", {"group": g, "size": size, "length": len(word)},
         f"{g} ({counted(size, 'word')} of {counted(len(word), 'letter')})"),
        ("links", {"count": len(linked), "words": linked[:shown], "more": more}, links_text),
    ]
