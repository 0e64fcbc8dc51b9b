"""Counting word grids without listing them: a sum-product over the crossing letters.

A grid is a choice of one word per slot such that crossing cells agree. Summing over the
letters of the cells that two slots share, the number of grids is

    Σ_{letters of shared cells} Π_slots (number of words matching the slot's shared letters),

a tensor-network contraction: one tensor per slot (indexed by the letters at its shared
positions, holding word counts), one index per shared cell. numpy's ``einsum`` contracts it
(for the 5×5 Gridle shape: 6 tensors of 26³ counts, 9 indices).

**Distinct words** by inclusion–exclusion over set partitions π of the slots into blocks of
equal length: grids with all words different = Σ_π μ(π) · N(π), where N(π) counts grids whose
slots in each block hold the *same* word (one tensor per block: its slots' cells at equal
positions share a letter) and μ(π) = Π_blocks (−1)^{|B|−1} (|B|−1)!.

**Modulo symmetry** by Burnside's lemma: grids modulo the group = (1/|G|) Σ_g Fix(g), where
Fix(g) counts the grids that g maps onto themselves; those are the grids whose cells in each
cycle of g hold the same letter, so the same contraction with g's cells identified gives it.

Example
-------
>>> # doctest: +SKIP
>>> count_grids(problem)
GridCount(raw=1234, modulo_symmetry=617, ...)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from cpwords.puzzles.word_grid.problem import GridProblem

#: Largest intermediate tensor (elements) we accept; larger contractions fall back to enumeration.
MAX_INTERMEDIATE = 60_000_000
#: Largest number of multiply-adds we accept for one contraction.
MAX_FLOPS = 2e10
_SUBSCRIPTS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


class TooLargeToContract(Exception):
    """The sum-product would need tensors larger than :data:`MAX_INTERMEDIATE` (or too many indices)."""


@dataclass
class GridCount:
    """Exact counts: all grids (``raw``) and grids modulo the symmetry group."""

    raw: int
    modulo_symmetry: int
    fixed_points: dict[str, int] = field(default_factory=dict)
    contractions: int = 0


def set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every partition of ``items`` into non-empty blocks.

    >>> len(list(set_partitions([0, 1, 2])))
    5
    """
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield partition[:i] + [[first, *partition[i]]] + partition[i + 1:]


def slot_partitions(problem: GridProblem) -> Iterator[tuple[int, list[list[int]]]]:
    """(μ(π), π) for the partitions of the slots that inclusion–exclusion needs.

    Without distinct words only the partition into singletons (μ = 1). With them, every
    partition whose blocks hold slots of one length (slots of different lengths never hold the
    same word).
    """
    singletons = [[s] for s in range(len(problem.slots))]
    if not problem.distinct:
        yield 1, singletons
        return
    groups: dict[int, list[int]] = {}
    for s, slot in enumerate(problem.slots):
        groups.setdefault(len(slot), []).append(s)
    per_group = [list(set_partitions(g)) for g in groups.values()]

    def combine(i: int) -> Iterator[list[list[int]]]:
        if i == len(per_group):
            yield []
            return
        for head in per_group[i]:
            for tail in combine(i + 1):
                yield head + tail

    for partition in combine(0):
        mu = 1
        for block in partition:
            k = len(block)
            mu *= (-1) ** (k - 1) * math.factorial(k - 1)
        yield mu, partition


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


def _word_arrays(problem: GridProblem) -> dict[int, np.ndarray]:
    return {n: np.array([[ord(ch) - 97 for ch in w] for w in ws], dtype=np.int64).reshape(len(ws), n)
            for n, ws in problem.words.items()}


