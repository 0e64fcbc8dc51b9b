"""Counting word grids without listing them: sums of products over the crossing letters.

A grid is a choice of one word per slot such that crossing cells agree. Summing over the
letters of the cells that two slots share, the number of grids is

    Σ_{letters of shared cells} Π_slots (number of words matching the slot's shared letters),

the contraction of a network with one sparse table per slot and one variable per shared cell.

**Distinct words** by inclusion–exclusion over set partitions π of the slots into blocks of
equal length: grids with all words different = Σ_π μ(π) · N(π), where N(π) counts grids whose
slots in each block hold the *same* word (one table per block, its slots' cells identified
position by position) and μ(π) = Π_blocks (−1)^{|B|−1} (|B|−1)!.

**Modulo symmetry** by Burnside's lemma: grids modulo the group = (1/|G|) Σ_g Fix(g), where
Fix(g) counts the grids that g maps onto themselves (cells in each cycle of g identified). With
distinct words Fix(g) = 0 when g carries a slot onto another one (the two would repeat a word).

**Terms.** The count is a weighted sum of independent *terms*, each the count N(π, g) of one
network (:mod:`.count_network`) or a chunk of one (:mod:`.count_terms`): :func:`count_terms`
lists them and :func:`count_term` evaluates one, so a cluster can shard the work (the kind's
:mod:`.shards`); :func:`combine_terms` turns the values into a :class:`GridCount`, and
:func:`count_grids` does all three in this process. Partitions that a symmetry commuting with g
maps onto each other have equal N and share one term (its weight is the sum of their μ); the
partitions come from :mod:`.count_partitions`. A network's plan (:mod:`.count_engine`) sums an
outer loop of *leaves* — assignments of a few cut letters, or for the 7×7 Gridle the four letters
of a 2×2 block of crossings (:mod:`.count_k44`) — and a term with many leaves is split into
chunks of leaves. :func:`count_grids_einsum` (:mod:`.count_einsum`) is the original dense
counter, kept as a reference.

**Exactness.** Every value is an exact integer. Contractions use BLAS on floats only where each
intermediate provably holds an exact integer: all values are sums of non-negative integer
products, so a leaf runs in float32 while its values stay below 2**24, in float64 while they stay
below 2**53 (checked with margins, or bounded a priori), and otherwise in Python integers; leaf
values, terms and weights are added as Python ints. See :mod:`.count_engine` and :mod:`.count_k44`.

Example
-------
How the pieces fit (``problem`` is a grid problem, see :mod:`.problem`)::

    terms = count_terms(problem)                      # list the independent pieces
    values = [count_term(problem, t) for t in terms]  # anywhere, in any order
    assert combine_terms(problem, terms, values).raw == count_grids(problem).raw
"""


from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from cpwords.geometry import Symmetry
from cpwords.puzzles.word_grid.count_base import BeyondTimeLeft, BudgetLike, TooLargeToContract
from cpwords.puzzles.word_grid.count_einsum import count_grids_einsum, identified_count
from cpwords.puzzles.word_grid.count_engine import NetworkPlan
from cpwords.puzzles.word_grid.count_network import word_arrays
from cpwords.puzzles.word_grid.count_partitions import set_partitions, slot_partitions
from cpwords.puzzles.word_grid.count_terms import (
    GridCount,
    Term,
    burnside,
    combine_terms,
    count_term,
    count_terms,
    grids_plan,
    group_elements,
    network_plan,
    singletons,
    term_classes,
)
from cpwords.puzzles.word_grid.problem import GridProblem

__all__ = [
    "BeyondTimeLeft", "CountProgress", "GridCount", "Term", "TooLargeToContract", "combine_terms", "count_grids",
    "count_grids_einsum", "count_term", "count_terms", "describe_terms", "grids_plan", "identified_count",
    "set_partitions", "slot_partitions",
]

#: Leaves per piece of the outer loop when a term is summed here (the unit of partial progress).
RUN_CHUNK = 256


@dataclass
class CountProgress:
    """How far :func:`count_grids` got: filled in as it goes, so a stopped count still tells.

    Attributes
    ----------
    terms: term classes to evaluate (known once listed).
    terms_done: term classes evaluated.
    raw_at_least: a proven lower bound on the raw count, or None when the finished part gives
        none. Without distinct words the raw count is one term (the grids themselves) summed
        over leaves, so the leaves summed so far bound it from below; with distinct words the
        terms carry signs and a partial sum bounds nothing.
    """

    terms: int = 0
    terms_done: int = 0
    raw_at_least: int | None = None


