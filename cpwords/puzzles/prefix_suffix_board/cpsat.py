"""The CP-SAT model of a prefix/suffix board.

One integer variable per slot holds its token id (X, in node order); one per edge holds the id
of the word it spells, tied to the two tokens by an ``AddAllowedAssignments`` table of
(prefix, suffix, word) rows. ``AddAllDifferent`` on the edge words says a word is used once;
``distinct_tokens`` adds AllDifferent on the prefixes and on the suffixes. Symmetry: for every
non-identity g of the board group, X ≤lex g·X, with a chain of "equal so far" booleans.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ortools.sat.python import cp_model

from cpwords.engines import cpsat as engine
from cpwords.geometry import Symmetry, orbit_size
from cpwords.puzzles.prefix_suffix_board.problem import Problem
from cpwords.puzzles.prefix_suffix_board.spec import PrefixSuffixBoardSpec
from cpwords.results import Result, Status


def lex_leq(model: cp_model.CpModel, pairs: Sequence[tuple[cp_model.IntVar, cp_model.IntVar]], name: str) -> None:
    """Post (a_0, a_1, …) ≤lex (b_0, b_1, …) for ``pairs`` = [(a_0, b_0), …]; ties are allowed.

    ``eq_t`` ⇔ the first t+1 pairs are equal, so the booleans are fixed by the values (enumeration
    counts boards, not booleans).
    """
    equal_so_far = None
    for t, (a, b) in enumerate(pairs):
        guard = [] if equal_so_far is None else [equal_so_far]
        model.Add(a <= b).OnlyEnforceIf(guard)
        if t == len(pairs) - 1:
            break
        eq = model.NewBoolVar(f"{name}_eq{t}")
        model.Add(a == b).OnlyEnforceIf(eq)
        if equal_so_far is not None:
            model.AddImplication(eq, equal_so_far)
        model.Add(a + 1 <= b).OnlyEnforceIf([*guard, eq.Not()])
        equal_so_far = eq


def lex_leader_constraints(model: cp_model.CpModel, xs: Sequence[cp_model.IntVar], group: Sequence[Symmetry],
                           name: str = "lex") -> None:
    """X ≤lex g·X for every non-identity g ((g·X)[j] = X[g.source_indices()[j]])."""
    for g in group:
        if g.is_identity:
            continue
        src = g.source_indices()
        pairs = [(xs[j], xs[src[j]]) for j in range(len(xs)) if src[j] != j]
        if pairs:
            lex_leq(model, pairs, f"{name}_{g.name}")


def build_model(problem: Problem, symmetry: str | None) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The board model; ``symmetry`` is ``board`` (lex-leader on X), ``suffix`` (on the suffix slots) or None.

    Returns the model and X (token variables in node order).
    """
    model = cp_model.CpModel()
    lay, tokens = problem.layout, problem.tokens
    names = lay.names
    domains = [problem.domain(n) for n in range(problem.nodes)]
    xs = [model.NewIntVarFromDomain(cp_model.Domain.FromValues(domains[n] or [0]), f"token_{names[n]}")
          for n in range(problem.nodes)]
    for n in range(problem.nodes):
        if not domains[n]:
            model.AddBoolOr([])  # no token fits this slot
    words = []
    for p, s in lay.edges:
        dp, ds = set(domains[p]), set(domains[s])
        rows = [(a, b, w) for (a, b), w in tokens.cuts.items() if a in dp and b in ds]
        w_dom = sorted({w for _, _, w in rows}) or [0]
        word = model.NewIntVarFromDomain(cp_model.Domain.FromValues(w_dom), f"word_{names[p]}_{names[s]}")
        model.AddAllowedAssignments([xs[p], xs[s], word], rows)
        words.append(word)
    model.AddAllDifferent(words)
    if problem.distinct_tokens:
        model.AddAllDifferent([xs[n] for n in lay.prefix_nodes])
        model.AddAllDifferent([xs[n] for n in lay.suffix_nodes])
    if symmetry == "board":
        lex_leader_constraints(model, xs, problem.symmetry_group())
    elif symmetry == "suffix" and not problem.fixed_suffixes:
        lex_leader_constraints(model, [xs[n] for n in lay.suffix_nodes], problem.suffix_group(), "suffix_lex")
    return model, xs


def solve_cpsat(spec: PrefixSuffixBoardSpec, problem: Problem) -> Result:
    """Run the spec's task with CP-SAT."""
    from cpwords.puzzles.prefix_suffix_board import count_result, result_of

    group = problem.symmetry_group()
    if spec.task == "count_boards":
        model, xs = build_model(problem, "board")
        en = engine.enumerate_solutions(model, xs, time_limit=spec.time_limit, seed=spec.seed, keep=True)
        raw = sum(orbit_size(x, group) for x in en.solutions)
        return count_result(spec, problem, raw, en.count, en.complete, en.stats)
    if spec.task == "count_suffix_sets":
        return _count_suffix_sets(spec, problem)
    if spec.task in ("solve", "enumerate"):
        model, xs = build_model(problem, "board" if spec.task == "enumerate" else None)
        kept: list[list[int]] = []
        limit = spec.limit if spec.task == "enumerate" else None

        def keep(values: list[int]) -> None:
            if spec.limit is None or len(kept) < spec.limit:
                kept.append(values)

        en = engine.enumerate_solutions(model, xs, on_solution=keep, limit=limit, time_limit=spec.time_limit,
                                        seed=spec.seed, keep=False)
        return result_of(spec, problem, kept, complete=en.complete, count=en.count, count_exact=en.complete,
                         stats=en.stats)
    # generate: randomised search, each board blocked before drawing the next
    model, xs = build_model(problem, "board")
    boards: list[list[int]] = []
    complete = True
    for k in range(spec.count):
        out = engine.solve(model, time_limit=spec.time_limit, workers=spec.workers or 1,
                           seed=(spec.seed or 0) + k, randomize=True)
        if not out.status.solved:
            complete = out.status is Status.INFEASIBLE
            break
        x = [out.value(v) for v in xs]
        boards.append(x)
        model.AddForbiddenAssignments(xs, [x])
    return result_of(spec, problem, boards, complete=complete or len(boards) == spec.count)


def _count_suffix_sets(spec: PrefixSuffixBoardSpec, problem: Problem) -> Result:
    """Suffix placements (lex-leaders on the suffix slots) admitting a board: solve, forbid it, repeat."""
    from cpwords.puzzles.prefix_suffix_board import count_result

    model, xs = build_model(problem, "suffix")
    suffix_vars = [xs[n] for n in problem.layout.suffix_nodes]
    sgroup = problem.suffix_group()
    found, raw, calls = 0, 0, 0
    complete = False
    end = None if spec.time_limit is None else time.monotonic() + spec.time_limit
    while True:
        left = None if end is None else end - time.monotonic()
        if left is not None and left <= 0:
            break
        out = engine.solve(model, time_limit=left, workers=spec.workers, seed=spec.seed)
        calls += 1
        if out.status is Status.INFEASIBLE:
            complete = True
            break
        if not out.status.solved:
            break
        vector = [out.value(v) for v in suffix_vars]
        found += 1
        raw += orbit_size(vector, sgroup)
        model.AddForbiddenAssignments(suffix_vars, [vector])
    return count_result(spec, problem, raw, found, complete, {"solver_calls": calls})
