"""The native engine of prefix/suffix boards: one function per task over :mod:`.native`, and the
listings of boards (every one modulo symmetry; random ones) that two of them make.

Each takes the :class:`~cpwords.puzzles.prefix_suffix_board.problem.Problem`, the spec and the
run's budget and returns a :class:`~cpwords.engines.found.Found`: answers are boards as X vectors
(token ids in node order); counting tasks give ``count`` modulo symmetry and ``raw_count``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found, HeldList
from cpwords.geometry import canonical_form
from cpwords.puzzles.prefix_suffix_board import native
from cpwords.puzzles.prefix_suffix_board.problem import Problem


def count_boards(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Boards modulo symmetry: lex-leader suffix placements, their prefix fillings counted without
    listing; each placement adds fillings x its orbit size to the raw count and fillings /
    |stabiliser| to the count modulo symmetry (:meth:`Problem.placement_count`). Every orbit of
    boards has |G| members (no board is its own image), which the two totals must confirm."""
    search = native.BoardSearch(problem, budget=budget)
    tally = native.count(search, "count_boards")
    group_size = len(problem.layout.group)
    if tally.raw != group_size * tally.orbits:
        raise AssertionError("raw count is not |G| x the count modulo symmetry")  # a bug if ever
    found = Found(count=tally.orbits, stats={
        "raw_count": tally.raw, "suffix_sets": tally.suffix_sets,
        "placements_searched": tally.placements, "method": "suffix placements x counted fillings"})
    return found if tally.complete else found.stop(budget.reason)


def count_suffix_sets(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Suffix placements modulo symmetry that admit at least one board."""
    search = native.BoardSearch(problem, budget=budget)
    tally = native.count(search, "count_suffix_sets")
    found = Found(count=tally.suffix_sets, stats={"raw_count": tally.raw, "placements_searched": tally.placements})
    return found if tally.complete else found.stop(budget.reason)


def solve(problem: Problem, spec: Any, budget: Budget) -> Found:
    """The prefixes for the player's suffixes: their exact number and up to ``limit`` boards."""
    search = native.BoardSearch(problem, budget=budget)
    vector = tuple(problem.fixed_suffixes[n] for n in search.suffix_nodes)
    try:
        placed = next(search.placements(), None)
    except SearchTimeout:  # the limit came before the player's suffixes were even placed
        return Found().stop(budget.reason)
    if placed is None:
        return Found(count=0)
    candidates = placed[1]
    found = Found(answers=HeldList(budget, WRITE_S), count=search.fillings_count(vector, candidates))
    try:
        for prefixes in search.fillings(vector, candidates):
            if spec.limit is not None and len(found.answers) >= spec.limit:
                break
            found.answers.append(search.board(vector, prefixes))
    except SearchTimeout:
        pass  # the count is exact; fewer boards are listed
    return found


def enumerate_(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Boards modulo symmetry (each as its canonical form), up to ``limit``."""
    search = native.BoardSearch(problem, budget=budget)
    boards, complete = enumerate_boards(search, spec.limit)
    found = Found(answers=boards, count=len(boards))
    if not complete:
        found.stop("limit" if not budget.expired() else budget.reason)
    return found


def generate(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Up to ``count`` boards, different modulo symmetry, each from a fresh randomised search."""
    from cpwords.puzzles.prefix_suffix_board.fair import rating

    search = native.BoardSearch(problem, budget=budget)
    boards, exhausted = random_boards(search, spec.count, random.Random(spec.seed), rate=rating(search))
    found = Found(answers=boards)
    if len(boards) < spec.count and not exhausted:
        found.stop(budget.reason if budget.expired() else "limit")
        if found.stopped == "limit":
            found.message = "random draws kept giving boards already made; engine cpsat or sat can list them all"
    return found


#: Processor seconds to write out one board of a listing after the search, about: made into its
#: Solution and written as text (seven lines) or JSON (measured: 159,033 boards of common-20k
#: written in 5.1 s as text, 4.1 s as JSON). A listing holds this much of its budget a board found
#: (:class:`~cpwords.engines.found.HeldList`), so that every board found is written within its limit.
WRITE_S = 3.5e-5


def enumerate_boards(search: native.BoardSearch, limit: int | None) -> tuple[list[list[int]], bool]:
    """Boards modulo symmetry (each as its canonical form), up to ``limit``; and whether all were seen."""
    group = search.problem.symmetry_group()
    seen: set[tuple[int, ...]] = set()
    out: list[list[int]] = HeldList(search.budget, WRITE_S)
    try:
        for vector, candidates in search.placements():
            for prefixes in search.fillings(vector, candidates):
                form = canonical_form(search.board(vector, prefixes), group)
                if form not in seen:
                    if limit is not None and len(out) >= limit:
                        return out, False
                    seen.add(form)
                    out.append(list(form))
    except SearchTimeout:
        return out, False
    return out, True


def random_boards(search: native.BoardSearch, count: int, rng: random.Random,
                  rate: Callable[[list[int], tuple[int, ...]], Any] | None = None) -> tuple[list[Any], bool]:
    """Up to ``count`` boards, different modulo symmetry, each from a fresh randomised search.

    ``rate(board, vector)``, when given, makes each board's answer before the next is searched
    (within the budget: rating a board costs about as much as finding it, and work left for
    after the deadline would stretch the command past its limit).
    Returns the answers and whether the search space was proved to hold no (further) board.
    """
    group = search.problem.symmetry_group()
    seen: set[tuple[int, ...]] = set()
    out: list[Any] = []
    misses = 0
    try:
        while len(out) < count and misses < 20 + 2 * count:
            found = None
            for vector, candidates in search.placements(rng=rng, canonical_only=False):
                prefixes = next(search.fillings(vector, candidates, rng=rng), None)
                if prefixes is not None:
                    found = search.board(vector, prefixes)
                    break
            if found is None:
                return out, True
            form = canonical_form(found, group)
            if form in seen:
                misses += 1
                continue
            answer = rate(found, vector) if rate is not None else found
            seen.add(form)
            out.append(answer)
    except SearchTimeout:
        pass
    return out, False
