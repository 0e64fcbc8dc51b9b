"""Exact contraction of a sparse word-count network (:mod:`.count_network`).

**Plans.** A network is pruned by arc consistency (a letter stays in a variable's domain only
when every factor on that variable has a row with it), split into connected components, and
each component gets a plan:

* *dense*: every factor as a dense array over the variables' pruned domains, contracted pairwise
  in an ``np.einsum_path`` order with BLAS products — when the estimated work is small;
* *4×4 crossing grid*: four across and four down slots that all cross once (the 7×7 Gridle) use
  the block kernel of :mod:`.count_k44`;
* *cut*: otherwise, condition on a few variables (the *cut*, chosen greedily to shrink the rest
  the most, its size by estimated time): each consistent assignment of the cut (a *leaf*) slices
  the factors, prunes the domains again — they shrink a lot — and contracts densely.

A plan's leaves are the independent pieces of its outer loop: ``run(start, stop)`` sums leaves
``start..stop-1``, so a big term can be split into chunks and summed anywhere.

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

import ctypes
import glob
import math
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from cpwords.puzzles.word_grid.count_base import (
    EXACT_LIMIT,
    FLOAT32_LIMIT,
    FLOP_RATE,
    LEAF_OVERHEAD_S,
    MAX_CUT,
    MAX_DENSE_ELEMENTS,
    MAX_ESTIMATED_SECONDS,
    MAX_LEAVES,
    MAX_TABLE_ELEMENTS,
    BeyondTimeLeft,
    BudgetLike,
    ComponentPlan,
    TooLargeToContract,
)
from cpwords.puzzles.word_grid.count_k44 import K44Plan, crossing_grid
from cpwords.puzzles.word_grid.count_network import Factor, Network, _UnionFind

_SUBSCRIPTS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Rows of cut assignments grown at once while the leaves are listed (bounds planning's memory).
EXPAND_ROWS = 1 << 20
#: Largest code space of a factor's cut letters checked through a table of booleans (bytes).
LOOKUP_CODES = 1 << 24


class _Inexact(Exception):
    """A float64 intermediate grew too large to be exact."""


# ---------------------------------------------------------------- BLAS threads


def _openblas_setters() -> tuple[Any, Any] | None:
    try:
        folder = os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs")
        names = glob.glob(os.path.join(folder, "*openblas*"))
        for path in names:
            lib = ctypes.CDLL(path)
            for prefix in ("scipy_openblas", "openblas"):
                for suffix in ("64_", ""):
                    setter = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
                    getter = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
                    if setter is not None and getter is not None:
                        getter.restype = ctypes.c_int
                        return setter, getter
    except OSError:
        return None
    return None


_SETTERS: tuple[Any, Any] | None = None
_SETTERS_LOOKED_UP = False


@contextmanager
def single_threaded_blas() -> Iterator[None]:
    """Run the block inside with one BLAS thread (restored afterwards, when it can be set).

    The counter multiplies many small matrices; OpenBLAS would split each over threads that then
    wait on each other (and on other processes) — measured 10× slower on a busy 2-core machine.
    Parallelism comes from separate processes instead.
    """
    global _SETTERS, _SETTERS_LOOKED_UP
    if not _SETTERS_LOOKED_UP:
        _SETTERS, _SETTERS_LOOKED_UP = _openblas_setters(), True
    if _SETTERS is None:
        yield
        return
    setter, getter = _SETTERS
    before = int(getter())
    setter(1)
    try:
        yield
    finally:
        setter(before)


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


# ---------------------------------------------------------------- pruning, components


def prune(factors: list[Factor], nvars: int, size: int) -> list[Factor] | None:
    """Arc consistency: drop rows with a letter some other factor on that variable lacks
    (letters 0 … size-1).

    Returns the pruned factors (same order), or None when a factor loses every row.
    """
    domain = np.ones((nvars, size), dtype=bool)
    factors = list(factors)
    while True:
        for f in factors:
            for c, v in enumerate(f.vars):
                seen = np.zeros(size, dtype=bool)
                seen[f.letters[:, c]] = True
                domain[v] &= seen
        changed = False
        for i, f in enumerate(factors):
            keep = np.ones(len(f), dtype=bool)
            for c, v in enumerate(f.vars):
                keep &= domain[v][f.letters[:, c]]
            if not keep.all():
                if not keep.any():
                    return None
                factors[i] = Factor(f.vars, f.letters[keep], f.counts[keep])
                changed = True
        if not changed:
            return factors


def components(factors: list[Factor], nvars: int) -> list[list[Factor]]:
    """Factors grouped by connected component (sharing variables)."""
    uf = _UnionFind(nvars)
    for f in factors:
        for v in f.vars[1:]:
            uf.union(f.vars[0], v)
    groups: dict[int, list[Factor]] = {}
    for f in factors:
        groups.setdefault(uf.find(f.vars[0]), []).append(f)
    return list(groups.values())


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


# ---------------------------------------------------------------- plans


class DensePlan(ComponentPlan):
    """One dense contraction over the pruned domains."""

    kind = "dense"

    def __init__(self, factors: list[Factor], nvars: int, size: int) -> None:
        self.factors = factors
        self.dom = _domains(factors, nvars, size)
        self.index = np.cumsum(self.dom, axis=1) - 1
        sizes = {v: int(self.dom[v].sum()) for f in factors for v in f.vars}
        self.table_elements = sum(math.prod(sizes[v] for v in f.vars) for f in factors)
        self.path, self.flops, self.largest = einsum_plan([f.vars for f in factors], sizes)
        self.seconds = LEAF_OVERHEAD_S + self.flops / FLOP_RATE

    def run(self, start: int, stop: int, budget: BudgetLike | None) -> int:
        if start >= stop:
            return 0
        ops = [(f.vars, _densify(f.vars, f.letters, f.counts, self.dom, self.index)) for f in self.factors]
        return contract(ops, self.path)


class _Sliced:
    """A factor sorted by its cut letters so that a leaf's rows are one contiguous range."""

    def __init__(self, f: Factor, cut_pos: dict[int, int], size: int) -> None:
        self.size = size
        self.cut_cols = [c for c, v in enumerate(f.vars) if v in cut_pos]
        self.cut_at = [cut_pos[f.vars[c]] for c in self.cut_cols]
        self.rest_cols = [c for c, v in enumerate(f.vars) if v not in cut_pos]
        self.vars = tuple(f.vars[c] for c in self.rest_cols)
        code = np.zeros(len(f), dtype=np.int64)
        for c in self.cut_cols:
            code = code * size + f.letters[:, c]
        order = np.argsort(code, kind="stable")
        self.codes, self.starts = np.unique(code[order], return_index=True)
        self.ends = np.append(self.starts[1:], len(f))
        self.letters = np.ascontiguousarray(f.letters[order][:, self.rest_cols])
        self.counts = f.counts[order]

    def code_of(self, leaf: np.ndarray) -> int:
        code = 0
        for i in self.cut_at:
            code = code * self.size + int(leaf[i])
        return code

    def codes_of(self, leaves: np.ndarray) -> np.ndarray:
        code = np.zeros(len(leaves), dtype=np.int64)
        for i in self.cut_at:
            code = code * self.size + leaves[:, i]
        return code

    def rows(self, leaf: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        code = self.code_of(leaf)
        k = int(np.searchsorted(self.codes, code))
        if k == len(self.codes) or self.codes[k] != code:
            return None
        s, e = self.starts[k], self.ends[k]
        return self.letters[s:e], self.counts[s:e]


class CutPlan(ComponentPlan):
    """Condition on the cut variables; contract each leaf densely over its pruned domains."""

    kind = "cut"

    def __init__(self, factors: list[Factor], nvars: int, size: int, cut: list[int], leaves: np.ndarray) -> None:
        self.nvars = nvars
        self.size = size
        self.cut = cut
        self.cut_pos = {v: i for i, v in enumerate(cut)}
        self.all_leaves = leaves
        self.leaves = len(leaves)
        self.static: list[tuple[tuple[int, ...], np.ndarray | None, Factor]] = []
        self.sliced: list[_Sliced] = []
        for f in factors:
            if any(v in self.cut_pos for v in f.vars):
                self.sliced.append(_Sliced(f, self.cut_pos, size))
            else:
                full = None
                if size ** len(f.vars) <= 2_000_000:
                    full = np.zeros((size,) * len(f.vars))
                    np.add.at(full, tuple(f.letters.T), f.counts.astype(np.float64))
                    if full.max(initial=0) < FLOAT32_LIMIT:
                        full = full.astype(np.float32)  # leaves contract in float32 first
                self.static.append((f.vars, full, f))
        self.static_dom = _domains([f for _, _, f in self.static], nvars, size)
        self.op_vars = [vs for vs, _, _ in self.static] + [s.vars for s in self.sliced if s.vars]
        self.path: list[tuple[int, ...]] | None = None

    def _leaf_domains(self, leaf: np.ndarray) -> tuple[np.ndarray, list[tuple[tuple[int, ...], np.ndarray, np.ndarray]],
                                                       int] | None:
        """A leaf's pruned domains, its sliced factors' rows and the product of the factors it
        fixes whole (None when some factor has no row for it)."""
        dom = self.static_dom.copy()
        scalar = 1
        parts = []
        for s in self.sliced:
            got = s.rows(leaf)
            if got is None:
                return None
            letters, counts = got
            if not s.vars:
                scalar *= int(counts.sum())
                continue
            for c, v in enumerate(s.vars):
                seen = np.zeros(self.size, dtype=bool)
                seen[letters[:, c]] = True
                dom[v] &= seen
            parts.append((s.vars, letters, counts))
        sizes = dom.sum(axis=1)
        if any(sizes[v] == 0 for vs in self.op_vars for v in vs):
            return None
        return dom, parts, scalar

    def _leaf_ops(self, leaf: np.ndarray) -> tuple[list[tuple[tuple[int, ...], np.ndarray]], int] | None:
        got = self._leaf_domains(leaf)
        if got is None:
            return None
        dom, parts, scalar = got
        index = np.cumsum(dom, axis=1) - 1
        ops = []
        for vs, full, f in self.static:
            if full is not None:
                ops.append((vs, full[np.ix_(*[np.flatnonzero(dom[v]) for v in vs])]))
            else:
                ops.append((vs, _densify(vs, f.letters, f.counts, dom, index)))
        for vs, letters, counts in parts:
            ops.append((vs, _densify(vs, letters, counts, dom, index)))
        return ops, scalar

    def sample_flops(self, samples: int = 3) -> float:
        """Mean estimated dense flops of a few evenly spaced leaves (also fixes the leaf path).

        Only the leaves' domains are computed, never their dense tables: a leaf of a hopeless
        cut (an open 5×5's first cut letter) would hold gigabytes.
        """
        if not self.leaves:
            return 0.0
        picks = np.unique(np.linspace(0, self.leaves - 1, min(samples, self.leaves)).astype(int))
        flops = []
        for i in picks:
            got = self._leaf_domains(self.all_leaves[i])
            if got is None:
                flops.append(0.0)
                continue
            dom = got[0]
            var_lists = [vs for vs, _, _ in self.static] + [vs for vs, _, _ in got[1]]
            sizes = {v: int(dom[v].sum()) for vs in var_lists for v in vs}
            if sum(math.prod(sizes[v] for v in vs) for vs in var_lists) > MAX_TABLE_ELEMENTS:
                return math.inf  # a leaf's own tables would not fit
            path, fl, largest = einsum_plan(var_lists, sizes)
            if largest > MAX_DENSE_ELEMENTS:
                return math.inf
            if self.path is None:
                self.path = path
            flops.append(fl)
        return float(np.mean(flops))

    def run(self, start: int, stop: int, budget: BudgetLike | None) -> int:
        total = 0
        for i in range(start, min(stop, self.leaves)):
            if budget is not None and i % 16 == 0:
                budget.check()
            got = self._leaf_ops(self.all_leaves[i])
            if got is None:
                continue
            ops, scalar = got
            if not ops:
                total += scalar
                continue
            if self.path is None:
                sizes = {v: n for vs, arr in ops for v, n in zip(vs, arr.shape, strict=True)}
                self.path = einsum_plan([vs for vs, _ in ops], sizes)[0]
            total += scalar * contract(ops, self.path)
        return total


def _cut_leaves(factors: list[Factor], cut: list[int], dom: np.ndarray, limit: float = MAX_LEAVES,
                budget: BudgetLike | None = None) -> np.ndarray | None:
    """Assignments of the cut consistent with every factor's projection on its cut variables
    (None when there are more than ``limit``); ``dom`` is (nvars, alphabet size).

    Listed one cut variable at a time, each step growing at most :data:`EXPAND_ROWS` rows at
    once and keeping the letters in one byte each, so that memory stays near the size of the
    answer (an open 5×5's sixth cut letter once grew 40 million int64 rows, 6 GB, at once);
    ``budget`` is checked between the pieces.
    """
    size = dom.shape[1]
    dtype = np.uint8 if size <= 256 else np.uint16
    pos = {v: i for i, v in enumerate(cut)}
    projections = []
    for f in factors:
        cols = [c for c, v in enumerate(f.vars) if v in pos]
        if not cols:
            continue
        at = [pos[f.vars[c]] for c in cols]
        code = np.zeros(len(f), dtype=np.int64)
        for c in cols:
            code = code * size + f.letters[:, c]
        codes = np.unique(code)
        if size ** len(at) <= LOOKUP_CODES:  # a table of allowed codes: one gather instead of a search
            allowed = np.zeros(size ** len(at), dtype=bool)
            allowed[codes] = True
            projections.append((max(at), at, allowed))
        else:
            projections.append((max(at), at, codes))
    leaves = np.zeros((1, 0), dtype=dtype)
    for m, v in enumerate(cut):
        letters = np.flatnonzero(dom[v]).astype(dtype)
        checks = [(at, codes) for last, at, codes in projections if last == m]
        step = max(1, EXPAND_ROWS // max(1, len(letters)))
        kept: list[np.ndarray] = []
        total = 0
        for first in range(0, len(leaves), step):
            if budget is not None:
                budget.check()
            part = leaves[first:first + step]
            grown = np.empty((len(part) * len(letters), m + 1), dtype=dtype)
            grown[:, :m] = np.repeat(part, len(letters), axis=0)
            grown[:, m] = np.tile(letters, len(part))
            for at, codes in checks:
                code = np.zeros(len(grown), dtype=np.int64)
                for i in at:
                    code = code * size + grown[:, i]
                grown = grown[codes[code] if codes.dtype == bool else np.isin(code, codes)]
            kept.append(grown)
            total += len(grown)
            if total > limit:
                return None
        leaves = np.concatenate(kept) if kept else np.zeros((0, m + 1), dtype=dtype)
    return leaves


def _greedy_cut(factors: list[Factor], dom: np.ndarray, budget: BudgetLike | None = None) -> list[int]:
    """Cut variables in order: each time the one whose removal leaves the cheapest contraction."""
    sizes = {v: int(dom[v].sum()) for f in factors for v in f.vars}
    degree: dict[int, int] = {}
    for f in factors:
        for v in f.vars:
            degree[v] = degree.get(v, 0) + 1
    cut: list[int] = []
    for _ in range(min(MAX_CUT, len(sizes))):
        if budget is not None:
            budget.check()
        best = None
        for v in sorted(sizes):
            if v in cut:
                continue
            removed = set(cut) | {v}
            lists = [vs for vs in (tuple(u for u in f.vars if u not in removed) for f in factors) if vs]
            _, flops, largest = einsum_plan(lists, sizes, optimal=False)
            key = (max(flops, largest), -degree[v], v)
            if best is None or key < best[0]:
                best = (key, v)
        if best is None:
            break
        cut.append(best[1])
    return cut


def plan_component(factors: list[Factor], nvars: int, size: int, budget: BudgetLike | None = None,
                   max_seconds: float | None = None) -> ComponentPlan:
    """The cheapest plan found for one connected component (see the module docstring); letters
    are 0 … size-1.

    ``max_seconds`` (when given) is the time the caller has: cuts whose leaves alone would take
    longer are not even listed, and a best plan estimated beyond it raises BeyondTimeLeft.

    Raises
    ------
    TooLargeToContract
        When no plan is estimated below :data:`MAX_ESTIMATED_SECONDS`.
    BeyondTimeLeft
        When no plan is estimated below ``max_seconds``.
    SearchTimeout
        From ``budget.check()``, called while the plans are listed.
    """
    cap = MAX_ESTIMATED_SECONDS if max_seconds is None else min(MAX_ESTIMATED_SECONDS, max_seconds)
    grid = crossing_grid(factors)
    if grid is not None:
        kernel = K44Plan(factors, grid, size, budget)
        _refuse_beyond(kernel.seconds, max_seconds)
        return kernel
    dom = _domains(factors, nvars, size)
    options: list[tuple[float, ComponentPlan]] = []
    try:
        dense = DensePlan(factors, nvars, size)
        if dense.largest <= MAX_DENSE_ELEMENTS and dense.table_elements <= MAX_TABLE_ELEMENTS:
            options.append((dense.seconds, dense))
    except TooLargeToContract:
        pass
    if not options or options[0][0] > 0.05:
        cut = _greedy_cut(factors, dom, budget)
        for d in range(1, len(cut) + 1):
            if budget is not None:
                budget.check()
            fastest = min((o[0] for o in options), default=math.inf)
            limit = min(MAX_LEAVES, fastest / LEAF_OVERHEAD_S, cap / LEAF_OVERHEAD_S)
            leaves = _cut_leaves(factors, cut[:d], dom, limit, budget)
            if leaves is None:  # deeper cuts only have more leaves: they cannot win
                break
            plan = CutPlan(factors, nvars, size, cut[:d], leaves)
            flops = plan.sample_flops()
            plan.seconds = plan.leaves * (LEAF_OVERHEAD_S + flops / FLOP_RATE)
            options.append((plan.seconds, plan))
    if not options:
        raise TooLargeToContract
    seconds, best = min(options, key=lambda o: o[0])
    _refuse_beyond(seconds, max_seconds)
    return best


def _refuse_beyond(seconds: float, max_seconds: float | None) -> None:
    """Raise when a plan's estimate is beyond what anyone accepts, or beyond the caller's time."""
    if max_seconds is not None and seconds > max_seconds:
        raise BeyondTimeLeft(seconds, max_seconds)
    if seconds > MAX_ESTIMATED_SECONDS:
        raise TooLargeToContract


class NetworkPlan:
    """A whole network: constant × fully summed small components × the chunked outer component.

    Planning checks ``budget`` (when given) and raises SearchTimeout once it is spent; with
    ``max_seconds`` a network estimated to take longer raises BeyondTimeLeft (see
    :func:`plan_component`).

    Attributes
    ----------
    leaves: the number of pieces of the outer loop (1 when the term is a single piece).
    seconds: estimated time of the whole term.
    """

    def __init__(self, network: Network, budget: BudgetLike | None = None,
                 max_seconds: float | None = None) -> None:
        self._inner_value: int | None = None
        self.scalar = network.scalar
        self.inner: list[ComponentPlan] = []
        self.outer: ComponentPlan | None = None
        self.zero = network.scalar == 0
        if self.zero:
            self.leaves, self.seconds = 1, 0.0
            return
        pruned = prune(network.factors, network.nvars, network.size)
        if pruned is None:
            self.zero = True
            self.leaves, self.seconds = 1, 0.0
            return
        plans: list[ComponentPlan] = []
        for group in components(pruned, network.nvars):
            spent = sum(p.seconds for p in plans)
            plans.append(plan_component(group, network.nvars, network.size, budget,
                                        None if max_seconds is None else max(0.0, max_seconds - spent)))
        if plans:
            plans.sort(key=lambda p: p.leaves)
            self.outer = plans[-1]
            self.inner = plans[:-1]
        self.leaves = self.outer.leaves if self.outer is not None else 1
        self.seconds = sum(p.seconds for p in plans)

    @property
    def kind(self) -> str:
        """The outer component's plan kind ('dense', 'cut', 'grid4x4'), or 'constant'."""
        return "zero" if self.zero else (self.outer.kind if self.outer is not None else "constant")

    def run(self, start: int = 0, stop: int | None = None, budget: BudgetLike | None = None) -> int:
        """The term's count restricted to outer leaves ``start..stop-1`` (all by default)."""
        stop = self.leaves if stop is None else stop
        if self.zero or start >= stop:
            return 0
        with single_threaded_blas():
            if self._inner_value is None:  # the small components, summed once for all chunks
                value = self.scalar
                for p in self.inner:
                    value *= p.run(0, p.leaves, budget)
                    if value == 0:
                        break
                self._inner_value = value
            value = self._inner_value
            if value == 0:
                return 0
            if self.outer is not None:
                value *= self.outer.run(start, stop, budget)
            elif start > 0:
                return 0
        return value
