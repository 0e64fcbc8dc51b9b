"""The word table both engines read: the dictionary's words grouped by their set of letters.

A set of letters is a bit mask over the dictionary's alphabet (bit 0 = ``a``; 26 bits for English,
27 with Spanish ñ, 29 with German ä ö ü). A hive allows a word when the word's mask is a
subset of the hive's mask and holds the centre's bit; the words of one mask are all allowed or all
not, so the engines work on masks, each with its number of words and of points.
"""

from __future__ import annotations

import gc
from array import array
from collections.abc import Callable, Iterable, Sized
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

import numpy as np

from cpwords.alphabet import ENGLISH, Alphabet

HIVE_SIZE = 7
PANGRAM_BONUS = 7


def mask_of(letters: Iterable[str], alphabet: Alphabet = ENGLISH) -> int:
    """The bit mask of a set of letters.

    >>> bin(mask_of("cab"))
    '0b111'
    """
    index = alphabet.index
    m = 0
    for ch in letters:
        m |= 1 << index[ch]
    return m


def letters_of(mask: int, alphabet: Alphabet = ENGLISH) -> str:
    """The letters of a mask, in alphabet order.

    >>> letters_of(mask_of("hive"))
    'ehiv'
    """
    return "".join(ch for i, ch in enumerate(alphabet.letters) if mask >> i & 1)


#: Words of at most this many letters score 1 point; longer words score 1 point a letter.
SHORT_WORD = 4


def base_points(word: str) -> int:
    """The game's score of a word before any pangram bonus: 1 point for a word of 4 letters (or
    fewer, when ``min_word_length`` lets them count), else 1 point a letter.

    >>> base_points("noon"), base_points("cotton")
    (1, 6)
    """
    return 1 if len(word) <= SHORT_WORD else len(word)


@dataclass
class WordTable:
    """The words that any hive could allow (letters of the alphabet, long enough, at most 7
    different letters), grouped by mask: ``words[m]`` lists them, ``points[m]`` is their total base score."""

    min_length: int
    words: dict[int, list[str]] = field(default_factory=dict)
    points: dict[int, int] = field(default_factory=dict)
    alphabet: Alphabet = ENGLISH
    """The letters the masks' bits stand for (the dictionary's)."""

    @classmethod
    def build(cls, words: Iterable[str], min_length: int = 4, tick: Callable[[], None] | None = None,
              alphabet: Alphabet | None = None) -> WordTable:
        """The table of ``words``; ``tick`` is called between steps (once a word on short lists: a
        budget's ticker; it may raise to stop). The alphabet is ``alphabet``, else that of ``words``
        when it is a Lexicon, else English. Long lists are grouped with numpy
        (:func:`_grouped_arrays`: the same table, in the same order, several times faster)."""
        letters: Alphabet = alphabet if alphabet is not None else getattr(words, "alphabet", ENGLISH)
        table = cls(min_length, alphabet=letters)
        if isinstance(words, Sized) and len(words) >= ARRAY_WORDS:
            table.words, table.points = _grouped_arrays(list(words), min_length, letters, tick)
            return table
        bit = {ch: 1 << i for i, ch in enumerate(letters.letters)}
        for w in words:
            if tick is not None:
                tick()
            if len(w) < min_length or not letters.is_word(w):
                continue
            m = 0
            for ch in set(w):
                m |= bit[ch]
            if m.bit_count() > HIVE_SIZE:
                continue
            table.words.setdefault(m, []).append(w)
            table.points[m] = table.points.get(m, 0) + base_points(w)
        return table

    def __getstate__(self) -> dict[str, Any]:
        """The table as a few flat values (the disk cache pickles it): the masks in order, each
        group's size and points, and every word in one string; a million small lists pickle slowly."""
        masks = list(self.words)
        return {"min_length": self.min_length, "alphabet": self.alphabet, "masks": array("q", masks),
                "sizes": array("q", map(len, self.words.values())), "points": array("q", map(self.points.__getitem__, masks)),
                "text": "\n".join(w for group in self.words.values() for w in group)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        words = state["text"].split("\n") if state["text"] else []
        self.min_length, self.alphabet = state["min_length"], state["alphabet"]
        self.words, start = {}, 0
        for mask, size in zip(state["masks"], state["sizes"], strict=True):
            self.words[mask] = words[start:start + size]
            start += size
        self.points = dict(zip(state["masks"], state["points"], strict=True))

    def mask_of(self, letters: Iterable[str]) -> int:
        """The bit mask of a set of letters of this table's alphabet."""
        return mask_of(letters, self.alphabet)

    def letters_of(self, mask: int) -> str:
        """The letters of a mask, in alphabet order."""
        return letters_of(mask, self.alphabet)

    def pangram_masks(self, avoid: int = 0) -> list[int]:
        """Every mask of exactly seven letters that some word has (a hive needs a pangram), in
        increasing order, leaving out those with an avoided letter."""
        return sorted(m for m in self.words if m.bit_count() == HIVE_SIZE and not m & avoid)

    def hive_words(self, hive: int, center: int) -> list[tuple[str, int, bool]]:
        """The words of one hive with their scores and whether each is a pangram (unordered)."""
        out: list[tuple[str, int, bool]] = []
        sub = hive
        while sub:  # every subset of the hive's mask
            if sub & center and sub in self.words:
                pangram = sub == hive
                out += [(w, base_points(w) + (PANGRAM_BONUS if pangram else 0), pangram)
                        for w in self.words[sub]]
            sub = (sub - 1) & hive
        return out


#: Lists at least this long are grouped with numpy (shorter ones word by word: no set-up cost).
ARRAY_WORDS = 5000
#: Bits set in each 16-bit number (a popcount table for numpy 1.x, which has no ``bitwise_count``).
_BITS16 = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.int8)


