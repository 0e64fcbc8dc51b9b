"""The native engine of word grids: one function per task over bitset backtracking (:mod:`.native`)
and sum-product counting (:mod:`.count`). Answers are letter vectors (one letter index per cell)."""

from __future__ import annotations

import math
import random
from typing import Any

from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found
from cpwords.geometry import canonical_form, is_lex_leader
from cpwords.puzzles.word_grid.count import BeyondTimeLeft, CountProgress, TooLargeToContract, count_grids
from cpwords.puzzles.word_grid.native import GridSearch
from cpwords.puzzles.word_grid.problem import GridProblem, shuffled_order
from cpwords.wording import counted

#: Fresh random restarts allowed per wanted grid before ``generate`` gives up finding new ones.
RESTARTS_PER_GRID = 20
#: With distinct words and a time limit, the share of the time left a sum-product count may take
#: before the rest lists grids instead (a sum-product of signed terms cut short bounds nothing).
SUM_PRODUCT_SHARE = 0.8


def frequency_orders(problem: GridProblem) -> dict[int, list[int]]:
    """Word ids in dictionary order (most frequent first)."""
    return {n: list(range(len(ws))) for n, ws in problem.words.items()}


def rareness_orders(problem: GridProblem) -> dict[int, list[int]]:
    """Word ids by increasing cost of the ``common`` objective (ties: more frequent first)."""
    costs = problem.objective_costs()
    return {n: sorted(range(len(ws)), key=costs[n].__getitem__) for n, ws in problem.words.items()}


