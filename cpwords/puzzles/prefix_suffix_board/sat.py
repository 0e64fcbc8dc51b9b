"""The SAT engine (PySAT) of a prefix/suffix board: its exact count by projected model counting,
and the other tasks, over the CNFs of :mod:`.sat_models` (the whole board's, one placement's fillings).

**Counting** (``count_boards``) is split by suffix placements, like the native engine's: the
SAT solver enumerates the lex-leader suffix placements that admit a board (blocking clauses
projected on the suffix slots, the suffix group's lex-leader posted), then each placement's
prefix fillings are counted exactly by Ganak (:mod:`cpwords.engines.counting`) as the models
of the placement's own CNF (suffixes fixed) projected on the prefix slots. A placement adds
fillings × its orbit size to the raw count and fillings / |stabiliser| to the count modulo
symmetry; for a placement that a symmetry keeps, the latter is counted again with the
stabiliser's lex-leader clauses and the two must agree. The placements are the shards of a
cluster run: :func:`count_placement` counts one. Without ``pyganak`` (no wheel for the
platform) the fillings are enumerated instead, and ``stats.method`` says so.
"""

from __future__ import annotations

import random
from typing import Any

from cpwords.engines import counting
from cpwords.engines import sat as engine
from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found
from cpwords.engines.outcome import Enumeration
from cpwords.geometry import orbit_size
from cpwords.puzzles.prefix_suffix_board.problem import PlacementCount, Problem
from cpwords.puzzles.prefix_suffix_board.sat_models import BoardCnf, FillingsCnf
from cpwords.results import Status

# ---------------------------------------------------------------- counting by placements


def count_placement(problem: Problem, vector: tuple[int, ...]) -> PlacementCount:
    """The boards of one lex-leader suffix placement, by projected model counting in this process
    (a shard of a cluster count; the engine itself counts in killable workers).

    Raises
    ------
    ImportError
        When ``pyganak`` is not installed.
    AssertionError
        When the count with the stabiliser's lex-leader clauses disagrees with the fillings
        divided by the stabiliser's size (a bug).
    """
    build = FillingsCnf(problem)
    fillings = counting.count_models(*build((vector, False)))
    result = problem.placement_count(vector, fillings)
    if len(problem.stabiliser(vector)) > 1 and counting.count_models(*build((vector, True))) != result.orbits:
        raise AssertionError("lex-leader fillings disagree with fillings / |stabiliser|")
    return result


def placement_vectors(problem: Problem, budget: Budget) -> tuple[list[tuple[int, ...]], Enumeration]:
    """The lex-leader suffix placements that admit a board, by projected SAT enumeration.

    Raises
    ------
    SearchTimeout
        When the budget ends while the CNF is written.
    """
    cnf = BoardCnf(problem, "suffix", budget=budget)
    nodes = list(problem.layout.suffix_nodes)
    vectors: list[tuple[int, ...]] = []

    def keep(true: set[int]) -> None:
        vectors.append(tuple(cnf.values(true, nodes)))

    en = engine.enumerate_models(cnf.model, cnf.projection(nodes), budget, on_model=keep, keep=False)
    en.stats |= {"clauses": len(cnf.model.clauses), "variables": cnf.model.pool.top}
    return vectors, en


