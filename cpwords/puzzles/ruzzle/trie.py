"""Trie branch-and-bound: walk the board and a trie of the dictionary together.

A path is abandoned as soon as its letters are no prefix of any word (the "bound"). The trie is
a double-array trie: two int32 arrays ``base`` and ``check`` (state ``s`` has a child by letter
``c`` exactly when ``check[base[s] + c] == s``) and a ``bytes`` of end-of-word flags, about 2.3
array entries per trie node. It is built once per dictionary and kept in the lexicon cache,
from which it loads in milliseconds.

>>> from cpwords.puzzles.ruzzle.board import Board
>>> trie = build_trie(["cat", "cats", "act", "at"])
>>> sorted(trie_words(Board.from_tiles([["c", "a"], ["t", "s"]]), trie, min_letters=2))
['act', 'at', 'cat', 'cats']
"""

from __future__ import annotations

import functools
import time
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from cpwords.alphabet import ENGLISH, MAX_LETTERS, Alphabet
from cpwords.engines.budget import build_checkpoint
from cpwords.puzzles.ruzzle.board import Board, boggle_points, path_matters, tile_value

if TYPE_CHECKING:
    from cpwords.engines.budget import Budget
    from cpwords.lexicon import Lexicon

CACHE_VERSION = 3
_FREE = -1
#: Child slots per state: room for the letters of any alphabet (German has 29) plus one letter
#: no state has a child by (the scorer's padding cell), so base + letter needs no bounds check.
LETTER_SLOTS = 32
assert MAX_LETTERS < LETTER_SLOTS


@dataclass
class Trie:
    """A dictionary as a double-array trie.

    The root is state 0. State ``s`` has a child by letter ``c`` (its index in the dictionary's
    alphabet: 0–25 for a–z) exactly when
    ``check[base[s] + c] == s``; that child is state ``base[s] + c``. ``is_word[s]`` is 1 where a
    word ends. Two int32 arrays of about 2.3 entries per trie node: about 9 MB for 240,000 words.
    """

    base: array
    check: array
    is_word: bytes
    nodes: int

    def child(self, state: int, letter: int) -> int:
        """The child state by ``letter`` (an alphabet index), or -1."""
        t = self.base[state] + letter
        return t if self.check[t] == state else -1


def _double_array(words: Iterable[str], alphabet: Alphabet = ENGLISH,
                  stage: Callable[[], None] | None = None) -> tuple[array, array, bytes, int]:
    """Base, check and end arrays of the double-array trie of ``words`` (the cached form), built
    with numpy array operations (425,000 words of scowl-95 in about a second, where placing nodes
    one by one took 8-16 s).

    The words are sorted; a trie node is a prefix, so word *i* adds the nodes of its prefixes
    longer than what it shares with word *i-1* (their common prefix, ``lcp``), numbered in that
    order (so a parent is numbered before its children). Each node with children gets a block of
    its own, one slot per letter from its first child's letter to its last: a child's state is its
    parent's ``base`` plus its letter. The blocks follow each other after the first
    :data:`LETTER_SLOTS` slots (so no ``base`` is negative), about 2.3 slots a node.

    ``stage`` runs between the stages and may raise to stop the build.
    """
    stage = stage or _no_check
    ordered = sorted(words)
    stage()
    n = len(ordered)
    if n == 0 or max(map(len, ordered)) == 0:
        size = 2 * LETTER_SLOTS + 1
        empty = bytearray(size)
        empty[0] = 1 if n else 0
        return array("i", [0]) * size, array("i", [_FREE]) * size, bytes(empty), 1
    lengths = np.fromiter(map(len, ordered), np.int64, n)
    codes = _letter_codes(ordered, lengths, alphabet, stage)
    nodes, depth, letter, parent, word_node = _trie_nodes(codes, lengths, stage)
    low = np.full(nodes, 1 << 30, np.int64)
    high = np.full(nodes, -1, np.int64)
    np.minimum.at(low, parent, letter)
    np.maximum.at(high, parent, letter)
    block = np.where(high >= 0, high - low + 1, 0)
    node_base = np.where(high >= 0, LETTER_SLOTS + np.cumsum(block) - block - low, 0)
    state = np.zeros(nodes, np.int64)
    by_depth = np.argsort(depth, kind="stable")
    longest = codes.shape[1] - 1
    bounds = np.searchsorted(depth[by_depth], np.arange(1, longest + 2))
    for d in range(longest):  # a level's states follow from its parents' bases
        level = by_depth[bounds[d]:bounds[d + 1]]
        state[level + 1] = node_base[parent[level]] + letter[level]
    stage()
    size = LETTER_SLOTS + int(block.sum()) + LETTER_SLOTS + 1
    base = np.zeros(size, np.int32)
    check = np.full(size, _FREE, np.int32)
    ends = np.zeros(size, np.uint8)
    base[state] = node_base
    check[state[1:]] = state[parent]
    ends[state[word_node]] = 1
    return array("i", base.tobytes()), array("i", check.tobytes()), ends.tobytes(), nodes


