"""The CP-SAT model of a prefix/suffix board.

One integer variable per slot holds its token id (X, in node order); one per edge holds the id
of the word it spells, tied to the two tokens by an ``add_allowed_assignments`` table of
(prefix, suffix, word) rows. ``add_all_different`` on the edge words says a word is used once;
``distinct_tokens`` adds AllDifferent on the prefixes and on the suffixes. Symmetry: for every
non-identity g of the board group, X ≤lex g·X (:func:`cpwords.engines.cpsat.lex_leader_constraints`).
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from cpwords.engines import cpsat as engine
from cpwords.engines.budget import Budget
from cpwords.engines.cpsat import lex_leader_constraints
from cpwords.engines.found import Found
from cpwords.geometry import orbit_size
from cpwords.puzzles.prefix_suffix_board.problem import Problem
from cpwords.results import Status


def build_model(problem: Problem, symmetry: str | None) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The board model; ``symmetry`` is ``board`` (lex-leader on X), ``suffix`` (on the suffix slots) or None.

    Returns the model and X (token variables in node order).
    """
    model = cp_model.CpModel()
    lay, tokens = problem.layout, problem.tokens
    names = lay.names
    domains = [problem.domain(n) for n in range(problem.nodes)]
    xs = [model.new_int_var_from_domain(cp_model.Domain.from_values(domains[n] or [0]), f"token_{names[n]}")
          for n in range(problem.nodes)]
    for n in range(problem.nodes):
        if not domains[n]:
            model.add_bool_or([])  # no token fits this slot
    words = []
    for p, s in lay.edges:
        dp, ds = set(domains[p]), set(domains[s])
        rows = [(a, b, w) for (a, b), w in tokens.cuts.items() if a in dp and b in ds]
        w_dom = sorted({w for _, _, w in rows}) or [0]
        word = model.new_int_var_from_domain(cp_model.Domain.from_values(w_dom), f"word_{names[p]}_{names[s]}")
        model.add_allowed_assignments([xs[p], xs[s], word], rows)
        words.append(word)
    model.add_all_different(words)
    if problem.distinct_tokens:
        model.add_all_different([xs[n] for n in lay.prefix_nodes])
        model.add_all_different([xs[n] for n in lay.suffix_nodes])
    if symmetry == "board":
        lex_leader_constraints(model, xs, problem.symmetry_group())
    elif symmetry == "suffix" and not problem.fixed_suffixes:
        lex_leader_constraints(model, [xs[n] for n in lay.suffix_nodes], problem.suffix_group(), "suffix_lex")
    return model, xs


def count_boards(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Boards modulo symmetry: every lex-leader board enumerated, each weighted by its orbit size
    for the raw count."""
    group = problem.symmetry_group()
    model, xs = build_model(problem, "board")
    raw = 0

    def weigh(values: list[int]) -> None:
        nonlocal raw
        raw += orbit_size(values, group)

    en = engine.enumerate_solutions(model, xs, budget, on_solution=weigh, seed=spec.seed, keep=False)
    found = Found(count=en.count, stats={**en.stats, "raw_count": raw, "method": "enumeration"})
    return found if en.complete else found.stop(en.stopped)


def count_suffix_sets(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Suffix placements (lex-leaders on the suffix slots) admitting a board: solve, forbid it, repeat."""
    model, xs = build_model(problem, "suffix")
    suffix_vars = [xs[n] for n in problem.layout.suffix_nodes]
    sgroup = problem.suffix_group()
    found = Found(count=0, stats={"raw_count": 0})
    while True:
        out = engine.solve(model, budget, workers=spec.workers, seed=spec.seed)
        engine.add_stats(found.stats, out.stats)
        if out.status is Status.INFEASIBLE:
            return found
        if not out.status.solved:
            return found.stop(out.stopped)
        vector = [out.value(v) for v in suffix_vars]
        found.count = (found.count or 0) + 1
        found.stats["raw_count"] += orbit_size(vector, sgroup)
        model.add_forbidden_assignments(suffix_vars, [vector])


def _listing(problem: Problem, spec: Any, budget: Budget, symmetry: str | None, limit: int | None) -> Found:
    model, xs = build_model(problem, symmetry)
    found = Found()

    def keep(values: list[int]) -> None:
        if spec.limit is None or len(found.answers) < spec.limit:
            found.answers.append(values)

    en = engine.enumerate_solutions(model, xs, budget, on_solution=keep, limit=limit, seed=spec.seed, keep=False)
    found.count, found.stats = en.count, en.stats
    return found if en.complete else found.stop(en.stopped)


def solve(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Every filling of the player's suffixes (counted; up to ``limit`` listed)."""
    return _listing(problem, spec, budget, None, None)


def enumerate_(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Boards modulo symmetry (lex-leaders), up to ``limit``."""
    return _listing(problem, spec, budget, "board", spec.limit)


def generate(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Random boards: a randomised search per board, each board forbidden before the next; every
    search gets only what is left of the run's budget."""
    model, xs = build_model(problem, "board")
    found = Found()
    for k in range(spec.count):
        out = engine.solve(model, budget, workers=spec.workers or 1, seed=(spec.seed or 0) + k, randomize=True)
        engine.add_stats(found.stats, out.stats)
        if out.status is Status.INFEASIBLE:
            return found
        if not out.status.solved:
            return found.stop(out.stopped)
        x = [out.value(v) for v in xs]
        found.answers.append(x)
        model.add_forbidden_assignments(xs, [x])
    return found
