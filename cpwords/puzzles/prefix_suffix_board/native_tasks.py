"""The native engine of prefix/suffix boards: one function per task over :mod:`.native`.

Each takes the :class:`~cpwords.puzzles.prefix_suffix_board.problem.Problem`, the spec and the
run's budget and returns a :class:`~cpwords.engines.found.Found`: answers are boards as X vectors
(token ids in node order); counting tasks give ``count`` modulo symmetry and ``raw_count``.
"""

from __future__ import annotations

import random
from typing import Any

from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found, HeldList
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
    found = Found(answers=HeldList(budget, native.WRITE_S), count=search.fillings_count(vector, candidates))
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
    boards, complete = native.enumerate_boards(search, spec.limit)
    found = Found(answers=boards, count=len(boards))
    if not complete:
        found.stop("limit" if not budget.expired() else budget.reason)
    return found


def generate(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Up to ``count`` boards, different modulo symmetry, each from a fresh randomised search."""
    from cpwords.puzzles.prefix_suffix_board.fair import rating

    search = native.BoardSearch(problem, budget=budget)
    boards, exhausted = native.random_boards(search, spec.count, random.Random(spec.seed), rate=rating(search))
    found = Found(answers=boards)
    if len(boards) < spec.count and not exhausted:
        found.stop(budget.reason if budget.expired() else "limit")
        if found.stopped == "limit":
            found.message = "random draws kept giving boards already made; engine cpsat or sat can list them all"
    return found
