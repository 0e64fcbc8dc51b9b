"""Paths on the board: full enumeration (the baseline word finder) and exact path counts.

``enumerate_words`` walks every simple king path of the board, with no pruning at all, one
length at a time: all paths of k cells are numpy arrays (last cell, visited mask, the cells
packed 4 bits each, a 64-bit hash of the letters), extended to k + 1 cells in eight vectorised
moves. A path whose hash is a dictionary word's hash is spelled out and looked up exactly, so a
hash collision can never add a word.

``count_paths`` counts the simple paths of each length exactly by dynamic programming over
(visited set, last cell), one visited-set size at a time.

>>> count_paths(3, 3)[2], sum(n for k, n in count_paths(3, 3).items() if k >= 2)
(40, 10296)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from cpwords.puzzles.ruzzle.board import Board, king_neighbours, path_matters, path_score

MAX_ENUMERATE_CELLS = 16
MAX_COUNT_CELLS = 20
_P = np.uint64(1_000_003)  # hash multiplier (odd, so no letters are lost modulo 2**64)
_FILTER_BITS = 24


def _letters_hash(text: str) -> int:
    """The 64-bit polynomial hash enumerate_words gives a letter string."""
    h = 0
    for ch in text:
        h = (h * int(_P) + ord(ch) - 96) & 0xFFFF_FFFF_FFFF_FFFF
    return h


class HashedDictionary:
    """The dictionary as sorted 64-bit hashes plus a bitmap of their low bits (a fast first test)."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = words if isinstance(words, (set, frozenset)) else set(words)
        self.hashes = np.unique(np.fromiter((_letters_hash(w) for w in self.words), dtype=np.uint64))
        self.bitmap = np.zeros(1 << _FILTER_BITS, dtype=bool)
        self.bitmap[(self.hashes & np.uint64((1 << _FILTER_BITS) - 1)).astype(np.int64)] = True

    def maybe(self, hashes: np.ndarray) -> np.ndarray:
        """Indices of ``hashes`` that are dictionary hashes."""
        low = (hashes & np.uint64((1 << _FILTER_BITS) - 1)).astype(np.int64)
        rows = np.flatnonzero(self.bitmap[low])
        if rows.size == 0:
            return rows
        pos = np.searchsorted(self.hashes, hashes[rows])
        pos[pos == self.hashes.size] = 0
        return rows[self.hashes[pos] == hashes[rows]]


def _neighbour_table(board: Board) -> np.ndarray:
    """(cells, 8) neighbour indices, padded with the sentinel cell ``board.size``."""
    table = np.full((board.size, 8), board.size, dtype=np.uint8)
    for cell, nbs in enumerate(board.neighbours):
        table[cell, : len(nbs)] = nbs
    return table


def enumerate_words(board: Board, dictionary: HashedDictionary, *, min_letters: int,
                    scoring: str = "none") -> tuple[dict[str, tuple[int, ...]], dict[int, int]]:
    """Every dictionary word on ``board`` by walking all simple paths (no pruning).

    Parameters
    ----------
    board: the board, at most 16 cells.
    dictionary: see :class:`HashedDictionary`.
    min_letters: shortest word to report, in letters.
    scoring: chooses among paths of the same word (best-scoring kept when it matters).

    Returns
    -------
    (dict word -> path, number of paths walked by length in cells).

    Raises
    ------
    ValueError
        For a board of more than 16 cells (4 bits a cell in the packed path).
    """
    found, walked, _ = enumerate_words_within(board, dictionary, min_letters=min_letters, scoring=scoring)
    return found, walked


