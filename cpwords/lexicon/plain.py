"""Big plain word lists (a user's file of millions of words, one a-z word a line) read and valued
with numpy: no Python step per word until the final list of strings.

A list of two million words took ten seconds the old way (a Python loop over its lines, a
dictionary lookup per word for its built-in values, a sort of the strings); here the lines become
one numpy array of fixed-width bytes, each word a row, and every word of up to 12 letters one
``uint64`` key (5 bits a letter, so that the keys sort as the words do). One sort of the user's
keys together with the keys of the built-in words finds the duplicates and each word's built-in
level and zipf at once; a second, of one ``int64`` per word, gives the frequency order. What comes
out is what :meth:`Lexicon._with_builtin_values <cpwords.lexicon.core.Lexicon>` gives the same
words: the same order, the same values.

>>> words, levels, zipf_c = valued(plain_words(b"Cat\\nzzxq\\ndog\\ncat\\n"))
>>> words, levels, zipf_c
(['dog', 'cat', 'zzxq'], [10, 10, 100], [510, 478, 0])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from functools import cache
from typing import TYPE_CHECKING, Any

from cpwords.lexicon import builtin
from cpwords.lexicon.rareness import UNKNOWN_LEVEL
from cpwords.lexicon.wordfile import Packed

if TYPE_CHECKING:
    import numpy as np

#: Letters a ``uint64`` key holds (5 bits each; two bits are left for the sort's tag).
KEY_LETTERS = 12
#: What a plain list may hold besides lowercase letters (after lowering): blanks around its words.
_BLANKS = b" \t\r\n"
_LETTERS = bytes(range(ord("a"), ord("z") + 1))
#: A blank between two letters of one line: the line is not one word.
_INNER_BLANK = re.compile(rb"[a-z][ \t\r]+[a-z]")

Check = Callable[[], None]


def _no_check() -> None:
    return None


def plain_words(data: bytes, max_letters: int = 64) -> np.ndarray | None:
    """The words of a word-list file as one numpy array of lowercase ``bytes`` (dtype ``S{n}``,
    one more byte than the longest word, so every row ends in a NUL), when every non-blank line
    of ``data`` is one word of ASCII letters (any case, blanks around it) of at most
    ``max_letters``; None when any line is not (a comment, an accent, two words, a digit, a
    longer word: the caller then reads the file line by line, to say what it skipped).

    >>> plain_words(b"  Cat\\r\\n\\ndog \\n")
    array([b'cat', b'dog'], dtype='|S4')
    >>> plain_words(b"cat\\nhot dog\\n") is None, plain_words(b"caf\\xc3\\xa9\\n") is None
    (True, True)
    """
    import numpy as np

    low = data.lower()
    if low.translate(None, _LETTERS + _BLANKS):
        return None
    if (b" " in low or b"\t" in low or b"\r" in low) and _INNER_BLANK.search(low):
        return None
    lines = low.split()
    if not lines:
        return None
    width = max(map(len, lines))
    if width > max_letters:
        return None
    return np.array(lines, dtype=f"S{width + 1}")


def plain_items(items: list[Any], max_letters: int = 64) -> np.ndarray | None:
    """:func:`plain_words` of a list of items (``Lexicon.from_words``), when each item is one
    word of a-z letters (any case, blanks around it), checked on the joined text at once; None
    when any is not (then each is looked at in turn, to say which are skipped).

    >>> plain_items(["Cat", " dog "]), plain_items(["cat", ""]), plain_items(["cat", "a\\nb"])
    (array([b'cat', b'dog'], dtype='|S4'), None, None)
    """
    if not all(type(x) is str for x in items):
        return None
    text = "\n".join(items)
    if not text.isascii() or text.count("\n") != len(items) - 1:  # an item holding a line break
        return None
    words = plain_words(text.encode("ascii"), max_letters)
    return words if words is not None and len(words) == len(items) else None  # a blank item: say so


def kept_mask(words: list[str], levels: list[int], min_length: int | None, max_length: int | None,
              max_level: int | None, exclude: Collection[str]) -> list[bool]:
    """Which words pass ``Lexicon.filtered``'s filters but ``drop_plurals``, as one numpy mask: a
    fraction of the time of a Python test per word for a user's list of millions of words.

    >>> kept_mask(["the", "cat", "zzxq"], [10, 10, 100], 3, None, 50, {"the"})
    [False, True, False]
    """
    import numpy as np

    n = len(words)
    keep = np.ones(n, dtype=bool)
    if min_length is not None or max_length is not None:
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=n)
        if min_length is not None:
            keep &= lengths >= min_length
        if max_length is not None:
            keep &= lengths <= max_length
    if max_level is not None:
        keep &= np.fromiter(levels, dtype=np.int64, count=n) <= max_level
    if exclude:
        left_out = exclude if isinstance(exclude, (set, frozenset)) else frozenset(exclude)
        keep &= ~np.fromiter(map(left_out.__contains__, words), dtype=bool, count=n)
    mask: list[bool] = keep.tolist()
    return mask


def keys(rows: np.ndarray, chunks: int) -> np.ndarray:
    """``chunks`` ``uint64`` keys per word of ``rows`` (a ``uint8`` matrix, one NUL-padded word a
    row): key ``c`` holds letters ``12c`` … ``12c + 11``, 5 bits each (``a`` = 1, none = 0), the
    first letter highest, so that comparing the keys in turn compares the words as strings do
    (``ab`` < ``aba`` < ``b``).

    >>> import numpy as np
    >>> rows = np.array([b"ab", b"aba", b"b"], dtype="S4").view(np.uint8).reshape(3, 4)
    >>> [int(k) >> 45 for k in keys(rows, 1)[0]]  # the first three letters: 5 bits each
    [1088, 1089, 2048]
    """
    import numpy as np

    out = np.zeros((chunks, rows.shape[0]), dtype=np.uint64)
    for c in range(chunks):
        # One letter position a row of a contiguous copy (always a copy: it is changed below),
        # so that each step reads memory in order.
        letters = rows[:, c * KEY_LETTERS : (c + 1) * KEY_LETTERS].T.copy()
        np.maximum(letters, ord("a") - 1, out=letters)
        letters -= ord("a") - 1  # NUL -> 0, a -> 1 ... z -> 26
        for j, column in enumerate(letters):
            out[c] |= column.astype(np.uint64) << np.uint64(5 * (KEY_LETTERS - 1 - j))
    return out


@cache
def _builtin_words() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every built-in word, then every word of the extra zipf list: their rows (a NUL-padded
    ``uint8`` matrix), lengths, tags (0 built-in, 1 extra: a built-in word's values win), SCOWL
    levels and centi-zipf."""
    import numpy as np

    data = builtin.builtin_data()
    extra = builtin.extra_zipf()
    words = np.array("\n".join([*data.words, *extra]).encode("ascii").split())
    rows = words.view(np.uint8).reshape(len(words), words.dtype.itemsize)
    codes = np.minimum(np.frombuffer(data.codes["american"], dtype=np.uint8),
                       np.frombuffer(data.codes["british"], dtype=np.uint8))
    level_of = np.full(256, UNKNOWN_LEVEL, dtype=np.int64)
    level_of[48 : 48 + len(builtin.LEVELS)] = builtin.LEVELS
    levels = np.concatenate([level_of[codes], np.full(len(extra), UNKNOWN_LEVEL, dtype=np.int64)])
    zipf = np.concatenate([np.asarray(data.zipf_c, dtype=np.int64),
                           np.fromiter(extra.values(), dtype=np.int64, count=len(extra))])
    tags = np.concatenate([np.zeros(len(data.words), dtype=np.uint64), np.ones(len(extra), dtype=np.uint64)])
    return rows, np.char.str_len(words), tags, levels, zipf


