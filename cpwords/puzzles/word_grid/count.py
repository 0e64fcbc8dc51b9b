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
network (:mod:`.count_network`) or a chunk of one: :func:`count_terms` lists them and
:func:`count_term` evaluates one, so a cluster can shard the work; :func:`combine_terms` turns
the values into a :class:`GridCount`, and :func:`count_grids` does all three. Partitions that a
symmetry commuting with g maps onto each other have equal N and share one term (its weight is
the sum of their μ). A network's plan (:mod:`.count_engine`) sums an outer loop of *leaves* —
assignments of a few cut letters, or for the 7×7 Gridle the four letters of a 2×2 block of
crossings (:mod:`.count_k44`) — and a term with many leaves is split into chunks of leaves.

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

import math
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cpwords.engines.budget import SearchTimeout
from cpwords.geometry import Symmetry
from cpwords.puzzles.word_grid.count_engine import (
    BeyondTimeLeft,
    BudgetLike,
    NetworkPlan,
    TooLargeToContract,
)
from cpwords.puzzles.word_grid.count_network import build_network, cell_classes, merged_blocks, word_arrays
from cpwords.puzzles.word_grid.problem import GridProblem

__all__ = [
    "BeyondTimeLeft", "CountProgress", "GridCount", "Term", "TooLargeToContract", "combine_terms", "count_grids",
    "count_grids_einsum", "count_term", "count_terms", "describe_terms", "grids_plan", "identified_count",
    "set_partitions", "slot_partitions",
]

#: Largest intermediate tensor (elements) the plain einsum counter accepts.
MAX_INTERMEDIATE = 60_000_000
#: Largest number of multiply-adds the plain einsum counter accepts for one contraction.
MAX_FLOPS = 2e10
#: Share of the time left that planning the grids' own term may take, with distinct words
#: (:func:`grids_plan`): a count whose planning takes longer could not finish anyway.
PLAN_SHARE = 0.5
#: Terms with more outer leaves than this are split into chunks by :func:`count_terms`.
CHUNK_LEAVES = 8192
_SUBSCRIPTS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


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


#: Most partitions of the slots the inclusion–exclusion may list (Bell(12) = 4,213,597 fit).
MAX_PARTITIONS = 5_000_000
#: Partitions listed between two checks of the budget.
CHECK_EVERY = 4096


def bell_number(n: int) -> int:
    """The number of partitions of ``n`` items, by the Bell triangle.

    >>> [bell_number(n) for n in range(7)]
    [1, 1, 2, 5, 15, 52, 203]
    """
    row = [1]
    for _ in range(n):
        nxt = [row[-1]]
        for value in row:
            nxt.append(nxt[-1] + value)
        row = nxt
    return row[0]


def _length_groups(problem: GridProblem) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for s, slot in enumerate(problem.slots):
        groups.setdefault(len(slot), []).append(s)
    return groups


def _check_partitions(groups: dict[int, list[int]]) -> None:
    if math.prod(bell_number(len(g)) for g in groups.values()) > MAX_PARTITIONS:
        raise TooLargeToContract  # sixteen slots of one length are 10**10 partitions: too many terms


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
    groups = _length_groups(problem)
    _check_partitions(groups)
    # the first group's partitions are walked once, so they are generated, not kept (an open
    # 6×6's twelve slots of one length have 4.2 million); the others are walked once per head
    firsts = list(groups.values())
    per_group = [list(set_partitions(g)) for g in firsts[1:]]

    def combine(i: int) -> Iterator[list[list[int]]]:
        if i == len(per_group):
            yield []
            return
        for head in per_group[i]:
            for tail in combine(i + 1):
                yield head + tail

    def heads() -> Iterator[list[list[int]]]:
        for head in set_partitions(firsts[0]):
            for tail in combine(0):
                yield head + tail

    for partition in heads():
        mu = 1
        for block in partition:
            k = len(block)
            mu *= (-1) ** (k - 1) * math.factorial(k - 1)
        yield mu, partition


# ---------------------------------------------------------------- the plain einsum counter


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


def _moves_a_slot(problem: GridProblem, g: Symmetry) -> bool:
    return any(tuple(g.perm[c] for c in slot) != slot for slot in problem.slots)


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
        if problem.distinct and not g.is_identity and _moves_a_slot(problem, g):
            fixed[g.name] = 0
            continue
        total = 0
        for mu, partition in slot_partitions(problem):
            total += mu * identified_count(problem, partition, None if g.is_identity else g.perm, arrays)
            contractions += 1
        fixed[g.name] = total
    return _combine(problem, fixed, contractions)


# ---------------------------------------------------------------- terms


def _slot_images(problem: GridProblem, h: Symmetry) -> list[int]:
    where = {slot: s for s, slot in enumerate(problem.slots)}
    return [where[tuple(h.perm[c] for c in slot)] for slot in problem.slots]


def _canonical(partition: list[list[int]] | tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(tuple(sorted(b)) for b in partition))


def _term_classes(problem: GridProblem, g: Symmetry,
                  budget: BudgetLike | None = None) -> list[tuple[tuple[tuple[int, ...], ...], int]]:
    """(representative partition, summed μ) per class of partitions equal under symmetries that
    commute with g (those give equal counts of g-fixed grids); ``budget`` is checked every
    :data:`CHECK_EVERY` partitions (an open 6×6 lists 4.2 million)."""
    commuting = [h for h in problem.group
                 if all(h.perm[g.perm[c]] == g.perm[h.perm[c]] for c in range(len(problem.cells)))]
    images = [_slot_images(problem, h) for h in commuting if not h.is_identity]
    classes: dict[tuple[tuple[int, ...], ...], int] = {}
    for n, (mu, partition) in enumerate(slot_partitions(problem)):
        if budget is not None and n % CHECK_EVERY == 0:
            budget.check()
        key = _canonical(partition)
        for img in images:
            key = min(key, _canonical([[img[s] for s in b] for b in partition]))
        classes[key] = classes.get(key, 0) + mu
    return [(p, w) for p, w in classes.items() if w]


