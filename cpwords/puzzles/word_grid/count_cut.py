"""The *cut* plan of :mod:`.count_engine`: condition on a few variables, contract each leaf densely.

The cut variables are chosen greedily (each time the one whose removal leaves the cheapest
contraction); a *leaf* is an assignment of the cut consistent with every factor's projection on
it. Each leaf slices the factors (rows sorted by their cut letters, so a leaf's rows are one
range), prunes the domains again (they shrink a lot) and contracts densely
(:mod:`.count_dense`). Listing the leaves and sampling their cost is the planner's work, so
both stay in bounded memory: leaves are grown a million rows at a time, one byte a letter, and a
cut is given up as soon as it has more leaves than the caller accepts; a sampled leaf's cost
comes from its domains, without making its tables.
"""

from __future__ import annotations

import math

import numpy as np

from cpwords.puzzles.word_grid.count_base import (
    FLOAT32_LIMIT,
    MAX_CUT,
    MAX_DENSE_ELEMENTS,
    MAX_LEAVES,
    MAX_TABLE_ELEMENTS,
    BudgetLike,
    ComponentPlan,
)
from cpwords.puzzles.word_grid.count_dense import _densify, _domains, contract, einsum_plan
from cpwords.puzzles.word_grid.count_network import Factor

#: Rows of cut assignments grown at once while the leaves are listed (bounds planning's memory).
EXPAND_ROWS = 1 << 20
#: Largest code space of a factor's cut letters checked through a table of booleans (bytes).
LOOKUP_CODES = 1 << 24


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