@cache
def _builtin_table(chunks: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The keys (``chunks`` of them), tags, levels and centi-zipf of the built-in and extra words
    of at most ``chunks * 12`` letters: the only ones that can be words of a list that long."""
    import numpy as np

    rows, lengths, tags, levels, zipf = _builtin_words()
    fits = np.flatnonzero(lengths <= chunks * KEY_LETTERS)
    return keys(np.take(rows, fits, axis=0), chunks), tags[fits], levels[fits], zipf[fits]


def valued(words: np.ndarray, check: Check = _no_check) -> tuple[list[str], list[int], list[int]]:
    """The distinct words of ``words`` (what :func:`plain_words` gives) with the built-in SCOWL level
    and centi-zipf of each (``UNKNOWN_LEVEL`` and the extra list's zipf, else 0, for words SCOWL
    lacks), most frequent first, then by level, then alphabetically; ``check`` is called between
    the steps (it raises when the time is up)."""
    return valued_packed(words, check).unpacked()


def valued_packed(words: np.ndarray, check: Check = _no_check) -> Packed:
    """:func:`valued` as the bytes the disk cache stores (:class:`~cpwords.lexicon.wordfile.Packed`):
    stored as they are, without turning two million strings and integers back into bytes."""
    import numpy as np

    n, width = len(words), words.dtype.itemsize
    rows = words.view(np.uint8).reshape(n, width)
    chunks = max(1, -(-(width - 1) // KEY_LETTERS))
    user = keys(rows, chunks)
    check()
    if chunks == 1:
        return _valued_short(user[0], check)
    t_keys, t_tags, t_levels, t_zipf = _builtin_table(chunks)
    t_n = len(t_tags)
    # One sort of the table's words (tags 0, 1) and the list's (tag 2): equal words end up side by
    # side, the table's first; a run of equal keys is one word.
    tags = np.concatenate([t_tags, np.full(n, 2, dtype=np.uint64)])
    merged = np.concatenate([t_keys, user], axis=1)
    del user
    if chunks == 1:  # 60 bits of letters, 2 of tag: one argsort of one integer
        order = np.argsort((merged[0] << np.uint64(2)) | tags)
    else:
        order = np.lexsort((tags, *merged[::-1]))
    merged = np.take(merged, order, axis=1)
    tags = np.take(tags, order)
    first = np.ones(len(order), dtype=bool)
    first[1:] = (merged[:, 1:] != merged[:, :-1]).any(axis=0)
    del merged
    check()
    starts = np.flatnonzero(first)
    ends = np.append(starts[1:], len(order)) - 1
    with_user = tags[ends] == 2  # the list's words, alphabetically
    starts, ends = starts[with_user], ends[with_user]
    known = tags[starts] < 2
    table_row = order[starts[known]]
    levels = np.full(len(starts), UNKNOWN_LEVEL, dtype=np.int64)
    zipf = np.zeros(len(starts), dtype=np.int64)
    levels[known] = t_levels[table_row]
    zipf[known] = t_zipf[table_row]
    user_row = np.take(order, ends) - t_n
    del order, tags, first
    m = len(user_row)
    # Most frequent first, then by level, then alphabetically: one int64 key (level < 128).
    rank = ((int(zipf.max()) - zipf) * 128 + levels) * m + np.arange(m, dtype=np.int64)
    final = np.argsort(rank)
    check()
    out = np.take(rows, np.take(user_row, final), axis=0)
    out[:, -1] = ord("\n")  # always a NUL (rows are a byte longer than the longest word)
    text = out.tobytes().translate(None, b"\0")[:-1]
    return Packed(m, text, levels[final].astype(np.uint8).tobytes(), zipf[final].astype("<i4").tobytes())


@cache
def _short_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The keys of the built-in and extra words of at most 12 letters, sorted (a word in both
    lists once, with its built-in values), and the SCOWL level and centi-zipf of each."""
    import numpy as np

    t_keys, t_tags, t_levels, t_zipf = _builtin_table(1)
    order = np.lexsort((t_tags, t_keys[0]))
    sorted_keys = t_keys[0][order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = sorted_keys[1:] != sorted_keys[:-1]
    order = order[first]
    return sorted_keys[first], t_levels[order], t_zipf[order]


@cache
def _three_letters() -> np.ndarray:
    """15 bits of a key (three letters) -> their three ASCII bytes in a little-endian ``uint32``
    (a NUL for no letter, and a NUL in the fourth byte: both dropped when the text is made)."""
    import numpy as np

    bits = np.arange(1 << 15, dtype=np.uint32)
    letter = np.zeros(32, dtype=np.uint32)
    letter[1:27] = np.arange(ord("a"), ord("z") + 1)
    out = np.zeros(1 << 15, dtype=np.uint32)
    for j in range(3):
        out |= letter[(bits >> np.uint32(5 * (2 - j))) & np.uint32(31)] << np.uint32(8 * j)
    return out


def _valued_short(user: np.ndarray, check: Check) -> Packed:
    """:func:`valued_packed` of words of at most 12 letters, from their keys alone: each key is
    its word, so sorting the keys (no argsort) and decoding them again gives the words, and a
    binary search in the built-in words' sorted keys gives their values."""
    import numpy as np

    user = np.sort(user)
    distinct = np.ones(len(user), dtype=bool)
    np.not_equal(user[1:], user[:-1], out=distinct[1:])
    user = user[distinct]  # the list's words, alphabetically
    t_keys, t_levels, t_zipf = _short_table()
    at = np.minimum(np.searchsorted(t_keys, user), len(t_keys) - 1)
    known = t_keys[at] == user
    levels = np.where(known, t_levels[at], UNKNOWN_LEVEL)
    zipf = np.where(known, t_zipf[at], 0)
    check()
    m = len(user)
    # Most frequent first, then by level, then alphabetically: one int64 key (level < 128) whose
    # sorted values, modulo m, are the alphabetical positions in that order.
    rank = ((int(zipf.max()) - zipf) * 128 + levels) * m + np.arange(m, dtype=np.int64)
    rank.sort()
    final = rank % m
    ordered = user[final]
    check()
    three = _three_letters()
    out = np.empty((m, 5), dtype=np.uint32)
    for group in range(4):
        bits = (ordered >> np.uint64(15 * (3 - group))) & np.uint64(0x7FFF)
        out[:, group] = three[bits.astype(np.intp)]
    out[:, 4] = ord("\n")
    text = out.astype("<u4", copy=False).tobytes().translate(None, b"\0")[:-1]
    return Packed(m, text, levels[final].astype(np.uint8).tobytes(), zipf[final].astype("<i4").tobytes())
