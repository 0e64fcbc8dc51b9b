"""Trie branch-and-bound: walk the board and a trie of the dictionary together.

A path is abandoned as soon as its letters are no prefix of any word (the "bound"). The trie is
a double-array trie: two int32 arrays ``base`` and ``check`` (state ``s`` has a child by letter
``c`` exactly when ``check[base[s] + c] == s``) and a ``bytes`` of end-of-word flags, packed to
about one array entry per trie node. It is built once per dictionary and kept in the lexicon cache,
from which it loads in milliseconds.

>>> from cpwords.puzzles.ruzzle.board import Board
>>> trie = build_trie(["cat", "cats", "act", "at"])
>>> sorted(trie_words(Board.from_tiles([["c", "a"], ["t", "s"]]), trie, min_letters=2))
['act', 'at', 'cat', 'cats']
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cpwords.alphabet import ENGLISH, MAX_LETTERS, Alphabet
from cpwords.puzzles.ruzzle.board import Board, boggle_points, path_matters, tile_value

if TYPE_CHECKING:
    from cpwords.engines.budget import Budget
    from cpwords.lexicon import Lexicon

CACHE_VERSION = 2
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
    word ends. Two int32 arrays of about one entry per trie node: under 5 MB for 240,000 words.
    """

    base: array
    check: array
    is_word: bytes
    nodes: int

    def child(self, state: int, letter: int) -> int:
        """The child state by ``letter`` (an alphabet index), or -1."""
        t = self.base[state] + letter
        return t if self.check[t] == state else -1


def _children(words: Iterable[str], alphabet: Alphabet) -> tuple[list[list[tuple[int, int]]], bytearray]:
    """A plain trie: for each node its (letter, child) pairs in letter order, and end-of-word flags.

    Words are taken in sorted order, so a word shares with the previous one exactly the nodes
    of their common prefix: only the new nodes cost anything.
    """
    children: list[list[tuple[int, int]]] = [[]]
    ends = bytearray(1)
    stack = [0]  # stack[d]: the node of the previous word's first d letters
    previous = ""
    index = alphabet.index
    # Code-point order is letter-index order in every alphabet (ä ö ü and ñ come after z in both).
    for word in sorted(words):
        shared, most = 0, min(len(previous), len(word))
        while shared < most and previous[shared] == word[shared]:
            shared += 1
        del stack[shared + 1:]
        node = stack[shared]
        for ch in word[shared:]:
            child = len(children)
            children[node].append((index[ch], child))
            children.append([])
            ends.append(0)
            stack.append(child)
            node = child
        ends[node] = 1
        previous = word
    return children, ends


def _double_array(words: Iterable[str], alphabet: Alphabet = ENGLISH) -> tuple[array, array, bytes, int]:
    """Base, check and end arrays of the double-array trie of ``words`` (the cached form).

    Nodes are placed breadth first; each node's base is the first position where all of its
    children's slots are free (``bytearray.find`` jumps between free slots in C).
    """
    children, ends = _children(words, alphabet)
    size = len(children) * 2 + 64
    base = array("i", [0]) * size
    check = array("i", [_FREE]) * size
    free = bytearray(b"\x01") * size
    free[0] = 0  # the root
    is_word = bytearray(size)
    first_free = 1
    queue = [(0, 0)]  # (node, state)
    used_max = 0
    for node, state in queue:
        is_word[state] = ends[node]
        kids = children[node]
        if not kids:
            continue
        first_letter = kids[0][0]
        pos = first_free if first_free > first_letter else free.find(1, first_letter + 1)
        while True:
            b = pos - first_letter
            if b + LETTER_SLOTS >= size:  # out of room: grow every array
                extra = size
                base.extend(array("i", [0]) * extra)
                check.extend(array("i", [_FREE]) * extra)
                free.extend(b"\x01" * extra)
                is_word.extend(bytes(extra))
                size += extra
            if len(kids) == 1 or all(free[b + letter] for letter, _ in kids):
                break
            pos = free.find(1, pos + 1)
        base[state] = b
        for letter, child in kids:
            t = b + letter
            free[t] = 0
            check[t] = state
            queue.append((child, t))
            if t > used_max:
                used_max = t
        if not free[first_free]:
            first_free = free.find(1, first_free)
    n = used_max + LETTER_SLOTS + 1  # room for base + any letter slot without a bounds check
    return base[:n], check[:n], bytes(is_word[:n]), len(children)


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
        return _double_array(lexicon, lexicon.alphabet)

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
    values = board.values
    points = [tile_value(t, values) * m if scoring == "ruzzle" else 0
              for t, m in zip(board.tiles, board.letter_mult, strict=True)]
    # Per cell: (neighbour, its letter or -1 for a multi-letter tile, its length, points, word bonus).
    moves = [
        tuple((nb, codes[nb][0] if len(codes[nb]) == 1 else -1, len(codes[nb]), points[nb],
               board.word_mult[nb]) for nb in nbs)
        for nbs in board.neighbours
    ]
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


def trie_of(lexicon: Lexicon) -> tuple[Trie, dict[str, Any]]:
    """The trie of ``lexicon``, kept per process after its first load from the disk cache (a
    load reads and hashes a few MB: ten times the search of a board); and the load figures."""
    from cpwords.puzzles.ruzzle.engines.common import cached_index

    t0 = time.perf_counter()
    (trie, first), built = cached_index("trie", lexicon, lambda: load_trie(lexicon))
    if built:
        return trie, dict(first)
    return trie, {"index_s": round(time.perf_counter() - t0, 6), "trie_built": 0, "trie_nodes": trie.nodes}