def generate(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """``count`` different grids (modulo symmetry), each from a search with a fresh random word
    order; with ``objective: common`` the least rare grids instead."""
    if spec.objective == "common":
        return _least_rare(problem, spec, budget)
    rng = random.Random(spec.seed)
    found = Found(stats={"nodes": 0})
    seen: set[tuple[int, ...]] = set()
    attempts = 0
    while len(found.answers) < spec.count and attempts < RESTARTS_PER_GRID * spec.count:
        attempts += 1
        if budget.expired():  # a restart may find its grid in fewer nodes than the search's own check
            return found.stop(budget.reason)
        orders = {n: shuffled_order(len(ws), rng) for n, ws in problem.words.items()}
        search = GridSearch(problem, orders, budget)
        try:
            ids = next(search.solutions(), None)
        except SearchTimeout:
            return found.stop(budget.reason)
        finally:
            found.stats["nodes"] += search.nodes
        if ids is None:
            return found  # the search was complete: no grid at all
        key = canonical_form(problem.letters_of_words(ids), problem.group)
        if key not in seen:
            seen.add(key)
            found.answers.append(list(key))
    if len(found.answers) < spec.count:
        found.stop("limit")  # random restarts cannot prove that no other grid exists
        found.message = (f"{counted(attempts, 'random restart')} gave no other grid; engine cpsat or task "
                         "enumerate can list them all")
    return found


def fill(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """Complete the given letters: up to ``count`` different grids, most frequent words first (or
    the least rare ones with ``objective: common``)."""
    if spec.objective == "common":
        return _least_rare(problem, spec, budget)
    search = GridSearch(problem, frequency_orders(problem), budget)
    found = Found()
    seen: set[tuple[int, ...]] = set()
    try:
        for ids in search.solutions():
            key = canonical_form(problem.letters_of_words(ids), problem.group)
            if key not in seen:
                seen.add(key)
                found.answers.append(list(key))
                if len(found.answers) == spec.count:
                    break
    except SearchTimeout:
        found.stop(budget.reason)
    found.stats["nodes"] = search.nodes
    if found.complete and 0 < len(found.answers) < spec.count:
        found.message = "no other grid exists"
    return found


def _least_rare(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """The ``count`` least rare grids, one branch-and-bound search each (excluding earlier ones)."""
    found = Found(stats={"nodes": 0})
    seen: set[tuple[int, ...]] = set()

    def accept(ids: list[int]) -> bool:
        letters = problem.letters_of_words(ids)
        return is_lex_leader(letters, problem.group) and tuple(letters) not in seen

    while len(found.answers) < spec.count:
        search = GridSearch(problem, rareness_orders(problem), budget)
        ids, _cost, complete = search.least_rare(problem.objective_costs(), accept)
        found.stats["nodes"] += search.nodes
        if ids is not None:
            letters = problem.letters_of_words(ids)
            seen.add(tuple(letters))
            found.answers.append(letters)
        if not complete:
            return found.stop(budget.reason)
        if ids is None:
            break
    if 0 < len(found.answers) < spec.count:
        found.message = "no other grid exists"
    return found


def enumerate_grids(problem: GridProblem, budget: Budget | None = None, limit: int | None = None,
                    keep: bool = True):
    """All lex-leader grids by backtracking: (kept grids, count, raw count, complete, nodes).

    Cut short, ``count`` is a lower bound on the grids modulo symmetry: the lex-leaders seen, or
    the raw count over the group's order when that is more (a class holds at most that many
    grids), so that the two bounds reported together agree."""
    budget = budget or Budget()
    search = GridSearch(problem, frequency_orders(problem), budget)
    grids: list[list[int]] = []
    count, raw, complete = 0, 0, True
    try:
        with budget.progress("enumerating grids") as advance:
            for ids in search.solutions():
                raw += 1
                letters = problem.letters_of_words(ids)
                if not is_lex_leader(letters, problem.group):
                    continue
                count += 1
                advance(1)
                if not keep:
                    continue
                if limit is None or len(grids) < limit:
                    grids.append(letters)
                elif count > limit:
                    complete = False
                    break
    except SearchTimeout:
        complete = False
    if not complete:
        count = max(count, -(-raw // len(problem.group)))
    return grids, count, raw, complete, search.nodes


def enumerate_(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """Grids modulo symmetry (lex-leaders) by backtracking, up to ``limit``."""
    grids, count, _raw, complete, nodes = enumerate_grids(problem, budget, spec.limit)
    found = Found(answers=grids, count=count if complete else len(grids), stats={"nodes": nodes})
    if not complete:
        found.stop(budget.reason if budget.expired() else "limit")
    return found


def count(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """All grids, modulo symmetry and raw: exact by sum-product when the shape allows, else by
    enumeration (exact unless the budget stops it).

    A sum-product stopped by the budget reports what it proved: without distinct words the
    leaves summed so far are a lower bound on the raw count (and that bound over the group
    order one on the count modulo symmetry); with distinct words the terms of the
    inclusion–exclusion carry signs, so no count is reported, only how many terms were done.
    That is why, with distinct words and a time limit, a sum-product estimated to take longer
    than the time left is not started (:func:`.count.grids_plan`), and one started gets
    :data:`SUM_PRODUCT_SHARE` of the time: when it has not finished by then, the rest of the time
    lists grids one by one, which bounds the count from below.
    """
    progress = CountProgress()
    left = budget.left()
    shared = problem.distinct and left is not None
    exact_budget = budget.child(left * SUM_PRODUCT_SHARE) if shared and left is not None else budget
    refused: TooLargeToContract | None = None
    why = ""
    try:
        counted = count_grids(problem, budget=exact_budget, progress=progress)
    except TooLargeToContract as exc:
        counted, refused = None, exc
    except SearchTimeout:
        if not shared or budget.expired():
            return _stopped_sum_product(problem, progress, budget)
        counted = None
        why = (f"the exact sum-product did not finish in {SUM_PRODUCT_SHARE:.0%} of the time, "
               f"{progress.terms_done:,} of its {progress.terms:,} terms done" if progress.terms else
               f"the exact sum-product was still being planned at {SUM_PRODUCT_SHARE:.0%} of the time")
    if counted is not None:
        return Found(count=counted.modulo_symmetry, stats={
            "raw_count": counted.raw, "method": "sum-product", "fixed_points": counted.fixed_points,
            "contractions": counted.contractions})
    _grids, n, raw, complete, nodes = enumerate_grids(problem, budget, keep=False)
    found = Found(count=n, stats={"raw_count": raw, "method": "enumeration", "nodes": nodes})
    if isinstance(refused, BeyondTimeLeft) and math.isfinite(refused.seconds):
        found.stats["sum_product_estimate_s"] = round(refused.seconds, 1)
    if why:  # the sum-product ran out of its share of the time: how far it got
        found.stats.update(terms=progress.terms, terms_done=progress.terms_done)
    if complete:
        return found
    found.stop(budget.reason)
    why = why or _why_listed(refused)
    found.message = (f"{_cause(found.stopped)} before any grid was found (grids are listed one by one: {why})"
                     if n == 0 else
                     f"{_cause(found.stopped)}: the counts are lower bounds (at least {raw:,} grid{'s' * (raw != 1)}, "
                     f"at least {n:,} modulo symmetry, listed one by one: {why})")
    return found


def _why_listed(refused: TooLargeToContract | None) -> str:
    """Why a count listed grids one by one instead of summing products (for its message)."""
    if not isinstance(refused, BeyondTimeLeft):
        return "the shape is too large for the exact sum-product"
    if refused.planning:
        return "planning the exact sum-product took half of its time"
    if math.isfinite(refused.seconds):
        return f"the exact sum-product is estimated at {refused.seconds:,.1f} s of work, more than the time left"
    return "the exact sum-product would take far more than the time left"


def _stopped_sum_product(problem: GridProblem, progress: CountProgress, budget: Budget) -> Found:
    """What a sum-product count cut short by the budget proved (see :func:`count`)."""
    stats: dict[str, Any] = {"method": "sum-product", "terms": progress.terms, "terms_done": progress.terms_done}
    lower = progress.raw_at_least
    if lower is None and not progress.terms:
        found = Found(count=None, stats=stats).stop(budget.reason)
        found.message = f"{_cause(found.stopped)} while the exact count was planned: no bound to report yet"
        return found
    if lower is None:
        found = Found(count=None, stats=stats).stop(budget.reason)
        found.message = (f"{_cause(found.stopped)} after {progress.terms_done:,} of the {progress.terms:,} terms of "
                         "the exact count (inclusion–exclusion over repeated words): no bound to report yet")
        return found
    stats["raw_count"] = lower
    found = Found(count=-(-lower // len(problem.group)), stats=stats).stop(budget.reason)
    found.message = (f"{_cause(found.stopped)}: the counts are lower bounds (at least {lower:,} grids, at least "
                     f"{found.count:,} modulo symmetry, from the part of the sum-product finished)")
    return found


def _cause(reason: str | None) -> str:
    return {"interrupted": "the count was interrupted"}.get(reason or "", "the time limit was reached")
