"""Counting 4×4 crossing grids (the 7×7 Gridle shape) by blocks of 2×2 crossing letters.

Four across words (rows i) and four down words (columns j) that all cross once: x[i][j] is the
letter of their crossing, each word's table is a 4-index tensor over its crossing letters (its
other letters summed out). Pair the rows into A = {a1, a2}, B = {b1, b2} and the columns into
P = {p1, p2}, Q = {q1, q2}: the 16 letters fall into four 2×2 blocks A×P, A×Q, B×P, B×Q, and
each word touches two of them. Fixing the four letters K of block A×P (a *leaf*):

* rows a1, a2 become n×n matrices (n letters used) M1, M2 over their letters in A×Q, columns p1, p2 matrices
  N1, N2 over their letters in B×P;
* with β = the block B×Q, the columns q1, q2 and M1, M2 give
  F[(β11, β21), (β12, β22)] = Σ M1[u1,u2] M2[v1,v2] Cq1[u1,v1,(β11,β21)] Cq2[u2,v2,(β12,β22)]
  and the rows b1, b2 and N1, N2 give G[(β11, β12), (β21, β22)] likewise;
* the leaf's count is Σ_β F·G (the same letters, G's pairs regrouped).

F is one matrix product Yᵀ·Z: two of u1, u2, v1, v2 (one from each matrix, the pair with the
fewest letter combinations r, about 50 for Gridle's list) stay as the product's inner index, the
other two are summed into Y and Z first. Its rows and columns cover only the box of β letters
that both F's and G's occurring letter pairs use (about 20 letters each), so F and G are dense
arrays over the same box and the leaf is one float64 dot product of F with G's axes swapped. The
products run in float32 when the leaf's a-priori bound (Σ M1 · Σ M2 · largest table entries)
shows every entry below 2**24, else in float64, else (bound or result beyond 2**50) in Python
integers. The count is the sum over the leaves; that loop is what a term's chunks split.

Which row/column pairing and which block to fix is chosen by a cost model over the 36 choices
(for the 7×7 Gridle list: the crossings of rows and columns 5 and 7, 65,383 leaves). When the
rows' tensors equal the columns' up to a relabelling σ (one word list for all slots: a transpose
symmetry), fixing a block A×σ(A) makes a leaf and its transpose (k12 ↔ k21) count the same, so
only one of the two is computed, with weight 2 (35,368 leaves for Gridle).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from cpwords.puzzles.word_grid.count_base import (
    EXACT_LIMIT,
    FLOP_RATE,
    LEAF_OVERHEAD_S,
    BudgetLike,
    ComponentPlan,
)
from cpwords.puzzles.word_grid.count_network import Factor

#: float32 holds every integer below 2**24; F and G entries below it are exact in single precision.
FLOAT32_EXACT = 2.0 ** 24
_PAIRINGS = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]


def crossing_grid(factors: list[Factor]) -> tuple[list[Factor], list[Factor], list[list[int]]] | None:
    """Recognise four row and four column factors that pairwise share exactly one variable.

    Returns
    -------
    (rows, cols, x) or None
        ``x[i][j]`` is the variable shared by ``rows[i]`` and ``cols[j]``.
    """
    if len(factors) != 8 or any(len(f.vars) != 4 for f in factors):
        return None
    first = set(factors[0].vars)
    rows = [factors[0]] + [f for f in factors[1:] if not first & set(f.vars)]
    cols = [f for f in factors[1:] if first & set(f.vars)]
    if len(rows) != 4 or len(cols) != 4:
        return None
    x = []
    for r in rows:
        line = []
        for c in cols:
            common = set(r.vars) & set(c.vars)
            if len(common) != 1:
                return None
            line.append(common.pop())
        x.append(line)
    if len({v for line in x for v in line}) != 16:
        return None
    return rows, cols, x


def _dense(f: Factor, order: list[int], code: np.ndarray, n: int) -> np.ndarray:
    """The factor as a dense n⁴ float64 tensor (letters renumbered by ``code``) with axes in the
    variable order ``order``."""
    t = np.zeros((n,) * 4)
    cols = [f.vars.index(v) for v in order]
    np.add.at(t, tuple(code[f.letters[:, c]] for c in cols), f.counts.astype(np.float64))
    return t


class _Half:
    """One side of a leaf, Σ M1[u1,u2] M2[v1,v2] L[u1,v1,:] ⊗ R[u2,v2,:], as a product Yᵀ·Z.

    The product runs over r = two of u1, u2, v1, v2 (one from each matrix, the pair with the
    fewest letter combinations); the other two are summed into Y and Z first.
    """

    def __init__(self, first: np.ndarray, second: np.ndarray, left: np.ndarray, right: np.ndarray) -> None:
        # first/second: [k, k', u1, u2] tensors giving M1 = first[k, k'] and M2 = second[..]
        n = first.shape[0]
        nz1, nz2 = first != 0, second != 0
        self.rows1 = [[np.flatnonzero(nz1[a, b].any(1)) for b in range(n)] for a in range(n)]
        self.cols1 = [[np.flatnonzero(nz1[a, b].any(0)) for b in range(n)] for a in range(n)]
        self.rows2 = [[np.flatnonzero(nz2[a, b].any(1)) for b in range(n)] for a in range(n)]
        self.cols2 = [[np.flatnonzero(nz2[a, b].any(0)) for b in range(n)] for a in range(n)]
        self.sum1 = first.sum(axis=(2, 3))
        self.sum2 = second.sum(axis=(2, 3))
        # left/right in pair layout: [u1, v1, pair] over the pairs that occur at all
        lp = left.reshape(n, n, n * n)
        rp = right.reshape(n, n, n * n)
        self.lpairs = np.flatnonzero(lp.any(axis=(0, 1)))
        self.rpairs = np.flatnonzero(rp.any(axis=(0, 1)))
        # where each letter pair sits among the columns; pairs that never occur point at an
        # extra all-zero column, so a leaf can ask for any box of pairs
        self.lpair_at = np.full(n * n, len(self.lpairs))
        self.lpair_at[self.lpairs] = np.arange(len(self.lpairs))
        self.rpair_at = np.full(n * n, len(self.rpairs))
        self.rpair_at[self.rpairs] = np.arange(len(self.rpairs))
        lz = np.concatenate([lp[:, :, self.lpairs], np.zeros((n, n, 1))], axis=2)
        rz = np.concatenate([rp[:, :, self.rpairs], np.zeros((n, n, 1))], axis=2)
        self.bound = float(left.max(initial=0)) * float(right.max(initial=0))
        self.arrays: dict[Any, tuple[np.ndarray, ...]] = {}
        for dtype in (np.float32, np.float64, object):
            self.arrays[dtype] = (np.ascontiguousarray(first, dtype=dtype), np.ascontiguousarray(second, dtype=dtype),
                                  np.ascontiguousarray(lz, dtype=dtype), np.ascontiguousarray(rz, dtype=dtype))

    def sides(self, k1: tuple[int, int], k2: tuple[int, int], dtype: Any) -> tuple[np.ndarray, np.ndarray]:
        """(Y, Z) with the half's matrix = Yᵀ·Z: rows over r, columns over the left/right pairs."""
        first, second, left, right = self.arrays[dtype]
        s1, t1 = self.rows1[k1[0]][k1[1]], self.cols1[k1[0]][k1[1]]
        s2, t2 = self.rows2[k2[0]][k2[1]], self.cols2[k2[0]][k2[1]]
        m1 = first[k1[0], k1[1]][np.ix_(s1, t1)]
        m2 = second[k2[0], k2[1]][np.ix_(s2, t2)]
        a, b, c, d = len(s1), len(t1), len(s2), len(t2)
        best = min(b * d, a * c, b * c, a * d)
        if best == b * d:  # r = (u2, v2): sum u1, v1 into the left side
            tmp = (m1.T @ left[np.ix_(s1, s2)].reshape(a, -1)).reshape(b, c, -1)
            y = np.matmul(tmp.transpose(0, 2, 1), m2).transpose(0, 2, 1).reshape(b * d, -1)
            return y, right[np.ix_(t1, t2)].reshape(b * d, -1)
        if best == a * c:  # r = (u1, v1): sum u2, v2 into the right side
            tmp = (m1 @ right[np.ix_(t1, t2)].reshape(b, -1)).reshape(a, d, -1)
            z = np.matmul(tmp.transpose(0, 2, 1), m2.T).transpose(0, 2, 1).reshape(a * c, -1)
            return left[np.ix_(s1, s2)].reshape(a * c, -1), z
        if best == b * c:  # r = (u2, v1): u1 into the left side, v2 into the right side
            y = (m1.T @ left[np.ix_(s1, s2)].reshape(a, -1)).reshape(b * c, -1)
            z = np.matmul(m2[None], right[np.ix_(t1, t2)]).reshape(b * c, -1)
            return y, z
        # r = (u1, v2): v1 into the left side, u2 into the right side
        y = np.matmul(m2.T[None], left[np.ix_(s1, s2)]).reshape(a * d, -1)
        z = (m1 @ right[np.ix_(t1, t2)].reshape(b, -1)).reshape(a * d, -1)
        return y, z


