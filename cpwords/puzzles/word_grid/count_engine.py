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

The dense contraction and its exact arithmetic are in :mod:`.count_dense`, the cut plan in
:mod:`.count_cut`.
"""

from __future__ import annotations

import ctypes
import glob
import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from cpwords.puzzles.word_grid.count_base import (
    FLOP_RATE,
    LEAF_OVERHEAD_S,
    MAX_DENSE_ELEMENTS,
    MAX_ESTIMATED_SECONDS,
    MAX_LEAVES,
    MAX_TABLE_ELEMENTS,
    BeyondTimeLeft,
    BudgetLike,
    ComponentPlan,
    TooLargeToContract,
)
from cpwords.puzzles.word_grid.count_cut import CutPlan, _cut_leaves, _greedy_cut
from cpwords.puzzles.word_grid.count_dense import _densify, _domains, contract, einsum_plan
from cpwords.puzzles.word_grid.count_k44 import K44Plan, crossing_grid
from cpwords.puzzles.word_grid.count_network import Factor, Network, _UnionFind

__all__ = ["BeyondTimeLeft", "BudgetLike", "ComponentPlan", "CutPlan", "DensePlan", "NetworkPlan",
           "TooLargeToContract", "components", "contract", "einsum_plan", "plan_component", "prune",
           "single_threaded_blas"]


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
