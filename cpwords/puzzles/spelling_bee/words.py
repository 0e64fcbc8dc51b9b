"""The word table both engines read: the dictionary's words grouped by their set of letters.

A set of letters is a bit mask over the dictionary's alphabet (bit 0 = ``a``; 26 bits for English,
27 with Spanish ñ, 29 with German ä ö ü). A hive allows a word when the word's mask is a
subset of the hive's mask and holds the centre's bit; the words of one mask are all allowed or all
not, so the engines work on masks, each with its number of words and of points.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

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
        """The table of ``words``; ``tick`` is called once a word (a budget's ticker). The alphabet is
        ``alphabet``, else that of ``words`` when it is a Lexicon, else English."""
        letters: Alphabet = alphabet if alphabet is not None else getattr(words, "alphabet", ENGLISH)
        table = cls(min_length, alphabet=letters)
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