def enumerate_words_within(board: Board, dictionary: HashedDictionary, *, min_letters: int, scoring: str = "none",
                           expired: Callable[[], bool] | None = None
                           ) -> tuple[dict[str, tuple[int, ...]], dict[int, int], bool]:
    """:func:`enumerate_words`, stopping when ``expired()`` says so (asked between path lengths
    and every few thousand candidate paths); and whether the walk finished."""
    n = board.size
    if n > MAX_ENUMERATE_CELLS:
        raise ValueError(f"full enumeration handles at most {MAX_ENUMERATE_CELLS} cells")
    table = _neighbour_table(board)
    tile_mult = np.array([pow(int(_P), len(t), 1 << 64) for t in board.tiles] + [0], dtype=np.uint64)
    tile_hash = np.array([_letters_hash(t) for t in board.tiles] + [0], dtype=np.uint64)
    # Narrow types keep the widest layer (2.6 million paths of 13 cells on 4x4) small.
    cell_bit = (1 << np.arange(n + 1, dtype=np.int32)).astype(np.int32)
    last = np.arange(n, dtype=np.uint8)
    mask = cell_bit[last] | cell_bit[n]  # the padding cell n counts as visited, so it is never a move
    packed = last.astype(np.uint64)
    hashes = tile_hash[:n].copy()
    found: dict[str, tuple[int, ...]] = {}
    best: dict[str, int] = {}
    compare = path_matters(board, scoring)
    walked: dict[int, int] = {}
    k = 1
    while last.size:
        walked[k] = int(last.size)
        if expired is not None and expired():
            return found, walked, False
        for j, row in enumerate(dictionary.maybe(hashes).tolist()):
            if expired is not None and j % 4096 == 4095 and expired():
                return found, walked, False
            code = int(packed[row])
            path = tuple((code >> (4 * i)) & 15 for i in range(k))
            word = board.word_of(path)
            if len(word) < min_letters or word not in dictionary.words:
                continue
            if word not in found:
                found[word] = path
                if compare:
                    best[word] = path_score(board, path, scoring)
            elif compare and (score := path_score(board, path, scoring)) > best[word]:
                best[word], found[word] = score, path
        if k == n:
            break
        parts: list[tuple[np.ndarray, ...]] = []
        shift = np.uint64(4 * k)
        for d in range(8):
            nb = table[last, d]
            rows = np.flatnonzero((mask & cell_bit[nb]) == 0)
            if rows.size == 0:
                continue
            step = nb[rows]
            parts.append((step, mask[rows] | cell_bit[step], packed[rows] | (step.astype(np.uint64) << shift),
                          hashes[rows] * tile_mult[step] + tile_hash[step]))
        if not parts:
            break
        last, mask, packed, hashes = (np.concatenate(col) for col in zip(*parts, strict=True))
        k += 1
    return found, walked, True


def count_paths(rows: int, cols: int) -> dict[int, int]:
    """Number of simple king paths of each length (in cells) on a ``rows`` x ``cols`` board.

    A path is a sequence of distinct cells, each a king move from the previous; a path and its
    reverse count twice, a single cell is a path of length 1. Dynamic programming over
    (visited set, last cell), one set size at a time, exact in 64-bit integers.

    Raises
    ------
    ValueError
        Above 20 cells (the visited sets no longer fit in memory).

    >>> count_paths(2, 2)
    {1: 4, 2: 12, 3: 24, 4: 24}
    """
    n = rows * cols
    if n > MAX_COUNT_CELLS:
        raise ValueError(f"exact path counting handles at most {MAX_COUNT_CELLS} cells")
    edges = [(u, v) for u, nbs in enumerate(king_neighbours(rows, cols)) for v in nbs]
    all_masks = np.arange(1 << n, dtype=np.int64)
    popcount = np.zeros(1 << n, dtype=np.int64)
    for bit in range(n):
        popcount += (all_masks >> bit) & 1
    layer_masks = all_masks[popcount == 1]
    # ways[i, c]: paths that visit exactly the cells of layer_masks[i] and end at cell c.
    ways = np.zeros((layer_masks.size, n), dtype=np.int64)
    ways[np.arange(n), np.log2(layer_masks).astype(np.int64)] = 1
    counts = {1: n}
    for size in range(2, n + 1):
        next_masks = all_masks[popcount == size]
        next_ways = np.zeros((next_masks.size, n), dtype=np.int64)
        for u, v in edges:
            rows_uv = np.flatnonzero(((layer_masks >> u) & 1 == 1) & ((layer_masks >> v) & 1 == 0))
            if rows_uv.size:
                target = np.searchsorted(next_masks, layer_masks[rows_uv] | (1 << v))
                next_ways[target, v] += ways[rows_uv, u]
        total = int(next_ways.sum())
        if total == 0:
            break
        counts[size] = total
        layer_masks, ways = next_masks, next_ways
    return counts
