"""Fair boards for players: ``generate`` with ``unique: true`` (or ``max_completions: K``).

The player sees the suffixes and must find the prefixes. A board is fair when its view (the
suffix placement) has exactly one completion (at most K) modulo the board's symmetry: the
placement's prefix fillings divided by the size of its stabiliser (the symmetries that keep the
suffixes where they are map fillings onto fillings). Placements are drawn by the native
propagation search in a random order (a fresh order per board); each is counted natively, and
one that passes is counted again by the spec's engine (CP-SAT: enumeration of the fillings;
SAT: projected model counting) before a random filling of it becomes the board. Sequential; no
process is started here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found
from cpwords.geometry import canonical_form
from cpwords.puzzles.prefix_suffix_board import native
from cpwords.puzzles.prefix_suffix_board.problem import Problem
from cpwords.puzzles.prefix_suffix_board.solution import BoardSolution
from cpwords.results import Difficulty, difficulty_level
from cpwords.wording import counted

#: Placements looked at per draw before the search restarts in a new random order (the search
#: is depth first: placements in a row share most suffixes, so short draws see more variety).
PLACEMENTS_PER_DRAW = 200
#: Random orders tried per board asked for before giving up.
DRAWS_PER_BOARD = 150
#: Difficulty bands of a board's score: medium from 60, hard from 85.
DIFFICULTY_BANDS = (60.0, 85.0)


def completions(problem: Problem, vector: tuple[int, ...], engine: str, search: native.BoardSearch,
                budget: Budget) -> int:
    """The completions of a suffix placement modulo symmetry, counted by ``engine``."""
    if engine == "cpsat":
        from cpwords.puzzles.prefix_suffix_board import cpsat

        return cpsat.count_placement(problem, vector, budget=budget, search=search)[0].orbits
    if engine == "sat":
        from cpwords.puzzles.prefix_suffix_board import sat

        return sat.count_placement(problem, vector).orbits
    return search.count_placement(vector).orbits


def board_difficulty(problem: Problem, vector: tuple[int, ...], count: int) -> Difficulty:
    """How hard a board's view is: ``score = 100 × (1 − 1/c) / completions``, ``c`` the mean number
    of candidate prefixes of a prefix slot (prefixes that make a word with every suffix next to
    it): one candidate a slot leaves nothing to find, many leave much to rule out; each further
    completion makes it easier."""
    sizes = [len(c) for c in problem.prefix_candidates(vector)]
    mean = sum(sizes) / len(sizes)
    score = round(100 * (1 - 1 / mean) / max(1, count), 1) if mean else 0.0
    return Difficulty(level=difficulty_level(score, *DIFFICULTY_BANDS), score=score,
                      figures={"completions": count, "candidates_per_slot": round(mean, 2), "fewest_candidates": min(sizes)})


def fair_boards(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Up to ``spec.count`` boards whose view has 1 to ``most`` completions modulo symmetry,
    different modulo symmetry. Answers are ``(X, completions, difficulty)``."""
    most = spec.max_completions or 1
    rng = random.Random(spec.seed)
    search = native.BoardSearch(problem, budget=budget)
    group = problem.symmetry_group()
    found = Found(stats={"completions_engine": spec.engine, "max_completions": most, "placements_counted": 0,
                         "draws": 0})
    seen: set[tuple[int, ...]] = set()
    try:
        while len(found.answers) < spec.count and found.stats["draws"] < DRAWS_PER_BOARD * spec.count:
            found.stats["draws"] += 1
            exhausted = True
            for k, (vector, candidates) in enumerate(search.placements(rng=rng, canonical_only=False)):
                if k == PLACEMENTS_PER_DRAW:
                    exhausted = False
                    break
                # a slot with more candidates than the other slots can take away leaves more than
                # `most` completions (barring rare clashes of words spelt twice): not worth counting
                if max(len(c) for c in candidates) > len(candidates) - 1 + most:
                    continue
                found.stats["placements_counted"] += 1
                native_count = problem.placement_count(vector, search.fillings_count(vector, candidates)).orbits
                if not 1 <= native_count <= most:
                    continue
                form = canonical_form(search.board(vector, [0] * len(search.prefix_nodes)), group)
                if form in seen:
                    continue
                count = completions(problem, vector, spec.engine, search, budget)
                if count != native_count:
                    raise AssertionError(f"{spec.engine} counts {count} completions, the native count {native_count}")
                prefixes = next(search.fillings(vector, candidates, rng=rng))
                seen.add(form)
                found.answers.append((search.board(vector, prefixes), count, board_difficulty(problem, vector, count)))
                exhausted = False
                break
            if exhausted:  # every placement was looked at: no (other) fair board exists
                found.message = (f"every suffix placement was looked at: no {'other ' if found.answers else ''}"
                                 f"board has at most {counted(most, 'completion')}")
                return found
    except SearchTimeout:
        return found.stop(budget.reason)
    if len(found.answers) < spec.count:
        found.stop("limit")
        found.message = (f"no {'other ' if found.answers else ''}board with at most {counted(most, 'completion')} in "
                         f"{counted(found.stats['placements_counted'], 'placement')} counted, "
                         f"{found.stats['draws']:,} random orders; another seed may find more")
    return found


def rating(search: native.BoardSearch) -> Callable[[list[int], tuple[int, ...]], tuple[list[int], int, Difficulty]]:
    """``rate(X, vector)``: a board with its view's completions (counted natively by ``search``)
    and difficulty, as :func:`fair_boards` gives them."""
    def rate(x: list[int], vector: tuple[int, ...]) -> tuple[list[int], int, Difficulty]:
        count = search.count_placement(vector).orbits
        return x, count, board_difficulty(search.problem, vector, count)

    return rate


def solution_maker(problem: Problem) -> Callable[[Any], BoardSolution]:
    """``make(answer)``: the solution of a generated board with its view's completions and
    difficulty. ``answer`` is ``(X, completions, difficulty)`` from :func:`fair_boards` or
    :func:`rating`, or a plain X (CP-SAT, SAT), rated here by one native search made at the first
    plain X (building a search takes longer than a count)."""
    searches: list[native.BoardSearch] = []

    def make(answer: Any) -> BoardSolution:
        if isinstance(answer, tuple):
            x, count, difficulty = answer
        else:
            if not searches:
                searches.append(native.BoardSearch(problem))
            x, count, difficulty = rating(searches[0])(answer, tuple(answer[n] for n in searches[0].suffix_nodes))
        solution = problem.solution(x)
        solution.completions, solution.difficulty = count, difficulty
        return solution

    return make