class K44Plan(ComponentPlan):
    """The block kernel for a 4×4 crossing grid (see the module docstring).

    Parameters
    ----------
    factors:
        The component's eight factors.
    grid:
        :func:`crossing_grid` of them.
    size:
        The alphabet's size (letters are 0 … size-1).
    budget:
        Checked while the layout is chosen (SearchTimeout when spent).

    Attributes
    ----------
    layout: (A, B, P, Q) — the row pairs and column pairs; block A×P is fixed per leaf.
    symmetric: whether leaves come in transposed pairs (only one of each is computed).
    leaf_keys: the letters (k11, k12, k21, k22) of block A×P of each leaf, ``weights`` their weights.
    """

    kind = "grid4x4"

    def __init__(self, factors: list[Factor], grid: tuple[list[Factor], list[Factor], list[list[int]]],
                 size: int, budget: BudgetLike | None = None) -> None:
        rows, cols, x = grid
        used = np.zeros(size, dtype=bool)
        for f in factors:
            used[f.letters.ravel()] = True
        self.n = n = int(used.sum())  # letters renumbered 0..n-1: small alphabets stay small
        code = np.cumsum(used) - 1
        self.rowt = [_dense(rows[i], x[i], code, n) for i in range(4)]  # axes: columns 0..3
        self.colt = [_dense(cols[j], [x[i][j] for i in range(4)], code, n) for j in range(4)]  # axes: rows 0..3
        self._stats: dict[tuple[Any, ...], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        sigma = self._transpose_symmetry()
        # every way to pair the rows and the columns and to pick the block to fix: cheapest wins
        best = None
        for (ra, rb), (pa, pb), swap_r, swap_c in itertools.product(_PAIRINGS, _PAIRINGS, (False, True), (False, True)):
            if budget is not None:
                budget.check()
            a, b = (rb, ra) if swap_r else (ra, rb)
            p, q = (pb, pa) if swap_c else (pa, pb)
            symmetric = sigma is not None and {sigma[a[0]], sigma[a[1]]} == set(p)
            if symmetric:
                assert sigma is not None
                p = (sigma[a[0]], sigma[a[1]])
                q = (sigma[b[0]], sigma[b[1]])
            cost = self._cost(a, b, p, q, symmetric)
            if best is None or cost < best[0]:
                best = (cost, a, b, p, q, symmetric)
        assert best is not None
        self.seconds, a, b, p, q, self.symmetric = best
        self.layout = (a, b, p, q)
        self._build(a, b, p, q)
        keys = np.argwhere(self._valid(a, b, p, q))
        if self.symmetric:
            keys = keys[keys[:, 1] <= keys[:, 2]]
            self.weights = np.where(keys[:, 1] < keys[:, 2], 2, 1)
        else:
            self.weights = np.ones(len(keys), dtype=np.int64)
        self.leaf_keys = keys
        self.leaves = len(keys)

    def _transpose_symmetry(self) -> list[int] | None:
        """σ (rows → columns) with colt[σ(i)] == rowt[i] read through σ, if one exists."""
        for sigma in itertools.permutations(range(4)):
            if all(np.array_equal(self.colt[sigma[i]], self.rowt[i].transpose(sigma)) for i in range(4)):
                return list(sigma)
        return None

    def _parts(self, a: tuple[int, int], b: tuple[int, int], p: tuple[int, int],
               q: tuple[int, int]) -> tuple[np.ndarray, ...]:
        ra = [self.rowt[i].transpose([p[0], p[1], q[0], q[1]]) for i in a]  # [k, k', u1, u2]
        rb = [self.rowt[i].transpose([p[0], p[1], q[0], q[1]]) for i in b]  # [s1, s2, β1, β2]
        cp = [self.colt[j].transpose([a[0], a[1], b[0], b[1]]) for j in p]  # [k, k', s, t]
        cq = [self.colt[j].transpose([a[0], a[1], b[0], b[1]]) for j in q]  # [u, v, β1, β2]
        return ra[0], ra[1], rb[0], rb[1], cp[0], cp[1], cq[0], cq[1]

    def _stat(self, kind: str, i: int, fixed: tuple[int, int], free: tuple[int, int]) -> tuple[np.ndarray, ...]:
        """For a word tensor with two axes fixed: (has rows, #letters of free axis 0, of free axis 1)."""
        key = (kind, i, *fixed, *free)
        if key not in self._stats:
            t = (self.rowt if kind == "row" else self.colt)[i].transpose([*fixed, *free]) != 0
            self._stats[key] = (t.any(axis=(2, 3)), t.any(axis=3).sum(axis=2), t.any(axis=2).sum(axis=2))
        return self._stats[key]

    def _valid(self, a: tuple[int, int], b: tuple[int, int], p: tuple[int, int], q: tuple[int, int]) -> np.ndarray:
        """Leaves with every fixed word matrix non-empty, over (k11, k12, k21, k22)."""
        h1 = self._stat("row", a[0], p, q)[0][:, :, None, None]
        h2 = self._stat("row", a[1], p, q)[0][None, None, :, :]
        h3 = self._stat("col", p[0], a, b)[0][:, None, :, None]
        h4 = self._stat("col", p[1], a, b)[0][None, :, None, :]
        return h1 & h2 & h3 & h4

    def _cost(self, a: tuple[int, int], b: tuple[int, int], p: tuple[int, int], q: tuple[int, int],
              symmetric: bool) -> float:
        """Estimated seconds: leaves × overhead + the two products' flops per leaf."""
        n = self.n
        valid = self._valid(a, b, p, q)
        _, s1, c1 = self._stat("row", a[0], p, q)
        _, s2, c2 = self._stat("row", a[1], p, q)
        r_f = np.minimum(s1[:, :, None, None] * s2[None, None], c1[:, :, None, None] * c2[None, None])
        _, s3, c3 = self._stat("col", p[0], a, b)
        _, s4, c4 = self._stat("col", p[1], a, b)
        r_g = np.minimum(s3[:, None, :, None] * s4[None, :, None, :], c3[:, None, :, None] * c4[None, :, None, :])

        def pairs(t: np.ndarray) -> int:
            return int((t.reshape(n, n, n * n) != 0).any(axis=(0, 1)).sum())

        ra1, ra2, rb1, rb2, cp1, cp2, cq1, cq2 = self._parts(a, b, p, q)
        # measured on Gridle's list: the pairs occurring in a leaf are about half of all
        per_leaf = 2 * (r_f * pairs(cq1) * pairs(cq2) + r_g * pairs(rb1) * pairs(rb2)) / 4
        seconds = float(valid.sum() * 2.5 * LEAF_OVERHEAD_S + per_leaf[valid].sum() / FLOP_RATE)
        return seconds / 2 if symmetric else seconds

    def _build(self, a: tuple[int, int], b: tuple[int, int], p: tuple[int, int], q: tuple[int, int]) -> None:
        n = self.n
        ra1, ra2, rb1, rb2, cp1, cp2, cq1, cq2 = self._parts(a, b, p, q)
        # F over (β11, β21) × (β12, β22) from rows a1, a2 and columns q1, q2
        self.f = _Half(ra1, ra2, cq1, cq2)
        # G over (β11, β12) × (β21, β22) from columns p1, p2 and rows b1, b2
        self.g = _Half(cp1, cp2, rb1, rb2)
        self.f_row = (self.f.lpairs // n, self.f.lpairs % n)   # β11, β21 of F's rows
        self.f_col = (self.f.rpairs // n, self.f.rpairs % n)   # β12, β22 of F's columns
        self.g_row = (self.g.lpairs // n, self.g.lpairs % n)   # β11, β12 of G's rows
        self.g_col = (self.g.rpairs // n, self.g.rpairs % n)   # β21, β22 of G's columns

    def leaf(self, key: np.ndarray, dtype: Any = np.float64) -> float | int:
        """The count of one leaf (block A×P letters ``key`` = k11, k12, k21, k22)."""
        n = self.n
        k11, k12, k21, k22 = (int(v) for v in key)
        yf, rf = self.f.sides((k11, k12), (k21, k22), dtype)
        yg, rg = self.g.sides((k11, k21), (k12, k22), dtype)
        fr, fc = np.asarray(yf.any(axis=0)), np.asarray(rf.any(axis=0))
        gr, gc = np.asarray(yg.any(axis=0)), np.asarray(rg.any(axis=0))
        # the letters of block B×Q that both F's and G's pairs use (β11, β21, β12, β22)
        boxes = []
        for fa, fmask, ga, gmask in ((self.f_row[0], fr, self.g_row[0], gr), (self.f_row[1], fr, self.g_col[0], gc),
                                     (self.f_col[0], fc, self.g_row[1], gr), (self.f_col[1], fc, self.g_col[1], gc)):
            m1 = np.zeros(n, dtype=bool)
            m1[fa[fmask[:-1]]] = True
            m2 = np.zeros(n, dtype=bool)
            m2[ga[gmask[:-1]]] = True
            boxes.append(np.flatnonzero(m1 & m2))
        l11, l21, l12, l22 = boxes
        if not (len(l11) and len(l21) and len(l12) and len(l22)):
            return 0
        # F and G as dense arrays over the box of those letters (pairs that never occur read the
        # all-zero last column), then Σ F[a,b,c,d]·G[a,c,b,d]
        f4 = (yf[:, self.f.lpair_at[(l11[:, None] * n + l21).ravel()]].T
              @ rf[:, self.f.rpair_at[(l12[:, None] * n + l22).ravel()]])
        g4 = (yg[:, self.g.lpair_at[(l11[:, None] * n + l12).ravel()]].T
              @ rg[:, self.g.rpair_at[(l21[:, None] * n + l22).ravel()]])
        f4 = f4.reshape(len(l11), len(l21), len(l12), len(l22))
        g4 = g4.reshape(len(l11), len(l12), len(l21), len(l22))
        if dtype is object:
            return int((f4 * g4.transpose(0, 2, 1, 3)).sum())
        # float32 entries are exact below 2**24 but their products' sum may not be: float64
        return float(np.einsum("abcd,acbd->", f4, g4, dtype=np.float64))

    def run(self, start: int, stop: int, budget: BudgetLike | None) -> int:
        total = 0
        for i in range(start, min(stop, self.leaves)):
            if budget is not None and i % 64 == 0:
                budget.check()
            key = self.leaf_keys[i]
            k11, k12, k21, k22 = (int(v) for v in key)
            bound_f = self.f.sum1[k11, k12] * self.f.sum2[k21, k22] * self.f.bound
            bound_g = self.g.sum1[k11, k21] * self.g.sum2[k12, k22] * self.g.bound
            value = None
            if bound_f < EXACT_LIMIT and bound_g < EXACT_LIMIT:
                dtype = np.float32 if max(bound_f, bound_g) < FLOAT32_EXACT else np.float64
                v = self.leaf(key, dtype)
                if v < EXACT_LIMIT:
                    value = int(v)
            if value is None:  # float64 might round: redo with Python integers
                value = int(self.leaf(key, dtype=object))
            total += int(self.weights[i]) * value
        return total
