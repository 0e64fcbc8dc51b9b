"""Dense contraction of non-negative integer tables, exactly, with BLAS (the dense step of every
plan of :mod:`.count_engine` and :mod:`.count_cut`): pairwise contraction orders, the size of
what they make, and tables densified over pruned domains.

**Exact arithmetic** (why floats, and why they are exact here). Tables hold small non-negative
integers, and every intermediate value is a sum of non-negative products, so each partial sum
is at most the final entry it makes. BLAS multiplies floats only, and is 10–100× faster than
numpy's integer products, so a leaf is contracted in float32 first (each intermediate's maximum
checked below 2**23: then every entry and partial sum is an integer below 2**24, exact), else in
float64 (checked below 2**50: exact below 2**53), the final summing step always in float64;
when a check fails the leaf is recomputed one tier up, finally with Python integers
(``dtype=object``: slow, never needed for word lists of realistic size). int64 is not used: its
products would need an overflow proof per step and get no BLAS. Leaf values are added as
Python ints, so totals of any size are exact.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from cpwords.puzzles.word_grid.count_base import EXACT_LIMIT, FLOAT32_LIMIT, TooLargeToContract
from cpwords.puzzles.word_grid.count_network import Factor

_SUBSCRIPTS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


class _Inexact(Exception):
    """A float64 intermediate grew too large to be exact."""


# ---------------------------------------------------------------- pairwise contraction


def _pair(va: tuple[int, ...], a: np.ndarray, vb: tuple[int, ...], b: np.ndarray,
          keep: set[int]) -> tuple[tuple[int, ...], np.ndarray]:
    """Contract two dense tensors, keeping the variables in ``keep`` (batch ones included)."""
    drop_a = [i for i, v in enumerate(va) if v not in vb and v not in keep]
    if drop_a:
        a = a.sum(axis=tuple(drop_a))
        va = tuple(v for i, v in enumerate(va) if i not in drop_a)
    drop_b = [i for i, v in enumerate(vb) if v not in va and v not in keep]
    if drop_b:
        b = b.sum(axis=tuple(drop_b))
        vb = tuple(v for i, v in enumerate(vb) if i not in drop_b)
    shared = [v for v in va if v in vb]
    batch = [v for v in shared if v in keep]
    summed = [v for v in shared if v not in keep]
    free_a = [v for v in va if v not in vb]
    free_b = [v for v in vb if v not in va]
    size = dict(zip(va, a.shape, strict=True)) | dict(zip(vb, b.shape, strict=True))
    nb = math.prod(size[v] for v in batch)
    nc = math.prod(size[v] for v in summed)
    nfa = math.prod(size[v] for v in free_a)
    nfb = math.prod(size[v] for v in free_b)
    if a.dtype == np.float32 and nc > 1 << 22:
        raise _Inexact  # float32's check below assumes sums of fewer terms (rounding ≤ n·2**-24)
    at = a.transpose([va.index(v) for v in batch + free_a + summed]).reshape(nb, nfa, nc)
    bt = b.transpose([vb.index(v) for v in batch + summed + free_b]).reshape(nb, nc, nfb)
    out = np.matmul(at[0], bt[0])[None] if nb == 1 else np.matmul(at, bt)
    shape = [size[v] for v in batch + free_a + free_b]
    return tuple(batch + free_a + free_b), out.reshape(shape)


def _run_path(ops: list[tuple[tuple[int, ...], np.ndarray]], path: list[tuple[int, ...]], check: bool) -> Any:
    ops = list(ops)
    for n, step in enumerate(path):
        picked = [ops[i] for i in step]
        for i in sorted(step, reverse=True):
            del ops[i]
        if n == len(path) - 1 and check:
            # the last step sums everything: in float64 (exact to 2**53), whatever came before
            picked = [(vs, arr.astype(np.float64, copy=False)) for vs, arr in picked]
        others = {v for vs, _ in ops for v in vs}
        vs, arr = picked[0]
        if len(picked) == 1:
            drop = tuple(i for i, v in enumerate(vs) if v not in others)
            vs, arr = tuple(v for v in vs if v in others), (arr.sum(axis=drop) if drop else arr)
        for k, (vb, b) in enumerate(picked[1:], start=2):
            # a step over several operands: keep what the rest of the step still needs
            later = {v for vs_, _ in picked[k:] for v in vs_}
            vs, arr = _pair(vs, arr, vb, b, others | later)
        if check and arr.size and float(arr.max()) >= (FLOAT32_LIMIT if arr.dtype == np.float32 else EXACT_LIMIT):
            raise _Inexact
        ops.append((vs, arr))
    total: Any = 1
    for _vs, arr in ops:
        total = total * (arr.astype(np.float64).sum() if check else arr.sum())
    return total


def contract(ops: list[tuple[tuple[int, ...], np.ndarray]], path: list[tuple[int, ...]]) -> int:
    """Σ over all variables of the product of dense tensors of non-negative integers, exactly.

    Tried in float32 (intermediates checked below 2**23: summing at most 2**22 terms rounds by at
    most a factor 1 − 2**-2, so a computed maximum below it means every true value, and partial
    sum, is below 2**24 and exact),
    then in float64 (checked below 2**50), then in Python integers. The last, summing step always
    runs in float64.

    Parameters
    ----------
    ops:
        (variables, tensor) pairs; tensors hold non-negative integers (any float dtype).
    path:
        Pairwise contraction order in ``np.einsum_path`` convention (operands removed, result
        appended).

    Returns
    -------
    int
        The exact sum.
    """
    small = all(arr.size == 0 or float(arr.max()) < FLOAT32_LIMIT for _, arr in ops)
    for dtype in (np.float32, np.float64) if small else (np.float64,):
        try:
            value = _run_path([(vs, arr.astype(dtype, copy=False)) for vs, arr in ops], path, check=True)
        except _Inexact:
            continue
        if value < EXACT_LIMIT:
            return int(value)
    return int(_run_path([(vs, arr.astype(object)) for vs, arr in ops], path, check=False))


def einsum_plan(var_lists: list[tuple[int, ...]], sizes: dict[int, int],
                optimal: bool | None = None) -> tuple[list[tuple[int, ...]], float, float]:
    """A pairwise order for contracting tensors over ``var_lists`` to a scalar.

    Returns
    -------
    (path, flops, largest)
        ``np.einsum_path``'s order, its estimated flop count and largest intermediate size.

    Raises
    ------
    TooLargeToContract
        More than 52 distinct variables (einsum's subscript letters).
    """
    if not var_lists:
        return [], 0.0, 0.0
    used = sorted({v for vs in var_lists for v in vs})
    if len(used) > len(_SUBSCRIPTS):
        raise TooLargeToContract
    letter = {v: _SUBSCRIPTS[i] for i, v in enumerate(used)}
    expr = ",".join("".join(letter[v] for v in vs) for vs in var_lists) + "->"
    dummies = [np.broadcast_to(np.zeros(()), [sizes[v] for v in vs]) for vs in var_lists]
    if len(var_lists) == 1:
        return [(0,)], float(math.prod(dummies[0].shape)), 1.0

    def search(how: str) -> tuple[list[tuple[int, ...]], float, float]:
        path, info = np.einsum_path(expr, *dummies, optimize=how)
        flops = re.search(r"Optimized FLOP count:\s+([0-9.e+]+)", info)
        largest = re.search(r"Largest intermediate:\s+([0-9.e+]+)", info)
        return ([tuple(step) for step in path[1:]], float(flops.group(1)) if flops else math.inf,
                float(largest.group(1)) if largest else math.inf)

    found = search("greedy")
    # the exhaustive search costs milliseconds: only worth it for contractions that are not tiny
    if optimal is not False and len(var_lists) <= 6 and (optimal or found[1] > 1e7):
        better = search("optimal")
        if better[1] < found[1]:
            found = better
    path, flops, largest = found
    if any(len(step) > 2 for step in path):
        largest = max(largest, _largest_made(var_lists, sizes, path))
    return path, flops, largest


def _largest_made(var_lists: list[tuple[int, ...]], sizes: dict[int, int], path: list[tuple[int, ...]]) -> float:
    """The largest tensor :func:`_run_path` makes along ``path``, steps over several operands
    included (``np.einsum_path`` reports 1 element for such a step, whatever it holds: the
    greedy search joins many tensors in one step when it finds no pair worth contracting)."""
    ops = [set(vs) for vs in var_lists]
    largest = 0.0
    for step in path:
        picked = [ops[i] for i in step]
        for i in sorted(step, reverse=True):
            del ops[i]
        others = set().union(*ops)
        vs = picked[0] & others if len(picked) == 1 else picked[0]
        for k, vb in enumerate(picked[1:], start=2):
            vs = (vs | vb) & (others | set().union(*picked[k:]))
            largest = max(largest, float(math.prod(sizes[v] for v in vs)))
        ops.append(vs)
    return largest


# ---------------------------------------------------------------- dense tables


def _domains(factors: list[Factor], nvars: int, size: int) -> np.ndarray:
    """(nvars, size) booleans: the letters every factor on a variable has rows with."""
    dom = np.ones((nvars, size), dtype=bool)
    for f in factors:
        for c, v in enumerate(f.vars):
            seen = np.zeros(size, dtype=bool)
            seen[f.letters[:, c]] = True
            dom[v] &= seen
    return dom


def _densify(vars_: tuple[int, ...], letters: np.ndarray, counts: np.ndarray, dom: np.ndarray,
             index: np.ndarray) -> np.ndarray:
    """The rows inside the domains as a dense float64 array over the compressed domains."""
    shape = [int(dom[v].sum()) for v in vars_]
    keep = np.ones(len(counts), dtype=bool)
    for c, v in enumerate(vars_):
        keep &= dom[v][letters[:, c]]
    flat = np.zeros(int(keep.sum()), dtype=np.int64)
    for c, v in enumerate(vars_):
        flat = flat * shape[c] + index[v][letters[keep, c]]
    return np.bincount(flat, weights=counts[keep].astype(np.float64),
                       minlength=math.prod(shape)).reshape(shape)
