"""Alphabets: the letters of a dictionary's language, and how typed text folds onto them.

Every word list and every letter a user types goes through one :class:`Alphabet`: the text is
lowercased (Unicode NFC, so a combining accent and a precomposed one are the same letter), then
*folded* the way the language's word games fold it, then checked letter by letter. Italian and
French Ruzzle / Scrabble tiles carry no accents (``città`` is played as ``citta``); Spanish keeps
``ñ`` as a letter of its own and drops the other accents; German keeps ``ä ö ü`` and writes
``ß`` as ``ss`` (as German Scrabble does). English folds nothing: a word with an accent is not an
English puzzle word.

Engines index letters by :meth:`Alphabet.index` (0 … size-1, ``a`` = 0), never by ``ord(ch) - 97``;
:meth:`Alphabet.codes` turns a whole word into those indices at C speed.

>>> ITALIAN.fold("Città"), SPANISH.fold("NIÑO"), GERMAN.fold("Straße"), FRENCH.fold("Cœur")
('citta', 'niño', 'strasse', 'coeur')
>>> SPANISH.size, SPANISH.index["ñ"], GERMAN.describe()
(27, 26, 'a-z, ä, ö and ü')
>>> alphabet_of("de") is GERMAN, ENGLISH.bad_letter("café")
(True, 'é')
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property

ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyz"

#: Accented Latin letters and the plain letters they fold to, for languages that fold accents.
_LATIN_FOLDS: dict[str, str] = {
    **dict.fromkeys("àáâãäåā", "a"), "æ": "ae", **dict.fromkeys("çćč", "c"),
    **dict.fromkeys("èéêëēę", "e"), **dict.fromkeys("ìíîïī", "i"), **dict.fromkeys("ñń", "n"),
    **dict.fromkeys("òóôõöøō", "o"), "œ": "oe", **dict.fromkeys("ùúûüū", "u"), **dict.fromkeys("ýÿ", "y"),
    "ß": "ss", **dict.fromkeys("śš", "s"), **dict.fromkeys("źżž", "z"), "ł": "l",
}


@dataclass(frozen=True)
class Alphabet:
    """The letters of one language and the folding its word games apply.

    Parameters
    ----------
    language:
        English name of the language (``italian``); also the built-in dictionary's name.
    code:
        Its ISO 639-1 code (``it``), accepted as a short name.
    extra:
        Letters beyond ``a``-``z``, in index order after ``z``.
    folds:
        Letter -> replacement applied after lowercasing (a letter may become two: ``ß`` -> ``ss``).
    """

    language: str
    code: str
    extra: str = ""
    folds: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @cached_property
    def letters(self) -> str:
        """Every letter, in index order (``a`` … ``z`` then the extra ones)."""
        return ASCII_LETTERS + self.extra

    @property
    def size(self) -> int:
        """Number of letters (26 for English)."""
        return len(self.letters)

    @cached_property
    def index(self) -> dict[str, int]:
        """Letter -> its index, 0 … size-1."""
        return {ch: i for i, ch in enumerate(self.letters)}

    @cached_property
    def _fold_table(self) -> dict[int, str]:
        return {ord(k): v for k, v in self.folds.items()}

    @cached_property
    def _code_table(self) -> dict[int, int]:
        return {ord(ch): i for i, ch in enumerate(self.letters)}

    def fold(self, text: str) -> str:
        """``text`` stripped, lowercased and folded onto this alphabet (other characters are kept,
        for :meth:`bad_letter` to report)."""
        text = unicodedata.normalize("NFC", str(text).strip().lower())
        return text.translate(self._fold_table) if self.folds and not text.isascii() else text

    def bad_letter(self, folded: str) -> str | None:
        """The first character of an already folded text that is not a letter of the alphabet."""
        if self._word.fullmatch(folded):
            return None
        for ch in folded:
            if ch not in self.index:
                return ch
        return None

    def is_word(self, folded: str) -> bool:
        """True when a folded text is one or more letters of the alphabet."""
        return self._word.fullmatch(folded) is not None

    @cached_property
    def _word(self) -> re.Pattern[str]:
        return re.compile(f"[a-z{self.extra}]+")

    def codes(self, word: str) -> bytes:
        """The letter indices of a word of this alphabet, one byte each (fast: ``str.translate``).

        >>> list(SPANISH.codes("año"))
        [0, 26, 14]
        """
        if word.isascii():
            return bytes(word, "ascii").translate(_ASCII_CODES)
        return word.translate(self._code_table).encode("latin-1")

    def letter_of(self, i: int) -> str:
        """The letter with index ``i``."""
        return self.letters[i]

    def describe(self) -> str:
        """The letters for a message: ``a-z``, ``a-z and ñ``, ``a-z, ä, ö and ü``."""
        parts = ["a-z", *self.extra]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    def rule(self) -> str:
        """How text is folded, for documentation and ``dict info``."""
        if not self.folds:
            return "no folding: other letters are not words"
        kept = f"keeps {', '.join(self.extra)}; " if self.extra else ""
        return f"{kept}folds other accents to the plain letter" + ("; ß -> ss" if self.language == "german" else "")


_ASCII_CODES = bytes((c - 97) if 97 <= c <= 122 else 255 for c in range(256))


def _folds_keeping(kept: str) -> dict[str, str]:
    return {k: v for k, v in _LATIN_FOLDS.items() if k not in kept}


ENGLISH = Alphabet("english", "en")
ITALIAN = Alphabet("italian", "it", folds=_folds_keeping(""))
SPANISH = Alphabet("spanish", "es", extra="ñ", folds=_folds_keeping("ñ"))
GERMAN = Alphabet("german", "de", extra="äöü", folds=_folds_keeping("äöü"))
FRENCH = Alphabet("french", "fr", folds=_folds_keeping(""))

#: Every alphabet by language name.
ALPHABETS: dict[str, Alphabet] = {a.language: a for a in (ENGLISH, ITALIAN, SPANISH, GERMAN, FRENCH)}

#: The largest alphabet (German: 29 letters); letter sets fit in 32-bit masks.
MAX_LETTERS = max(a.size for a in ALPHABETS.values())


def language_name(name: str) -> str | None:
    """The language a name or ISO code stands for (``it`` -> ``italian``), or None."""
    key = str(name).strip().lower()
    for a in ALPHABETS.values():
        if key in (a.language, a.code):
            return a.language
    return None


def alphabet_of(language: str | None) -> Alphabet:
    """The alphabet of a language name or code (None: English); KeyError for an unknown one."""
    if language is None:
        return ENGLISH
    name = language_name(language)
    if name is None:
        raise KeyError(language)
    return ALPHABETS[name]
