"""The scoring tables of a dictionary's trie: per trie state, its children as a bit mask, its depth
and its letter sum (what :class:`~cpwords.puzzles.ruzzle.scoring.BoardScorer` searches with).

They are derived from the double-array trie once per dictionary and stored beside it in the
lexicon cache (:func:`load_trie_tables`), or computed in memory (:func:`trie_tables`).

>>> from cpwords.puzzles.ruzzle.trie import build_trie
>>> tables = trie_tables(build_trie(["at", "to"]))
>>> tables.depth[tables.is_word].tolist(), tables.letter_sum[tables.is_word].tolist()  # two letters worth 1 each
([2, 2], [2, 2])
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from cpwords.alphabet import ENGLISH, Alphabet
from cpwords.engines.budget import build_checkpoint
from cpwords.lexicon.core import Lexicon
from cpwords.puzzles.ruzzle.board import letter_values
from cpwords.puzzles.ruzzle.trie import CACHE_VERSION as TRIE_CACHE_VERSION
from cpwords.puzzles.ruzzle.trie import LETTER_SLOTS, Trie, load_trie

#: Bump when the cached tables change format or meaning.
TABLES_VERSION = 1


@dataclass(frozen=True)
class TrieTables:
    """A double-array trie as numpy arrays (int64, ``is_word`` bool), with per-state tables for scoring.

    Attributes
    ----------
    base, check:
        The double-array trie (see :class:`~cpwords.puzzles.ruzzle.trie.Trie`): state ``s`` has a
        child by letter ``c`` exactly when ``check[base[s] + c] == s``, and that child is
        ``base[s] + c``.
    kids:
        Bit ``c`` is set when the state has a child by letter ``c``: one shift answers "can this
        path go on with this letter?" without touching ``check``.
    is_word:
        True where a word ends.
    depth:
        Letters from the root (the word's length when ``is_word``).
    letter_sum:
        Sum of the Ruzzle letter values of those letters.
    """

    base: np.ndarray
    check: np.ndarray
    kids: np.ndarray
    is_word: np.ndarray
    depth: np.ndarray
    letter_sum: np.ndarray

    @property
    def states(self) -> int:
        """Length of the arrays (trie states plus free slots)."""
        return len(self.base)


def trie_tables(trie: Trie, alphabet: Alphabet = ENGLISH) -> TrieTables:
    """The scoring tables of a trie, computed in memory (about 0.2 s for 240,000 words)."""
    return _tables(trie, _derived(trie, alphabet))


def load_trie_tables(lexicon: Lexicon) -> tuple[Trie, TrieTables]:
    """The trie of a lexicon and its scoring tables, both through the lexicon cache.

    The derived tables (child masks, depths, letter sums) are stored beside the trie, so a later
    process loads them in milliseconds; this process keeps the last few it loaded.
    """
    from cpwords.lexicon.cache import cached

    key = lexicon.content_hash
    if key in _LOADED:
        return _LOADED[key]
    trie, _ = load_trie(lexicon)
    # The tables follow the trie's state numbering, so its format version is part of the name.
    name = f"ruzzle-scoring-tables-trie{TRIE_CACHE_VERSION}"
    check = functools.partial(build_checkpoint, f"the Ruzzle scoring tables of {lexicon.label}")
    derived = cached(lexicon, name, lambda: _derived(trie, lexicon.alphabet, check), version=TABLES_VERSION)
    if len(derived[0]) != len(trie.base):  # a trie rebuilt differently since: do not trust the file
        derived = _derived(trie, lexicon.alphabet)
    loaded = trie, _tables(trie, derived)
    if len(_LOADED) >= 2:  # keep the last two
        _LOADED.pop(next(iter(_LOADED)))
    _LOADED[key] = loaded
    return loaded


_LOADED: dict[str, tuple[Trie, TrieTables]] = {}


def _letter_value_array(alphabet: Alphabet) -> np.ndarray:
    """Ruzzle value of each letter index of ``alphabet`` (0 for the unused slots)."""
    values = letter_values(alphabet.language)
    return np.array([values[ch] for ch in alphabet.letters] + [0] * (LETTER_SLOTS - alphabet.size), dtype=np.int64)


def _derived(trie: Trie, alphabet: Alphabet = ENGLISH,
             stage: Callable[[], None] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Child masks (int32), depths (int16) and letter sums (int32, the letter values of ``alphabet``'s
    language) of every state of ``trie``. ``stage`` runs between rounds and may raise to stop."""
    letter_value = _letter_value_array(alphabet)
    base = np.frombuffer(trie.base, dtype=np.int32).astype(np.int64)
    check = np.frombuffer(trie.check, dtype=np.int32).astype(np.int64)
    n = len(base)
    child = np.flatnonzero(check >= 0)  # every state but the root
    parent = check[child]
    letter = child - base[parent]
    kids = np.zeros(n, dtype=np.int64)
    np.bitwise_or.at(kids, parent, np.left_shift(1, letter))
    # Depth and letter sum: sums along the path to the root, by pointer jumping (each round
    # doubles the length of path summed; free slots point at the root and add nothing).
    up = np.zeros(n, dtype=np.int64)
    up[child] = parent
    depth = np.zeros(n, dtype=np.int64)
    depth[child] = 1
    letter_sum = np.zeros(n, dtype=np.int64)
    letter_sum[child] = letter_value[letter]
    while up.any():
        if stage is not None:
            stage()
        depth += depth[up]
        letter_sum += letter_sum[up]
        up = up[up]
    return kids.astype(np.int32), depth.astype(np.int16), letter_sum.astype(np.int32)


def _tables(trie: Trie, derived: tuple[np.ndarray, np.ndarray, np.ndarray]) -> TrieTables:
    kids, depth, letter_sum = derived
    return TrieTables(
        base=np.frombuffer(trie.base, dtype=np.int32).astype(np.int64),
        check=np.frombuffer(trie.check, dtype=np.int32).astype(np.int64),
        kids=kids.astype(np.int64),
        is_word=np.frombuffer(trie.is_word, dtype=np.uint8).astype(bool),
        depth=depth.astype(np.int64),
        letter_sum=letter_sum.astype(np.int64),
    )