def count_boards(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Boards modulo symmetry and raw: SAT-enumerated lex-leader suffix placements, each one's
    fillings counted by Ganak (or enumerated, without pyganak)."""
    try:
        vectors, en = placement_vectors(problem, budget)
    except SearchTimeout:
        return Found(count=0, stats={"raw_count": 0}).stop(budget.reason)
    found = Found(count=0, stats={"raw_count": 0, "suffix_sets": len(vectors), "placements_s": en.stats["solver_s"],
                                  "clauses": en.stats["clauses"]})
    if not en.complete:
        return found.stop(en.stopped)
    if counting.available():
        found.stats["method"] = "SAT-enumerated suffix placements x projected model counts (Ganak)"
        totals = _count_with_ganak(problem, vectors, budget, found)
    else:
        found.stats["method"] = ("SAT-enumerated suffix placements x SAT-enumerated fillings (no pyganak: the `count` extra "
                                  "adds Ganak's model counts)")
        totals = _count_by_enumeration(problem, vectors, budget, found)
    found.count, found.stats["raw_count"] = totals
    return found


def _count_with_ganak(problem: Problem, vectors: list[tuple[int, ...]], budget: Budget,
                      found: Found) -> tuple[int, int]:
    """Each placement's fillings counted by Ganak in a pool of ``budget.workers`` killable workers
    (Ganak cannot be interrupted: a time limit or Ctrl-C kills the pool); returns (orbits, raw)."""
    jobs = [(v, False) for v in vectors] + [(v, True) for v in vectors if len(problem.stabiliser(v)) > 1]
    pool: counting.CountingPool[tuple[tuple[int, ...], bool]] = counting.CountingPool(
        FillingsCnf(problem), budget, workers=budget.workers)
    fillings: dict[tuple[int, ...], int] = {}
    modulo: dict[tuple[int, ...], int] = {}
    with budget.progress("counting fillings (Ganak)", total=len(jobs)) as advance:
        for c in pool.counts(jobs, advance):
            (modulo if c.job[1] else fillings)[c.job[0]] = c.count
    found.stats |= pool.run.stats
    raw = orbits = 0
    for v, n in fillings.items():
        share = problem.placement_count(v, n)
        if v in modulo and modulo[v] != share.orbits:
            raise AssertionError("lex-leader fillings disagree with fillings / |stabiliser|")
        raw, orbits = raw + share.raw, orbits + share.orbits
    if not pool.run.complete:
        found.stop(pool.run.stopped)
    return orbits, raw


def _count_by_enumeration(problem: Problem, vectors: list[tuple[int, ...]], budget: Budget,
                          found: Found) -> tuple[int, int]:
    build = FillingsCnf(problem)
    raw = orbits = 0
    for v in vectors:
        try:
            cnf = build.cnf(v, False, budget)
        except SearchTimeout:
            found.stop(budget.reason)
            break
        en = engine.enumerate_models(cnf.model, cnf.projection(problem.layout.prefix_nodes), budget, keep=False)
        if not en.complete:
            found.stop(en.stopped)
            break
        share = problem.placement_count(v, en.count)
        raw, orbits = raw + share.raw, orbits + share.orbits
    return orbits, raw


def projected_board_count(problem: Problem, symmetry: str | None) -> int:
    """Boards counted by Ganak in one piece: models of the whole CNF projected on the slots, with
    the board's lex-leader clauses (``board``: modulo symmetry) or without (None: raw). For
    small dictionaries and cross-checks: one uninterruptible call, in this process."""
    cnf = BoardCnf(problem, symmetry)
    return counting.count_models(cnf.model.clauses, cnf.projection())


# ---------------------------------------------------------------- the other tasks


def count_suffix_sets(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Suffix placements (lex-leaders on the suffix slots) admitting a board, by projected
    enumeration on the suffix slots, each weighted by its orbit size for the raw count."""
    try:
        vectors, en = placement_vectors(problem, budget)
    except SearchTimeout:
        return Found(count=0, stats={"raw_count": 0}).stop(budget.reason)
    sgroup = problem.suffix_group()
    raw = sum(orbit_size(v, sgroup) for v in vectors)
    found = Found(count=en.count, stats={**en.stats, "raw_count": raw, "method": "enumeration"})
    return found if en.complete else found.stop(en.stopped)


def _listing(problem: Problem, spec: Any, budget: Budget, symmetry: str | None, limit: int | None) -> Found:
    found = Found()
    try:
        cnf = BoardCnf(problem, symmetry, budget=budget)
    except SearchTimeout:
        return found.stop(budget.reason)

    def keep(true: set[int]) -> None:
        if spec.limit is None or len(found.answers) < spec.limit:
            found.answers.append(cnf.values(true))

    en = engine.enumerate_models(cnf.model, cnf.projection(), budget, on_model=keep, limit=limit, keep=False)
    found.count, found.stats = en.count, en.stats
    return found if en.complete else found.stop(en.stopped)


def solve(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Every filling of the player's suffixes (counted; up to ``limit`` listed)."""
    return _listing(problem, spec, budget, None, None)


def enumerate_(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Boards modulo symmetry (lex-leaders), up to ``limit``."""
    return _listing(problem, spec, budget, "board", spec.limit)


def generate(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Random boards: each draw assumes a random token at a random slot first (falling back to no
    assumption), and each board is blocked before the next; all draws share the run's budget."""
    rng = random.Random(spec.seed)
    found = Found()
    try:
        cnf = BoardCnf(problem, "board", budget=budget)
    except SearchTimeout:
        return found.stop(budget.reason)
    projection = cnf.projection()
    while len(found.answers) < spec.count:
        tries = list(projection)
        rng.shuffle(tries)
        out = None
        for lit in [*tries[:8], None]:
            out = engine.solve(cnf.model, budget, assumptions=[lit] if lit else [])
            if out.status is not Status.INFEASIBLE:
                break
        assert out is not None
        if out.status is Status.INFEASIBLE:
            return found
        if not out.status.solved:
            return found.stop(out.stopped)
        x = cnf.values(out.true_vars)
        found.answers.append(x)
        cnf.model.add([-cnf.lits[n][t] for n, t in enumerate(x)])
    return found