def identified_count(problem: GridProblem, partition: list[list[int]], perm: tuple[int, ...] | None,
                     arrays: dict[int, np.ndarray], *, exact_dtype: object = np.int64) -> int:
    """Grids whose slots in each block hold the same word and whose cells are equal along ``perm``.

    Raises
    ------
    TooLargeToContract
        When the contraction needs more than 52 indices or too large an intermediate tensor.
    """
    # Slots that must hold the same word: the blocks of the partition, and each slot with its
    # image under perm (a grid fixed by g repeats slot s's word in slot g(s), letter by letter).
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
    partition = list(merged.values())
    uf = _UnionFind(len(problem.cells))
    for block in partition:
        first = problem.slots[block[0]]
        for s in block[1:]:
            for a, b in zip(first, problem.slots[s], strict=True):
                uf.union(a, b)
    block_classes = [[uf.find(c) for c in problem.slots[block[0]]] for block in partition]
    uses: dict[int, int] = {}
    for classes in block_classes:
        for k in classes:
            uses[k] = uses.get(k, 0) + 1
    shared = sorted(k for k, n in uses.items() if n >= 2)
    if len(shared) > len(_SUBSCRIPTS):
        raise TooLargeToContract
    letter = {k: _SUBSCRIPTS[i] for i, k in enumerate(shared)}
    operands, subscripts = [], []
    scalar = 1
    for block, classes in zip(partition, block_classes, strict=True):
        n = len(classes)
        ids = set(problem.candidates[block[0]])
        for s in block[1:]:
            ids &= set(problem.candidates[s])
        words = arrays[n][sorted(ids)]
        positions = [p for p, k in enumerate(classes) if k in letter]
        if not positions:
            scalar *= len(words)
            if scalar == 0:
                return 0
            continue
        tensor = np.zeros((26,) * len(positions), dtype=np.int64)
        if len(words):
            np.add.at(tensor, tuple(words[:, p] for p in positions), 1)
        operands.append(tensor)
        subscripts.append("".join(letter[classes[p]] for p in positions))
    if not operands:
        return scalar
    expr = ",".join(subscripts) + "->"
    path, info = np.einsum_path(expr, *operands, optimize=("optimal" if len(operands) <= 8 else "greedy", MAX_INTERMEDIATE))
    largest = re.search(r"Largest intermediate:\s+([0-9.e+]+)", info)
    flops = re.search(r"Optimized FLOP count:\s+([0-9.e+]+)", info)
    if (largest and float(largest.group(1)) > MAX_INTERMEDIATE) or (flops and float(flops.group(1)) > MAX_FLOPS) \
            or any(len(step) > 2 for step in path[1:]):
        raise TooLargeToContract  # (a step over more than two tensors at once is a naive, huge loop)
    try:
        estimate = float(np.einsum(expr, *(o.astype(np.float64) for o in operands), optimize=path))
    except (ValueError, MemoryError):
        raise TooLargeToContract from None
    if estimate < 2.0**62:
        value = int(np.einsum(expr, *operands, optimize=path))
        if abs(value - estimate) <= 1e-6 * max(1.0, estimate):
            return scalar * value
    # int64 could overflow: exact Python integers (slow, only for huge counts).
    value = np.einsum(expr, *(o.astype(object) for o in operands), optimize=path)
    return scalar * int(value)


def _moves_a_slot(problem: GridProblem, g) -> bool:
    return any(tuple(g.perm[c] for c in slot) != slot for slot in problem.slots)


def count_grids(problem: GridProblem) -> GridCount:
    """Exact number of grids (all, and modulo the problem's symmetry group) by sum-product.

    Raises
    ------
    TooLargeToContract
        When the shape's crossing structure makes the contraction too large.
    """
    arrays = _word_arrays(problem)
    fixed: dict[str, int] = {}
    contractions = 0
    for g in problem.group:
        if problem.distinct and not g.is_identity and _moves_a_slot(problem, g):
            # g carries some slot onto another one, so a grid it fixes repeats that slot's word.
            fixed[g.name] = 0
            continue
        total = 0
        for mu, partition in slot_partitions(problem):
            total += mu * identified_count(problem, partition, None if g.is_identity else g.perm, arrays)
            contractions += 1
        fixed[g.name] = total
    raw = fixed["identity"]
    modulo = sum(fixed.values())
    if modulo % len(problem.group):
        raise AssertionError("Burnside's sum is not a multiple of the group order")  # a bug if ever
    return GridCount(raw, modulo // len(problem.group), fixed, contractions)
