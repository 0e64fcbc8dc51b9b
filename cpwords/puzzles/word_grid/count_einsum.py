"""The plain einsum counter of word grids: one dense ``np.einsum`` per term of the count (the
original counter, kept as a reference for the plans of :mod:`.count_engine`; fine for the 5×5
Gridle shape, too large for the 7×7).

Example
-------
``problem`` is a grid problem (:mod:`.problem`)::

    assert count_grids_einsum(problem).raw == count_grids(problem).raw
"""

from __future__ import annotations

import re

import numpy as np

from cpwords.puzzles.word_grid.count_base import TooLargeToContract
from cpwords.puzzles.word_grid.count_network import cell_classes, merged_blocks, word_arrays
from cpwords.puzzles.word_grid.count_partitions import slot_partitions
from cpwords.puzzles.word_grid.count_terms import GridCount, burnside, moves_a_slot
from cpwords.puzzles.word_grid.problem import GridProblem

__all__ = ["MAX_FLOPS", "MAX_INTERMEDIATE", "count_grids_einsum", "identified_count"]

#: Largest intermediate tensor (elements) the plain einsum counter accepts.
MAX_INTERMEDIATE = 60_000_000
#: Largest number of multiply-adds the plain einsum counter accepts for one contraction.
MAX_FLOPS = 2e10
_SUBSCRIPTS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def identified_count(problem: GridProblem, partition: list[list[int]], perm: tuple[int, ...] | None,
                     arrays: dict[int, np.ndarray], *, exact_dtype: object = np.int64) -> int:
    """Grids whose slots in each block hold the same word and whose cells are equal along ``perm``,
    by one dense ``np.einsum`` (the original counter; fine for the 5×5 Gridle shape).

    Raises
    ------
    TooLargeToContract
        When the contraction needs more than 52 indices or too large an intermediate tensor.
    """
    partition = merged_blocks(problem, partition, perm)
    block_classes = cell_classes(problem, partition)
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
        tensor = np.zeros((problem.alphabet.size,) * len(positions), dtype=np.int64)
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



def count_grids_einsum(problem: GridProblem) -> GridCount:
    """Exact counts by one dense einsum per term (the original counter, kept as a reference).

    Raises
    ------
    TooLargeToContract
        When the shape's crossing structure makes a dense contraction too large (the 7×7).
    """
    arrays = word_arrays(problem)
    fixed: dict[str, int] = {}
    contractions = 0
    for g in problem.group:
        if problem.distinct and not g.is_identity and moves_a_slot(problem, g):
            fixed[g.name] = 0
            continue
        total = 0
        for mu, partition in slot_partitions(problem):
            total += mu * identified_count(problem, partition, None if g.is_identity else g.perm, arrays)
            contractions += 1
        fixed[g.name] = total
    return burnside(problem, fixed, contractions)
