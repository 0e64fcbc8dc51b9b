"""The terms of a word-grid count: the independent pieces a count is the weighted sum of.

One term per Burnside group element g and class of slot partitions π of the inclusion–exclusion
(:mod:`.count_partitions`), each the count N(π, g) of one network (:mod:`.count_network`) or of a
range of its plan's outer leaves (:mod:`.count_engine`). :func:`count_terms` lists them,
:func:`count_term` evaluates one anywhere (the shards of :mod:`.shards`), :func:`combine_terms`
adds them up into a :class:`GridCount`. Partitions that a symmetry commuting with g maps onto each
other have equal N and share one term (its weight is the sum of their μ). :func:`grids_plan` plans
the grids' own term first: when it cannot be contracted, nothing can.

Example
-------
``problem`` is a grid problem (:mod:`.problem`)::

    terms = count_terms(problem)                      # list the independent pieces
    values = [count_term(problem, t) for t in terms]  # anywhere, in any order
    assert combine_terms(problem, terms, values).raw == count_grids(problem).raw
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from cpwords.engines.budget import SearchTimeout
from cpwords.geometry import Symmetry
from cpwords.puzzles.word_grid.count_base import BeyondTimeLeft, BudgetLike
from cpwords.puzzles.word_grid.count_engine import NetworkPlan
from cpwords.puzzles.word_grid.count_network import build_network, word_arrays
from cpwords.puzzles.word_grid.count_partitions import (
    CHECK_EVERY,
    check_partitions,
    length_groups,
    slot_partitions,
)
from cpwords.puzzles.word_grid.problem import GridProblem

__all__ = [
    "CHUNK_LEAVES", "PLAN_SHARE", "GridCount", "Term", "burnside", "combine_terms", "count_term", "count_terms",
    "grids_plan", "group_elements", "moves_a_slot", "network_plan", "singletons", "term_classes",
]

#: Share of the time left that planning the grids' own term may take, with distinct words
#: (:func:`grids_plan`): a count whose planning takes longer could not finish anyway.
PLAN_SHARE = 0.5
#: Terms with more outer leaves than this are split into chunks by :func:`count_terms`.
CHUNK_LEAVES = 8192


@dataclass
class GridCount:
    """Exact counts: all grids (``raw``) and grids modulo the symmetry group."""

    raw: int
    modulo_symmetry: int
    fixed_points: dict[str, int] = field(default_factory=dict)
    contractions: int = 0


@dataclass(frozen=True)
class Term:
    """One independent piece of a grid count.

    Attributes
    ----------
    group_element: name of the symmetry g whose fixed grids the term counts ("identity": all).
    partition: blocks of slot indices that hold the same word (singletons: no constraint).
    weight: the term's coefficient, μ(π) times the number of partitions it stands for.
    chunk: outer leaves ``(start, stop)`` of the term's plan, or None for all of them.
    leaves: the plan's number of outer leaves (checked by :func:`count_term`).
    """

    group_element: str
    partition: tuple[tuple[int, ...], ...]
    weight: int
    chunk: tuple[int, int] | None = None
    leaves: int = 1


def moves_a_slot(problem: GridProblem, g: Symmetry) -> bool:
    """Whether ``g`` carries some slot onto another one (with distinct words it fixes no grid)."""
    return any(tuple(g.perm[c] for c in slot) != slot for slot in problem.slots)


def slot_images(problem: GridProblem, h: Symmetry) -> list[int]:
    """The index of the slot that ``h`` carries each slot onto."""
    where = {slot: s for s, slot in enumerate(problem.slots)}
    return [where[tuple(h.perm[c] for c in slot)] for slot in problem.slots]


def canonical_partition(partition: list[list[int]] | tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """The partition as sorted tuples (equal partitions, equal keys).

    >>> canonical_partition([[3, 1], [0]])
    ((0,), (1, 3))
    """
    return tuple(sorted(tuple(sorted(b)) for b in partition))


def term_classes(problem: GridProblem, g: Symmetry,
                 budget: BudgetLike | None = None) -> list[tuple[tuple[tuple[int, ...], ...], int]]:
    """(representative partition, summed μ) per class of partitions equal under symmetries that
    commute with g (those give equal counts of g-fixed grids); ``budget`` is checked every
    :data:`CHECK_EVERY` partitions (an open 6×6 lists 4.2 million)."""
    commuting = [h for h in problem.group
                 if all(h.perm[g.perm[c]] == g.perm[h.perm[c]] for c in range(len(problem.cells)))]
    images = [slot_images(problem, h) for h in commuting if not h.is_identity]
    classes: dict[tuple[tuple[int, ...], ...], int] = {}
    for n, (mu, partition) in enumerate(slot_partitions(problem)):
        if budget is not None and n % CHECK_EVERY == 0:
            budget.check()
        key = canonical_partition(partition)
        for img in images:
            key = min(key, canonical_partition([[img[s] for s in b] for b in partition]))
        classes[key] = classes.get(key, 0) + mu
    return [(p, w) for p, w in classes.items() if w]


def group_elements(problem: GridProblem) -> list[tuple[Symmetry, bool]]:
    """Each group element and whether its fixed points can be non-zero."""
    return [(g, not (problem.distinct and not g.is_identity and moves_a_slot(problem, g))) for g in problem.group]


def network_plan(problem: GridProblem, g: Symmetry, partition: tuple[tuple[int, ...], ...],
                 arrays: dict[int, np.ndarray], budget: BudgetLike | None = None,
                 max_seconds: float | None = None) -> NetworkPlan:
    """The plan of the term N(π, g): the network of ``partition`` with cells identified along ``g``."""
    network = build_network(problem, partition, None if g.is_identity else g.perm, arrays)
    return NetworkPlan(network, budget, max_seconds)


def singletons(problem: GridProblem) -> tuple[tuple[int, ...], ...]:
    """The partition of the slots into singletons: every slot its own word (the grids' own term)."""
    return tuple((s,) for s in range(len(problem.slots)))


def grids_plan(problem: GridProblem, arrays: dict[int, np.ndarray], budget: BudgetLike | None = None,
               workers: int | None = 1) -> NetworkPlan:
    """The plan of the term that counts the grids themselves (identity, every slot its own word),
    made before anything else.

    Every count has this term (μ = 1, the identity) and, with distinct words, it is the largest
    network (the other partitions merge slots): when it cannot be contracted, nothing can, and
    the count says so at once instead of after listing millions of partitions (an open 5×5 has
    115,975). With distinct words and a time limit the planner is also told the time left (times
    ``workers``, the processes that will count: 1 for :func:`count_grids`, which counts in this
    process): a partial sum of signed terms bounds nothing, so a count that cannot finish
    raises BeyondTimeLeft and the caller counts by listing grids instead, which bounds from below;
    so does a plan that takes more than :data:`PLAN_SHARE` of the time left to make (the 7×7
    Gridle's takes about a second). ``workers=None`` (the shards of a cluster of unknown size,
    :func:`count_terms`) never refuses by the time left.

    Raises
    ------
    TooLargeToContract, BeyondTimeLeft, SearchTimeout
        As :class:`~.count_engine.NetworkPlan`.
    """
    if problem.distinct:
        check_partitions(length_groups(problem))  # before planning: too many terms is quicker to tell
    left = seconds_left(budget) if problem.distinct and workers is not None else None
    identity = next(g for g in problem.group if g.is_identity)
    if left is None or workers is None:
        return network_plan(problem, identity, singletons(problem), arrays, budget)
    child = getattr(budget, "child", None)
    planning = child(left * PLAN_SHARE) if callable(child) else budget
    try:
        return network_plan(problem, identity, singletons(problem), arrays, planning, left * max(1, workers))
    except SearchTimeout:
        if budget is None or budget.expired():
            raise
        raise BeyondTimeLeft(math.inf, left, planning=True) from None  # no time left to count


def seconds_left(budget: BudgetLike | None) -> float | None:
    """The seconds ``budget`` has left, None without a deadline (or for a budget that cannot tell)."""
    left = getattr(budget, "left", None)
    return left() if callable(left) else None


def count_terms(problem: GridProblem, *, chunk_leaves: int = CHUNK_LEAVES,
                budget: BudgetLike | None = None) -> list[Term]:
    """The independent terms of the count (see the module docstring).

    Parameters
    ----------
    problem:
        The grid problem.
    chunk_leaves:
        Terms whose plan has more outer leaves are split into chunks of this many leaves.
    budget:
        Checked while the terms are planned (raises SearchTimeout when time is up).

    Returns
    -------
    list[Term]
        Terms for every group element whose fixed points can exist; evaluate each with
        :func:`count_term` and combine with :func:`combine_terms`.

    Raises
    ------
    TooLargeToContract
        When some term's network cannot be contracted in reasonable time.
    """
    arrays = word_arrays(problem)
    first = grids_plan(problem, arrays, budget, workers=None) if problem.distinct else None
    terms: list[Term] = []
    for g, possible in group_elements(problem):
        if not possible:
            continue
        for partition, weight in term_classes(problem, g, budget):
            if budget is not None:
                budget.check()
            if first is not None and g.is_identity and partition == singletons(problem):
                plan, first = first, None
            else:
                plan = network_plan(problem, g, partition, arrays, budget)
            if plan.leaves <= chunk_leaves:
                terms.append(Term(g.name, partition, weight, None, plan.leaves))
                continue
            for start in range(0, plan.leaves, chunk_leaves):
                terms.append(Term(g.name, partition, weight, (start, min(start + chunk_leaves, plan.leaves)),
                                  plan.leaves))
    return terms


def count_term(problem: GridProblem, term: Term, *, budget: BudgetLike | None = None) -> int:
    """The unweighted count N(π, g) of one term (restricted to its chunk of leaves).

    Parameters
    ----------
    problem:
        The problem the term was listed for.
    term:
        A term of :func:`count_terms`.
    budget:
        Checked regularly; its ``check()`` raises SearchTimeout when time is up.

    Returns
    -------
    int
        The exact count.

    Raises
    ------
    ValueError
        The term's group element is unknown, or its plan has a different number of leaves
        than when it was listed (a different problem or word list).
    TooLargeToContract
        When the term's network cannot be contracted.
    """
    byname = {g.name: g for g in problem.group}
    if term.group_element not in byname:
        raise ValueError(f"unknown group element {term.group_element!r}")
    plan = network_plan(problem, byname[term.group_element], term.partition, word_arrays(problem), budget)
    if term.chunk is None:
        return plan.run(0, plan.leaves, budget)
    if plan.leaves != term.leaves:
        raise ValueError(f"term lists {term.leaves} leaves but its plan here has {plan.leaves}")
    return plan.run(term.chunk[0], term.chunk[1], budget)


def combine_terms(problem: GridProblem, terms: list[Term], values: list[int]) -> GridCount:
    """The :class:`GridCount` from the values of all of :func:`count_terms`' terms.

    Raises
    ------
    AssertionError
        When Burnside's sum is not a multiple of the group order (terms missing or wrong).
    """
    fixed = {g.name: 0 for g in problem.group}
    for term, value in zip(terms, values, strict=True):
        fixed[term.group_element] += term.weight * value
    return burnside(problem, fixed, len(terms))


def burnside(problem: GridProblem, fixed: dict[str, int], contractions: int) -> GridCount:
    """The :class:`GridCount` from the fixed grids of every group element (Burnside's lemma).

    Raises
    ------
    AssertionError
        When the sum is not a multiple of the group order (a bug if ever).
    """
    raw = fixed["identity"]
    modulo = sum(fixed.values())
    if modulo % len(problem.group):
        raise AssertionError("Burnside's sum is not a multiple of the group order")  # a bug if ever
    return GridCount(raw, modulo // len(problem.group), fixed, contractions)