def _group_elements(problem: GridProblem) -> list[tuple[Symmetry, bool]]:
    """Each group element and whether its fixed points can be non-zero."""
    return [(g, not (problem.distinct and not g.is_identity and _moves_a_slot(problem, g))) for g in problem.group]


def _plan(problem: GridProblem, g: Symmetry, partition: tuple[tuple[int, ...], ...],
          arrays: dict[int, np.ndarray], budget: BudgetLike | None = None,
          max_seconds: float | None = None) -> NetworkPlan:
    network = build_network(problem, partition, None if g.is_identity else g.perm, arrays)
    return NetworkPlan(network, budget, max_seconds)


def _singletons(problem: GridProblem) -> tuple[tuple[int, ...], ...]:
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
        _check_partitions(_length_groups(problem))  # before planning: too many terms is quicker to tell
    left = _seconds_left(budget) if problem.distinct and workers is not None else None
    identity = next(g for g in problem.group if g.is_identity)
    if left is None or workers is None:
        return _plan(problem, identity, _singletons(problem), arrays, budget)
    child = getattr(budget, "child", None)
    planning = child(left * PLAN_SHARE) if callable(child) else budget
    try:
        return _plan(problem, identity, _singletons(problem), arrays, planning, left * max(1, workers))
    except SearchTimeout:
        if budget is None or budget.expired():
            raise
        raise BeyondTimeLeft(math.inf, left, planning=True) from None  # no time left to count


def _seconds_left(budget: BudgetLike | None) -> float | None:
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
    for g, possible in _group_elements(problem):
        if not possible:
            continue
        for partition, weight in _term_classes(problem, g, budget):
            if budget is not None:
                budget.check()
            if first is not None and g.is_identity and partition == _singletons(problem):
                plan, first = first, None
            else:
                plan = _plan(problem, g, partition, arrays, budget)
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
    plan = _plan(problem, byname[term.group_element], term.partition, word_arrays(problem), budget)
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
    return _combine(problem, fixed, len(terms))


def _combine(problem: GridProblem, fixed: dict[str, int], contractions: int) -> GridCount:
    raw = fixed["identity"]
    modulo = sum(fixed.values())
    if modulo % len(problem.group):
        raise AssertionError("Burnside's sum is not a multiple of the group order")  # a bug if ever
    return GridCount(raw, modulo // len(problem.group), fixed, contractions)


# ---------------------------------------------------------------- the count in this process

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


def _chunks(leaves: int, step: int) -> list[tuple[int, int]]:
    return [(s, min(s + step, leaves)) for s in range(0, leaves, step)]


def _run_plan(plan: NetworkPlan, budget: BudgetLike | None, on_partial: Any = None) -> int:
    """All leaves of a plan, in this process, :data:`RUN_CHUNK` leaves at a time.

    ``on_partial(total)`` is called with the sum of the pieces finished so far after each one,
    so that a stop (SearchTimeout from ``budget.check()``) loses only the piece under way.
    """
    total = 0
    for start, stop in _chunks(plan.leaves, RUN_CHUNK):
        total += plan.run(start, stop, budget)
        if on_partial is not None:
            on_partial(total)
    return total


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
    elements = _group_elements(problem)
    classes = {g.name: _term_classes(problem, g, budget) if possible else [] for g, possible in elements}
    progress.terms = sum(len(c) for c in classes.values())
    fixed: dict[str, int] = {}
    contractions = 0
    for g, _possible in elements:
        total = 0
        # without distinct words the identity's only term is the raw count itself
        bounds_raw = g.is_identity and not problem.distinct
        if bounds_raw:
            progress.raw_at_least = 0
        for partition, weight in classes[g.name]:
            if budget is not None:
                budget.check()
            if first is not None and g.is_identity and partition == _singletons(problem):
                plan, first = first, None
            else:
                plan = _plan(problem, g, partition, arrays, budget)

            def on_partial(value: int, weight: int = weight, bounds_raw: bool = bounds_raw) -> None:
                if bounds_raw:
                    progress.raw_at_least = weight * value

            total += weight * _run_plan(plan, budget, on_partial)
            contractions += 1
            progress.terms_done += 1
        fixed[g.name] = total
        if g.is_identity:
            progress.raw_at_least = total
    return _combine(problem, fixed, contractions)


def describe_terms(problem: GridProblem) -> list[dict[str, Any]]:
    """Per term class: group element, partition, weight, plan kind, leaves and estimated seconds
    (for choosing chunk sizes and for diagnostics)."""
    arrays = word_arrays(problem)
    out = []
    for g, possible in _group_elements(problem):
        if not possible:
            continue
        for partition, weight in _term_classes(problem, g):
            t0 = time.perf_counter()
            plan = _plan(problem, g, partition, arrays)
            out.append({"group_element": g.name, "partition": partition, "weight": weight, "plan": plan.kind,
                        "leaves": plan.leaves, "estimated_seconds": plan.seconds,
                        "planning_seconds": time.perf_counter() - t0})
    return out
