"""The built-in values of a word list: each word's SCOWL level and zipf frequency, from the data of
its language, and the list in frequency order; and the reading of a user's raw entries (folded onto
the alphabet, non-words skipped and told).

Each function returns ``(words, levels, zipf_c)``, the three lists a
:class:`~cpwords.lexicon.core.Lexicon` is made of. ``array_words``: from this many words on, an
English list takes the numpy path of :mod:`cpwords.lexicon.plain` (the same values).

>>> builtin_values_rows(["zyzzyva", "silver", "cat"])
(['silver', 'cat', 'zyzzyva'], [20, 10, 80], [481, 478, 0])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from cpwords.alphabet import ENGLISH, Alphabet
from cpwords.lexicon import builtin
from cpwords.lexicon.rareness import UNKNOWN_LEVEL

if TYPE_CHECKING:
    import numpy as np

#: Longest word kept from a user list (the longest English dictionary words have 45 letters).
MAX_WORD_LETTERS = 64

Values = tuple[list[str], list[int], list[int]]


def values_of_items(words: Iterable[str], name: str, alphabet: Alphabet, check: Callable[[], None] | None,
                    *, array_words: int) -> tuple[Values, tuple[str, ...]]:
    """The values of a user's entries (stripped, lowercased and folded onto ``alphabet``; what is
    then not letters of the alphabet skipped), and the warning that tells what was skipped.
    ``check`` is called now and then (it raises when a solve's time is up)."""
    items = words if isinstance(words, list) else list(words)
    plain = _plain_words(items, array_words) if alphabet is ENGLISH else None
    if plain is not None:  # a big list of plain words (a user's file): no per-word Python work
        from cpwords.lexicon.plain import valued

        return valued(plain, check or _no_check), ()
    seen: dict[str, None] = {}
    skipped = long = 0
    examples: list[str] = []
    for count, raw in enumerate(items):
        if check is not None and not count & 0xFFFF:
            check()
        word = alphabet.fold(str(raw))
        if len(word) > MAX_WORD_LETTERS:
            long += 1  # a megabyte "word" would make every index quadratic in its length
        elif alphabet.is_word(word):
            seen[word] = None
            continue
        else:
            skipped += 1
        if len(examples) < 3:
            examples.append(_shown(str(raw)))
    values = builtin_values(list(seen), alphabet, array_words=array_words)
    if not (skipped or long):
        return values, ()
    parts = [f"{n:,} {'entry' if n == 1 else 'entries'} {what}" for n, what in (
        (skipped, f"that are not words (letters {alphabet.describe()} only)"),
        (long, f"longer than {MAX_WORD_LETTERS} letters")) if n]
    return values, (f"{name}: skipped {' and '.join(parts)}, e.g. {', '.join(examples)}",)


def builtin_values(words: list[str], alphabet: Alphabet, *, array_words: int) -> Values:
    """``words`` with their built-in level and zipf, most frequent first (then by level, then
    alphabetically); numpy for long English lists (a user's list of millions of words)."""
    if alphabet is not ENGLISH:
        return _language_values(words, alphabet)
    if len(words) >= array_words:
        import numpy as np

        from cpwords.lexicon.plain import valued

        encoded = "\n".join(words).encode("ascii").split()  # distinct a-z words (from_words, enable2k)
        rows = np.array(encoded, dtype=f"S{max(map(len, encoded)) + 1}")
        return valued(rows)
    return builtin_values_rows(words)


def builtin_values_rows(words: list[str]) -> Values:
    """:func:`builtin_values` of English words, one word at a time (the reference the numpy path
    of :mod:`cpwords.lexicon.plain` is tested against)."""
    data = builtin.builtin_data()
    index = builtin.word_index()
    american, british = data.codes["american"], data.codes["british"]
    extra: dict[str, int] | None = None
    rows = []
    for w in words:
        i = index.get(w)
        if i is not None:
            code = min(american[i], british[i])
            rows.append((w, builtin.LEVELS[code - 48], data.zipf_c[i]))
        else:
            if extra is None:
                extra = builtin.extra_zipf()
            rows.append((w, UNKNOWN_LEVEL, extra.get(w, 0)))
    return _in_frequency_order(rows)


def _language_values(words: list[str], alphabet: Alphabet) -> Values:
    known, levels, zipf_c = builtin.language_data(alphabet.code)
    index = builtin.language_index(alphabet.code)
    rows = []
    for w in words:
        i = index.get(w)
        rows.append((w, levels[i], zipf_c[i]) if i is not None else (w, UNKNOWN_LEVEL, 0))
    return _in_frequency_order(rows)


def _in_frequency_order(rows: list[tuple[str, int, int]]) -> Values:
    rows.sort(key=lambda r: (-r[2], r[1], r[0]))
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]


def _plain_words(items: list[Any], array_words: int) -> np.ndarray | None:
    """:func:`~cpwords.lexicon.plain.plain_items` of a list long enough for numpy."""
    if len(items) < array_words:
        return None
    from cpwords.lexicon.plain import plain_items

    return plain_items(items, MAX_WORD_LETTERS)


def _no_check() -> None:
    return None


def _shown(entry: str) -> str:
    """An entry as a short quoted example for a warning line."""
    return repr(entry if len(entry) <= 20 else entry[:17] + "...")