def _grouped_arrays(words: list[str], min_length: int, alphabet: Alphabet,
                    stage: Callable[[], None] | None) -> tuple[dict[int, list[str]], dict[int, int]]:
    """:meth:`WordTable.build`'s ``words`` and ``points`` with array operations: each word's mask
    and validity from its code points, then the words grouped by mask, the masks in order of
    their first word and each group's words in list order (what the word-by-word loop makes)."""
    check = stage or (lambda: None)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    check()
    points = np.frombuffer("".join(words).encode("utf-32-le"), dtype=np.uint32)
    codes = [ord(ch) for ch in alphabet.letters]
    top = max(codes) + 1
    bit = np.zeros(top + 1, dtype=np.int64)  # code points past the alphabet's land on ``top``
    bit[codes] = [1 << i for i in range(len(codes))]
    foreign = np.ones(top + 1, dtype=np.int8)
    foreign[codes] = 0
    clipped = np.minimum(points, top)
    check()
    masks = np.zeros(len(words), dtype=np.int64)
    bad = np.ones(len(words), dtype=np.int8)
    full = lengths > 0
    if full.any():
        starts = (np.cumsum(lengths) - lengths)[full]
        masks[full] = np.bitwise_or.reduceat(bit[clipped], starts)
        bad[full] = np.maximum.reduceat(foreign[clipped], starts)
    check()
    count = _BITS16[masks & 0xFFFF].astype(np.int64) + _BITS16[masks >> 16 & 0xFFFF]
    keep = np.flatnonzero((lengths >= min_length) & (bad == 0) & (count <= HIVE_SIZE))
    unique, first, inverse = np.unique(masks[keep], return_index=True, return_inverse=True)
    by_first = np.argsort(first, kind="stable")
    rank = np.empty(len(unique), dtype=np.int64)
    rank[by_first] = np.arange(len(unique))
    group = rank[inverse.reshape(-1)]
    scores = np.where(lengths[keep] <= SHORT_WORD, 1, lengths[keep])
    totals = np.bincount(group, weights=scores, minlength=len(unique)).astype(np.int64).tolist()
    ends = np.cumsum(np.bincount(group, minlength=len(unique))).tolist()
    check()
    ordered = keep[np.argsort(group, kind="stable")].tolist()
    check()
    # Millions of references and tens of thousands of lists: the cyclic garbage collector, which
    # these allocations would set off again and again (0.9 s of 2 s on two million words), waits.
    collecting = gc.isenabled()
    gc.disable()
    try:
        kept = list(itemgetter(*ordered)(words)) if len(ordered) > 1 else [words[i] for i in ordered]
        check()
        grouped: dict[int, list[str]] = {}
        start = 0
        for mask, end in zip(unique[by_first].tolist(), ends, strict=True):
            grouped[mask] = kept[start:end]
            start = end
    finally:
        if collecting:
            gc.enable()
    check()  # the last moment to stop: storing the table takes a few tenths of a second more
    return grouped, dict(zip(grouped, totals, strict=True))