def _letter_codes(ordered: list[str], lengths: np.ndarray, alphabet: Alphabet, stage: Callable[[], None]) -> np.ndarray:
    """The words' letters as alphabet indices, one row a word, -1 after its end (one column more
    than the longest word). Raises ValueError for a letter outside ``alphabet``."""
    n, longest = len(ordered), int(lengths.max())
    points = np.frombuffer("".join(ordered).encode("utf-32-le"), dtype=np.uint32)
    letters = alphabet.letters
    lookup = np.full(max(map(ord, letters)) + 1, -1, np.int16)
    lookup[[ord(ch) for ch in letters]] = np.arange(len(letters))
    if points.size and int(points.max()) >= lookup.size or (lookup[np.minimum(points, lookup.size - 1)] < 0).any():
        bad = next(ch for w in ordered for ch in w if ch not in alphabet.index)
        raise ValueError(f"letter {bad!r} is not in the alphabet ({alphabet.describe()})")
    stage()
    codes = np.full((n, longest + 1), -1, np.int16)  # a word's letters, then -1
    starts = np.cumsum(lengths) - lengths
    codes[np.repeat(np.arange(n), lengths), np.arange(points.size) - np.repeat(starts, lengths)] = lookup[points]
    stage()
    return codes


def _trie_nodes(codes: np.ndarray, lengths: np.ndarray,
                stage: Callable[[], None]) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The trie's nodes from the sorted words' letter ``codes``: ``(nodes, depth, letter, parent,
    word_node)``, the first three per node but the root (node *k* + 1 at index *k*), the last per
    word (the node where it ends)."""
    n = len(lengths)
    same = (codes[1:] == codes[:-1]) & (codes[1:] >= 0)
    lcp = np.zeros(n, np.int64)
    lcp[1:] = np.argmin(same, axis=1)  # the last column is never "same": argmin finds the first difference
    new = lengths - lcp
    first = 1 + np.cumsum(new) - new  # the number of word i's first new node
    nodes = 1 + int(new.sum())
    # shared[i]: the node of word i's first lcp[i] letters, made by the last word j < i that
    # shares fewer letters with its own predecessor.
    shared = np.zeros(n, np.int64)
    index = np.arange(n)
    for d in np.unique(lcp[lcp > 0]).tolist():
        stage()
        at = np.flatnonzero(lcp == d)
        last = np.maximum.accumulate(np.where(lcp < d, index, -1))[at - 1]
        shared[at] = first[last] + d - lcp[last] - 1
    maker = np.repeat(index, new)  # the word that made each node 1 … nodes-1
    step = np.arange(nodes - 1) - np.repeat(first - 1, new)
    depth = lcp[maker] + step + 1
    letter = codes[maker, depth - 1].astype(np.int64)
    parent = np.where(step == 0, shared[maker], np.arange(nodes - 1))
    word_node = np.where(new > 0, first + new - 1, shared)  # a repeated word makes no node
    stage()
    return nodes, depth, letter, parent, word_node


def _no_check() -> None:
    pass


def build_trie(words: Iterable[str], alphabet: Alphabet = ENGLISH) -> Trie:
    """The trie of ``words`` (lowercase letters of ``alphabet``), built in memory without caching."""
    return Trie(*_double_array(words, alphabet))


def load_trie(lexicon) -> tuple[Trie, dict[str, float]]:
    """The trie of a lexicon, read from the lexicon cache when present (built and stored otherwise).

    Returns the trie and figures: ``index_s`` (the whole call), ``trie_built`` (1 when it had
    to be built) and ``trie_nodes``.
    """
    from cpwords.lexicon.cache import cached

    t0 = time.perf_counter()
    built = []

    def build() -> tuple[array, array, bytes, int]:
        built.append(1)
        return _double_array(lexicon, lexicon.alphabet,
                             functools.partial(build_checkpoint, f"the Ruzzle trie of {lexicon.label}"))

    trie = Trie(*cached(lexicon, "ruzzle-trie", build, version=CACHE_VERSION))
    return trie, {"index_s": round(time.perf_counter() - t0, 6), "trie_built": len(built), "trie_nodes": trie.nodes}


def trie_words(board: Board, trie: Trie, *, min_letters: int, scoring: str = "none") -> dict[str, tuple[int, ...]]:
    """Every word of the trie that a path on ``board`` spells, with one path each.

    When the score depends on the path (Ruzzle with bonus squares) the path kept is a
    best-scoring one; otherwise the first found.

    Parameters
    ----------
    board: the board.
    trie: the dictionary, see :func:`build_trie`.
    min_letters: shortest word to report (in letters, a ``qu`` tile counts two).
    scoring: ``ruzzle``, ``boggle`` or ``none`` (only used to choose among paths).

    Returns
    -------
    dict word -> path (tuple of 0-based cell indices).
    """
    return _walk(board, trie, min_letters, scoring, None)[0]


def scored_words(board: Board, trie: Trie, *, min_letters: int, scoring: str = "none",
                 budget: Budget | None = None) -> list[tuple[str, tuple[int, ...], int]]:
    """What :func:`trie_words` finds, with each word's points on its path: ``(word, path, points)``.

    The points come out of the same walk (it carries each path's letter points and word
    multiplier), so they equal ``path_score(board, path, scoring)`` at no extra search cost.

    >>> from cpwords.puzzles.ruzzle.board import Board
    >>> sorted(scored_words(Board.from_tiles([["c", "a"], ["t", "s"]]), build_trie(["cats", "at"]),
    ...                     min_letters=2, scoring="ruzzle"))
    [('at', (1, 2), 2), ('cats', (0, 1, 2, 3), 7)]

    With a ``budget``, the walk stops between starting cells once it is spent: the words found
    so far are returned, and ``budget.expired()`` tells that the list is not complete.
    """
    found, points = _walk(board, trie, min_letters, scoring, budget)
    if scoring == "ruzzle":
        return [(w, p, points[w] + (5 * (len(w) - 4) if len(w) > 4 else 0)) for w, p in found.items()]
    if scoring == "boggle":
        return [(w, p, boggle_points(len(w))) for w, p in found.items()]
    return [(w, p, 0) for w, p in found.items()]


def _walk(board: Board, trie: Trie, min_letters: int, scoring: str,
          budget: Budget | None) -> tuple[dict[str, tuple[int, ...]], dict[str, int]]:
    """The walk behind :func:`trie_words`: each word's path, and (Ruzzle scoring) its letter
    points with bonuses, times its word multipliers (the length bonus not included)."""
    base, check, is_word = trie.base, trie.check, trie.is_word
    codes = board.tile_codes()
    compare = path_matters(board, scoring)
    # Points a cell adds to the letter sum (tile value times letter bonus): what paths compete on,
    # and (Ruzzle scoring) the word's score less its length bonus.
    points, moves = _cell_moves(board, codes, scoring)
    # Cells on the current path: flags set and cleared as the walk goes (a bit mask as one int
    # costs a copy of the whole mask a step: 5 KB on a 200×200 board).
    taken = bytearray(board.size)
    found: dict[str, tuple[int, ...]] = {}
    best: dict[str, int] = {}
    tiles = board.tiles
    path: list[int] = []

    def multi(state: int, cell: int) -> int:
        for letter in codes[cell]:
            t = base[state] + letter
            if check[t] != state:
                return -1
            state = t
        return state

    def visit(cell: int, state: int, letters: int, total: int, factor: int) -> None:
        path.append(cell)
        taken[cell] = 1
        if is_word[state] and letters >= min_letters:
            word = "".join([tiles[i] for i in path])
            if word not in found:
                found[word] = tuple(path)
                best[word] = total * factor
            elif compare and total * factor > best[word]:
                best[word], found[word] = total * factor, tuple(path)
        b = base[state]
        for nb, letter, length, gain, mult in moves[cell]:
            if taken[nb]:
                continue
            if letter >= 0:
                t = b + letter
                if check[t] == state:
                    visit(nb, t, letters + length, total + gain, factor * mult)
            else:
                t = multi(state, nb)
                if t >= 0:
                    visit(nb, t, letters + length, total + gain, factor * mult)
        path.pop()
        taken[cell] = 0

    for cell in range(board.size):
        if budget is not None and cell and cell % 64 == 0 and budget.expired():
            break
        state = multi(0, cell)
        if state >= 0:
            visit(cell, state, len(tiles[cell]), points[cell], board.word_mult[cell])
    return found, best


def _cell_moves(board: Board, codes: list[tuple[int, ...]], scoring: str) -> tuple[list[int], list[tuple[Any, ...]]]:
    """What :func:`_walk` reads at each step: per cell, its points, and its moves: (neighbour, its
    letter or -1 for a multi-letter tile, its length, points, word bonus)."""
    values = board.values
    points = [tile_value(t, values) * m if scoring == "ruzzle" else 0
              for t, m in zip(board.tiles, board.letter_mult, strict=True)]
    moves = [
        tuple((nb, codes[nb][0] if len(codes[nb]) == 1 else -1, len(codes[nb]), points[nb],
               board.word_mult[nb]) for nb in nbs)
        for nbs in board.neighbours
    ]
    return points, moves


def trie_of(lexicon: Lexicon) -> tuple[Trie, dict[str, Any]]:
    """The trie of ``lexicon``, kept per process after its first load from the disk cache (a
    load reads and hashes a few MB: ten times the search of a board); and the load figures."""
    from cpwords.puzzles.ruzzle.engines.common import cached_index

    t0 = time.perf_counter()
    (trie, first), built = cached_index("trie", lexicon, lambda: load_trie(lexicon))
    if built:
        return trie, dict(first)
    return trie, {"index_s": round(time.perf_counter() - t0, 6), "trie_built": 0, "trie_nodes": trie.nodes}
