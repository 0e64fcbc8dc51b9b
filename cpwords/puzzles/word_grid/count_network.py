"""The sum-product network of one inclusion–exclusion / Burnside term of a grid count.

A term asks: how many grids have the slots of each block of a partition π holding the *same*
word, and are mapped onto themselves by a symmetry g? Merging the slots of a block (and each
slot with its image under g) and identifying their cells position by position leaves:

* **variables**: the classes of identified cells that two or more blocks share (letters 0 … size-1,
  the indices of the dictionary's alphabet: 26 for English, 27 for Spanish, 29 for German);
* **factors**: one per block, a sparse table over the block's variables holding how many words
  (that fit every slot of the block, with equal letters wherever the identification repeats a
  cell inside the block) give those letters. Cells no other block uses are summed out here.

The term's count is Σ over the variables' letters of the product of the factors: see
:mod:`.count_engine` for how it is contracted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpwords.puzzles.word_grid.problem import GridProblem


@dataclass
class Factor:
    """A sparse non-negative table: distinct rows of letters (one column per variable) and counts.

    Attributes
    ----------
    vars: the variables (distinct ids), one per column of ``letters``.
    letters: ``(n, len(vars))`` int64 letter indices 0 … size-1 (the network's alphabet), rows distinct.
    counts: ``(n,)`` int64, the table value of each row (all > 0).
    """

    vars: tuple[int, ...]
    letters: np.ndarray
    counts: np.ndarray

    def __len__(self) -> int:
        return len(self.counts)


@dataclass
class Network:
    """Factors over variables ``0..nvars-1`` times a constant (blocks sharing no cell); each
    variable takes one of ``size`` letters (the alphabet's size: engines size their domains,
    dense tables and letter codes by it)."""

    factors: list[Factor]
    scalar: int
    nvars: int
    size: int


class _UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def word_arrays(problem: GridProblem) -> dict[int, np.ndarray]:
    """Per slot length, the words as an ``(n, length)`` int64 array of letter indices."""
    codes = problem.alphabet.codes  # letter indices of the dictionary's alphabet, one byte each
    return {n: np.frombuffer(b"".join(codes(w) for w in ws), dtype=np.uint8).astype(np.int64).reshape(len(ws), n)
            for n, ws in problem.words.items()}


def cell_classes(problem: GridProblem, blocks: list[list[int]]) -> list[list[int]]:
    """For each block of slots that hold one word, the class of each of its cells once the cells
    that the block's slots put in the same position are identified (one class a variable)."""
    uf = _UnionFind(len(problem.cells))
    for block in blocks:
        first = problem.slots[block[0]]
        for s in block[1:]:
            for a, b in zip(first, problem.slots[s], strict=True):
                uf.union(a, b)
    return [[uf.find(c) for c in problem.slots[block[0]]] for block in blocks]


def merged_blocks(problem: GridProblem, partition: list[list[int]] | tuple[tuple[int, ...], ...],
                  perm: tuple[int, ...] | None) -> list[list[int]]:
    """The blocks of ``partition`` joined with every slot's image under ``perm`` (if any)."""
    slot_uf = _UnionFind(len(problem.slots))
    for block in partition:
        for s in block[1:]:
            slot_uf.union(block[0], s)
    if perm is not None:
        where = {slot: s for s, slot in enumerate(problem.slots)}
        for s, slot in enumerate(problem.slots):
            slot_uf.union(s, where[tuple(perm[c] for c in slot)])
    merged: dict[int, list[int]] = {}
    for s in range(len(problem.slots)):
        merged.setdefault(slot_uf.find(s), []).append(s)
    return list(merged.values())


def _distinct_rows(letters: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of a letter array (letters 0 … size-1) and how often each occurs."""
    k = letters.shape[1]
    if size ** k >= 2 ** 63:  # (26**13 < 2**63 < 29**13) beyond, the int64 codes would overflow
        rows, counts = np.unique(letters, axis=0, return_counts=True)
        return rows.astype(np.int64), counts.astype(np.int64)
    code = np.zeros(len(letters), dtype=np.int64)
    for c in range(k):
        code = code * size + letters[:, c]
    uniq, counts = np.unique(code, return_counts=True)
    rows = np.empty((len(uniq), k), dtype=np.int64)
    for c in range(k - 1, -1, -1):
        rows[:, c] = uniq % size
        uniq = uniq // size
    return rows, counts.astype(np.int64)


def build_network(problem: GridProblem, partition: list[list[int]] | tuple[tuple[int, ...], ...],
                  perm: tuple[int, ...] | None, arrays: dict[int, np.ndarray]) -> Network:
    """The network counting grids whose slots in each block of ``partition`` hold the same word
    and whose letters are unchanged by the cell permutation ``perm`` (None: no symmetry).

    Parameters
    ----------
    problem:
        The grid problem (slots, candidates).
    partition:
        Blocks of slot indices; slots of a block must be of one length.
    perm:
        A symmetry's cell permutation, or None.
    arrays:
        :func:`word_arrays` of the problem.

    Returns
    -------
    Network
        Its factors, over variables numbered from 0, and the constant factor of blocks that
        share no cell with another block.
    """
    size = problem.alphabet.size
    blocks = merged_blocks(problem, partition, perm)
    block_classes = cell_classes(problem, blocks)
    users: dict[int, set[int]] = {}
    for b, classes in enumerate(block_classes):
        for k in classes:
            users.setdefault(k, set()).add(b)
    shared = sorted(k for k, bs in users.items() if len(bs) >= 2)
    var_of = {k: i for i, k in enumerate(shared)}
    factors: list[Factor] = []
    scalar = 1
    for block, classes in zip(blocks, block_classes, strict=True):
        n = len(classes)
        ids = set(problem.candidates[block[0]])
        for s in block[1:]:
            ids &= set(problem.candidates[s])
        words = arrays[n][sorted(ids)] if ids else np.zeros((0, n), dtype=np.int64)
        first_pos: dict[int, int] = {}
        for p, k in enumerate(classes):
            if k in first_pos:  # the identification repeats a cell inside the word: equal letters
                words = words[words[:, p] == words[:, first_pos[k]]]
            else:
                first_pos[k] = p
        if len(words) == 0:
            return Network([], 0, 0, size)
        positions = [first_pos[k] for k in first_pos if k in var_of]
        if not positions:
            scalar *= len(words)
            continue
        factors.append(Factor(tuple(var_of[classes[p]] for p in positions), *_distinct_rows(words[:, positions], size)))
    return Network(factors, scalar, len(shared), size)
