"""The :class:`Lexicon`: a word list in frequency order with SCOWL level, zipf and rareness per word."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from functools import cached_property
from itertools import compress
from typing import TYPE_CHECKING

from cpwords.alphabet import ENGLISH, Alphabet
from cpwords.lexicon.rareness import FORMULA_VERSION, rareness_of
from cpwords.lexicon.values import (  # noqa: F401  (MAX_WORD_LETTERS: importable from here as before)
    MAX_WORD_LETTERS,
    builtin_values,
    builtin_values_rows,
    values_of_items,
)

if TYPE_CHECKING:
    import numpy as np

WORD = re.compile(r"[a-z]+")
#: Word lists at least this long get their built-in values with numpy.
_ARRAY_WORDS = 20_000
#: Lookups of a lexicon that long are answered by scanning its list until the scans have read it
#: this many times; then its set or dict is built (building it costs about 30 reads).
_SCAN_PASSES = 4


class Lexicon:
    """An immutable set of lowercase words of one alphabet, iterated most frequent first.

    Parameters
    ----------
    words:
        The words, already in frequency order and without duplicates.
    levels:
        SCOWL level of each word (``UNKNOWN_LEVEL`` = 100 for words SCOWL lacks).
    zipf_c:
        Zipf frequency of each word times 100 (0 when unknown).
    name:
        Short name, e.g. ``scowl-70`` (``label`` adds the filters).
    warnings:
        What was skipped while reading a user list, as sentences.
    alphabet:
        The letters of the words' language (:mod:`cpwords.alphabet`; English ``a``-``z`` by default):
        puzzles check their letters against it and engines index letters by it.

    Example
    -------
    >>> lex = Lexicon.from_words(["Silver", "solder", "salver"])
    >>> list(lex), "silver" in lex, lex.rareness("silver") < lex.rareness("salver")
    (['silver', 'solder', 'salver'], True, True)
    """

    def __init__(
        self,
        words: list[str],
        levels: list[int],
        zipf_c: list[int],
        *,
        name: str,
        label: str | None = None,
        warnings: Iterable[str] = (),
        alphabet: Alphabet = ENGLISH,
    ) -> None:
        self._words = words
        self._levels = levels
        self._zipf_c = zipf_c
        # Membership needs only a set, built on the first lookup (a kind that never asks, such as
        # the ladder, does not pay for two million hashes); the word -> position dict (slower:
        # one int per word) is built on the first level/zipf/rareness lookup.
        self.name = name
        self.label = label or name
        self.warnings: tuple[str, ...] = tuple(warnings)
        self.alphabet = alphabet
        self.left_out: dict[str, int] = {}
        """Words an ``exclude`` list took out, by list name (``{"offensive": 12}``), set by the loader."""
        self.kept_label = self.label
        """The label without the ``exclude`` lists (which :attr:`left_out` tells), set by the loader."""
        self._scanned = 0  # words read by the lookups answered by a scan (see _scanning)

    def described(self) -> str:
        """The name and what ``exclude`` left out, for a result's ``stats.dictionary``:
        ``common-5k, 12 offensive words left out`` (the bare name when nothing was).

        >>> lex = Lexicon.from_words(["cat"], name="mine"); lex.left_out = {"offensive": 1}
        >>> lex.described()
        'mine, 1 offensive word left out'
        """
        parts = [self.kept_label] + [f"{n:,} {what} word{'' if n == 1 else 's'} left out"
                               for what, n in self.left_out.items()]
        return ", ".join(parts)

    # -- construction

    @classmethod
    def from_words(cls, words: Iterable[str], name: str = "inline", *, label: str | None = None,
                   alphabet: Alphabet = ENGLISH) -> Lexicon:
        """A lexicon of any words; known words get the built-in level and zipf of their language,
        others the rarest.

        Words are stripped, lowercased and folded onto ``alphabet`` (``Città`` -> ``citta`` in
        Italian); anything that is then not letters of the alphabet is skipped and counted in
        :attr:`warnings`.

        >>> from cpwords.alphabet import SPANISH
        >>> Lexicon.from_words(["Niño", "año", "x1"], alphabet=SPANISH).words
        ['año', 'niño']
        """
        return cls._from_items(words, name, label=label, alphabet=alphabet)

    @classmethod
    def _from_items(cls, words: Iterable[str], name: str, *, label: str | None = None,
                    alphabet: Alphabet = ENGLISH, check: Callable[[], None] | None = None) -> Lexicon:
        """:meth:`from_words`, calling ``check`` now and then (it raises when a solve's time is up)."""
        values, warnings = values_of_items(words, name, alphabet, check, array_words=_ARRAY_WORDS)
        return cls(*values, name=name, label=label, warnings=warnings, alphabet=alphabet)

    @classmethod
    def _with_builtin_values(cls, words: list[str], *, name: str, label: str | None = None,
                             alphabet: Alphabet = ENGLISH) -> Lexicon:
        """``words`` with their built-in level and zipf, most frequent first (then by level, then
        alphabetically); see :func:`~cpwords.lexicon.values.builtin_values`."""
        return cls(*builtin_values(words, alphabet, array_words=_ARRAY_WORDS), name=name, label=label, alphabet=alphabet)

    @classmethod
    def _with_builtin_values_rows(cls, words: list[str], *, name: str, label: str | None = None) -> Lexicon:
        """:meth:`_with_builtin_values` of English words, one word at a time (the reference the
        numpy path of :mod:`cpwords.lexicon.plain` is tested against)."""
        return cls(*builtin_values_rows(words), name=name, label=label)

    def filtered(
        self,
        *,
        min_length: int | None = None,
        max_length: int | None = None,
        max_level: int | None = None,
        drop_plurals: bool = False,
        exclude: Collection[str] = frozenset(),
        label: str | None = None,
    ) -> Lexicon:
        """The words that pass the filters, in the same order (``exclude`` is a set of words to leave
        out, e.g. :func:`~cpwords.lexicon.exclude.excluded_words`).

        Plurals are judged after the length and level filters but before ``exclude``: leaving out
        an offensive word does not turn its plural into a plain word (``pasties`` stays a plural
        when ``pastie`` is left out), so a generator and the independent checker agree."""
        if len(self._words) >= _ARRAY_WORDS and not drop_plurals:
            return self._filtered_arrays(min_length, max_length, max_level, exclude, label)
        keep = [
            i
            for i, w in enumerate(self._words)
            if (min_length is None or len(w) >= min_length)
            and (max_length is None or len(w) <= max_length)
            and (max_level is None or self._levels[i] <= max_level)
        ]
        if drop_plurals:
            from cpwords.engines.budget import build_checkpoint

            what = f"the plural-free copy of {self.label}"  # a big list takes seconds: within the limit
            big = len(keep) >= _ARRAY_WORDS  # a short one takes milliseconds: no stop worth it
            if big:
                build_checkpoint(what, kept=False)
            kept = {self._words[i] for i in keep}
            singular: list[int] = []
            for start in range(0, len(keep), 100_000):
                if big:
                    build_checkpoint(what, kept=False)
                singular += [i for i in keep[start:start + 100_000] if not _is_plural_of_member(self._words[i], kept)]
            keep = singular
        if exclude:
            keep = [i for i in keep if self._words[i] not in exclude]
        return Lexicon(
            [self._words[i] for i in keep],
            [self._levels[i] for i in keep],
            [self._zipf_c[i] for i in keep],
            name=self.name,
            label=label or self.label,
            warnings=self.warnings,
            alphabet=self.alphabet,
        )

    def _filtered_arrays(self, min_length: int | None, max_length: int | None, max_level: int | None,
                         exclude: Collection[str], label: str | None) -> Lexicon:
        """:meth:`filtered` without ``drop_plurals`` (:func:`~cpwords.lexicon.plain.kept_mask`)."""
        from cpwords.lexicon.plain import kept_mask

        mask = kept_mask(self._words, self._levels, min_length, max_length, max_level, exclude)
        return Lexicon(list(compress(self._words, mask)), list(compress(self._levels, mask)),
                       list(compress(self._zipf_c, mask)), name=self.name, label=label or self.label,
                       warnings=self.warnings, alphabet=self.alphabet)

    # -- the set of words

    def __contains__(self, word: object) -> bool:
        if "_set" not in self.__dict__ and type(word) is str and self._scanning():
            return self._scanned_position(word) is not None
        return word in self._set

    def _scanning(self) -> bool:
        """Whether to answer a lookup of a big lexicon by scanning its list rather than by
        building its set or position dict (about a second for two million words): while the
        scans so far have read fewer than :data:`_SCAN_PASSES` times its length, so a solve that
        looks up a handful of words (its answer's rareness) never builds them, and one that
        looks up many pays at most a fraction more than building them at once."""
        scanned = self.__dict__.get("_scanned", _SCAN_PASSES * len(self._words))  # (unpickled from older code)
        return len(self._words) >= _ARRAY_WORDS and scanned < _SCAN_PASSES * len(self._words)

    def _scanned_position(self, word: str) -> int | None:
        """The position of ``word`` found by a scan (None when absent), counted against the scans."""
        try:
            i = self._words.index(word)
        except ValueError:
            self._scanned += len(self._words)
            return None
        self._scanned += i + 1
        return i

    def _position(self, word: str) -> int:
        if "_pos" not in self.__dict__ and type(word) is str and self._scanning():
            i = self._scanned_position(word)
            if i is None:
                raise KeyError(word)
            return i
        return self._pos[word]

    @cached_property
    def _set(self) -> frozenset[str]:
        return frozenset(self._words)

    @cached_property
    def _pos(self) -> dict[str, int]:
        return dict(zip(self._words, range(len(self._words)), strict=True))

    def __len__(self) -> int:
        return len(self._words)

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __repr__(self) -> str:
        return f"<Lexicon {self.label}: {len(self):,} words>"

    @property
    def language(self) -> str:
        """The language of the words (``english``, ``italian`` …)."""
        return self.alphabet.language

    @property
    def words(self) -> list[str]:
        """All words, most frequent first (a copy)."""
        return list(self._words)

    def letter_weights(self, top: int = 20_000) -> dict[str, int]:
        """How often each letter occurs in the ``top`` most frequent words, per mille, most common
        first: what generators draw letters by in a language without a table of its own.

        >>> Lexicon.from_words(["aab", "ba"]).letter_weights()
        {'a': 600, 'b': 400}
        """
        counts = Counter(ch for word in self._words[:top] for ch in word)
        total = sum(counts.values()) or 1
        return {ch: round(1000 * n / total) for ch, n in counts.most_common()}

    @cached_property
    def _lengths(self) -> np.ndarray:
        import numpy as np

        return np.fromiter(map(len, self._words), dtype=np.int64, count=len(self._words))

    @cached_property
    def _by_length(self) -> dict[int, list[str]]:
        import numpy as np

        lengths = self._lengths
        order = np.argsort(lengths, kind="stable")  # frequency order within a length
        cuts = np.flatnonzero(np.diff(lengths[order])) + 1
        groups: dict[int, list[str]] = {}
        for ids in np.split(order, cuts) if len(order) else []:
            picked = ids.tolist()
            groups[len(self._words[picked[0]])] = [self._words[i] for i in picked]
        return groups

    def by_length(self, n: int) -> list[str]:
        """Words of ``n`` letters, most frequent first (a copy)."""
        return list(self._by_length.get(n, ()))

    def ids_of_length(self, n: int) -> np.ndarray:
        """Positions (in the lexicon's order) of the words of ``n`` letters: :meth:`by_length`'s
        words are ``words[ids]``, and :meth:`rareness_array` ``[ids]`` their rareness."""
        import numpy as np

        return np.flatnonzero(self._lengths == n)

    def length_counts(self) -> dict[int, int]:
        """Number of words of each length, by increasing length."""
        return {n: len(ws) for n, ws in sorted(self._by_length.items())}

    # -- what is known about a word (KeyError when the word is not in the lexicon)

    def level(self, word: str) -> int:
        """SCOWL level (10 … 95; 100 for a word SCOWL lacks)."""
        return self._levels[self._position(word)]

    def zipf(self, word: str) -> float:
        """Zipf frequency by wordfreq: log10 of occurrences per billion words; 0 when unknown."""
        return self._zipf_c[self._position(word)] / 100

    def rareness(self, word: str) -> int:
        """Integer >= 1, lower = more common; see :mod:`cpwords.lexicon.rareness`."""
        i = self._position(word)
        return rareness_of(self._levels[i], self._zipf_c[i])

    def rareness_map(self) -> dict[str, int]:
        """Word -> rareness for every word (for searches that need them all)."""
        return {w: rareness_of(lv, z) for w, lv, z in zip(self._words, self._levels, self._zipf_c, strict=True)}

    def rareness_array(self) -> np.ndarray:
        """The rareness of every word in the lexicon's order (int64), as :meth:`rareness` gives it.

        :func:`rareness_of` runs once per distinct (level, zipf) pair, a few thousand of them,
        instead of once per word: a fraction of the time for a big dictionary, the same integers.
        """
        import numpy as np

        levels = np.asarray(self._levels, dtype=np.int64)
        zipf_c = np.asarray(self._zipf_c, dtype=np.int64)
        if not len(levels):
            return levels
        low = int(zipf_c.min())
        pairs, which = np.unique((levels << 32) + (zipf_c - low), return_inverse=True)  # zipf_c spans < 2**32
        values = np.array([rareness_of(key >> 32, (key & 0xFFFFFFFF) + low) for key in pairs.tolist()],
                          dtype=np.int64)
        return values[which.reshape(-1)]

    @cached_property
    def content_hash(self) -> str:
        """Hex SHA-256 of the words and their values: equal content, equal hash (for caches)."""
        h = hashlib.sha256(f"cpwords-lexicon {FORMULA_VERSION}\n".encode())
        if self.alphabet is not ENGLISH:  # English hashes stay as they were (caches keep them)
            h.update(f"language {self.alphabet.language}\n".encode())
        h.update("\n".join(self._words).encode("utf-8"))
        h.update(b"\0" + bytes(self._levels))
        # The same text as ",".join(map(str, zipf_c)), a few times faster for millions of words:
        # a list has a few hundred distinct values, each turned into text once.
        text = {z: str(z) for z in set(self._zipf_c)}
        h.update(b"\0" + ",".join(map(text.__getitem__, self._zipf_c)).encode("ascii"))
        return h.hexdigest()


def _is_plural_of_member(word: str, members: set[str]) -> bool:
    return (word.endswith("s") and word[:-1] in members) or (word.endswith("es") and word[:-2] in members)