def count_grids(problem: GridProblem, *, budget: BudgetLike | None = None,
                progress: CountProgress | None = None) -> GridCount:
    """Exact number of grids (all, and modulo the problem's symmetry group), in this process
    (a split of the count over processes is the kind's :mod:`.shards`, run by the cluster runner).

    Parameters
    ----------
    problem:
        The grid problem (shape, candidate words, symmetry group, distinct words or not).
    budget:
        Checked between terms, between pieces of a term and inside every plan's leaf loop; its
        ``check()`` raises SearchTimeout when time is up.
    progress:
        Filled in while counting (terms done, a lower bound on the raw count), for a caller
        that reports how far a stopped count got.

    Returns
    -------
    GridCount
        Raw count, count modulo symmetry, Burnside fixed points per group element, and the
        number of networks contracted.

    Raises
    ------
    TooLargeToContract
        When some term's network cannot be contracted in reasonable time.
    SearchTimeout
        From ``budget.check()`` when the time limit passes (``progress`` says how far it got).
    """
    progress = progress if progress is not None else CountProgress()
    arrays = word_arrays(problem)
    # with distinct words, the grids' own term first: it may refuse the whole count at once
    first = grids_plan(problem, arrays, budget) if problem.distinct else None
    elements = group_elements(problem)
    classes = {g.name: term_classes(problem, g, budget) if possible else [] for g, possible in elements}
    progress.terms = sum(len(c) for c in classes.values())
    fixed: dict[str, int] = {}
    for g, _possible in elements:
        fixed[g.name] = _fixed_grids(problem, g, classes[g.name], arrays, first if g.is_identity else None,
                                     budget, progress)
        if g.is_identity:
            progress.raw_at_least = fixed[g.name]
    return burnside(problem, fixed, progress.terms)


def _fixed_grids(problem: GridProblem, g: Symmetry, classes: list[tuple[tuple[tuple[int, ...], ...], int]],
                 arrays: dict[int, Any], first: NetworkPlan | None, budget: BudgetLike | None,
                 progress: CountProgress) -> int:
    """Σ weight · N(π, g) over g's term ``classes``: the grids that g maps onto themselves (every
    grid for the identity). ``first``: the grids' own plan when it was made already."""
    total = 0
    # without distinct words the identity's only term is the raw count itself
    bounds_raw = g.is_identity and not problem.distinct
    if bounds_raw:
        progress.raw_at_least = 0
    for partition, weight in classes:
        if budget is not None:
            budget.check()
        if first is not None and partition == singletons(problem):
            plan, first = first, None
        else:
            plan = network_plan(problem, g, partition, arrays, budget)

        def on_partial(value: int, weight: int = weight) -> None:
            if bounds_raw:
                progress.raw_at_least = weight * value

        total += weight * _run_plan(plan, budget, on_partial)
        progress.terms_done += 1
    return total


def _run_plan(plan: NetworkPlan, budget: BudgetLike | None, on_partial: Any = None) -> int:
    """All leaves of a plan, in this process, :data:`RUN_CHUNK` leaves at a time.

    ``on_partial(total)`` is called with the sum of the pieces finished so far after each one,
    so that a stop (SearchTimeout from ``budget.check()``) loses only the piece under way.
    """
    total = 0
    for start in range(0, plan.leaves, RUN_CHUNK):
        total += plan.run(start, min(start + RUN_CHUNK, plan.leaves), budget)
        if on_partial is not None:
            on_partial(total)
    return total


def describe_terms(problem: GridProblem) -> list[dict[str, Any]]:
    """Per term class: group element, partition, weight, plan kind, leaves and estimated seconds
    (for choosing chunk sizes and for diagnostics)."""
    arrays = word_arrays(problem)
    out = []
    for g, possible in group_elements(problem):
        if not possible:
            continue
        for partition, weight in term_classes(problem, g):
            t0 = time.perf_counter()
            plan = network_plan(problem, g, partition, arrays)
            out.append({"group_element": g.name, "partition": partition, "weight": weight, "plan": plan.kind,
                        "leaves": plan.leaves, "estimated_seconds": plan.seconds,
                        "planning_seconds": time.perf_counter() - t0})
    return out
