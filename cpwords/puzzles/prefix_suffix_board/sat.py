"""The SAT model (PySAT) of a prefix/suffix board.

Each slot chooses one token (one-hot literals over all tokens of its kind, so that equal ids
line up for the lex-leader clauses). Support clauses tie each edge's two slots to the cuts of
words: "prefix a here" implies "one of the suffixes a pairs with there", and back. A word is used
at most once: every (edge, cut) that spells it implies a literal, at most one of which is true.
With distinct tokens, repeating a word needs two different cuts of it, so only words with
several cuts get those literals. Symmetry: X ≤lex g·X on order-encoded token ids
(``CnfModel.lex_leq``). Counting enumerates models with blocking clauses projected on the slots.
"""

from __future__ import annotations

import time
from collections import defaultdict

from cpwords.engines import sat as engine
from cpwords.geometry import orbit_size
from cpwords.puzzles.prefix_suffix_board.problem import Problem
from cpwords.puzzles.prefix_suffix_board.spec import PrefixSuffixBoardSpec
from cpwords.results import Result, Status


class BoardCnf:
    """The CNF of a board and how to read X back from a model."""

    def __init__(self, problem: Problem, symmetry: str | None) -> None:
        self.problem = problem
        self.model = engine.CnfModel()
        m, lay, tokens = self.model, problem.layout, problem.tokens
        sizes = [len(tokens.prefixes) if problem.is_prefix(n) else len(tokens.suffixes) for n in range(problem.nodes)]
        self.onehot = [[m.var(("x", n, t)) for t in range(sizes[n])] for n in range(problem.nodes)]
        for n in range(problem.nodes):
            allowed = set(problem.domain(n))
            m.exactly_one(self.onehot[n])
            for t, lit in enumerate(self.onehot[n]):
                if t not in allowed:
                    m.add([-lit])
        uses: dict[int, list[int]] = defaultdict(list)
        multi = {w for w, cuts in enumerate(tokens.cuts_of_word) if len(cuts) > 1}
        for p, s in lay.edges:
            dp, ds = set(problem.domain(p)), set(problem.domain(s))
            partners_p: dict[int, list[int]] = defaultdict(list)
            partners_s: dict[int, list[int]] = defaultdict(list)
            for (a, b), w in tokens.cuts.items():
                if a in dp and b in ds:
                    partners_p[a].append(self.onehot[s][b])
                    partners_s[b].append(self.onehot[p][a])
                    if w in multi or not problem.distinct_tokens:
                        used = m.new_var()
                        m.add([-self.onehot[p][a], -self.onehot[s][b], used])
                        uses[w].append(used)
            for a in dp:
                m.add([-self.onehot[p][a], *partners_p.get(a, [])])
            for b in ds:
                m.add([-self.onehot[s][b], *partners_s.get(b, [])])
        for lits in uses.values():
            if len(lits) > 1:
                m.at_most_one(lits)
        if problem.distinct_tokens:
            for kind_nodes in (lay.prefix_nodes, lay.suffix_nodes):
                for t in range(sizes[kind_nodes[0]]):
                    m.at_most_one([self.onehot[n][t] for n in kind_nodes])
        if symmetry == "board":
            self._lex_leader(list(range(problem.nodes)), problem.symmetry_group())
        elif symmetry == "suffix" and not problem.fixed_suffixes:
            self._lex_leader(list(lay.suffix_nodes), problem.suffix_group())

    def _lex_leader(self, nodes: list[int], group: list) -> None:
        """X ≤lex g·X over the values at ``nodes`` for every non-identity g (a permutation of positions)."""
        ge = {n: None for n in nodes}
        for g in group:
            if g.is_identity:
                continue
            src = g.source_indices()
            pos = [j for j in range(len(nodes)) if src[j] != j]
            for j in pos:
                for n in (nodes[j], nodes[src[j]]):
                    if ge[n] is None:
                        ge[n] = self.model.order_literals(self.onehot[n])
            self.model.lex_leq([ge[nodes[j]] for j in pos], [ge[nodes[src[j]]] for j in pos])

    def projection(self, nodes: list[int] | None = None) -> list[int]:
        """The one-hot literals of the slots (all, or ``nodes``) that may be true."""
        nodes = list(range(self.problem.nodes)) if nodes is None else nodes
        return [self.onehot[n][t] for n in nodes for t in self.problem.domain(n)]

    def values(self, true: set[int], nodes: list[int] | None = None) -> list[int]:
        """Token ids of ``nodes`` (default: all, i.e. X) in a model's true variables."""
        nodes = list(range(self.problem.nodes)) if nodes is None else nodes
        return [next(t for t, lit in enumerate(self.onehot[n]) if lit in true) for n in nodes]


def solve_sat(spec: PrefixSuffixBoardSpec, problem: Problem) -> Result:
    """Run the spec's task with the SAT model."""
    from cpwords.puzzles.prefix_suffix_board import count_result, result_of

    group = problem.symmetry_group()
    if spec.task == "count_suffix_sets":
        cnf = BoardCnf(problem, "suffix")
        nodes = list(problem.layout.suffix_nodes)
        sgroup = problem.suffix_group()
        raw = 0

        def weigh(true: set[int]) -> None:
            nonlocal raw
            raw += orbit_size(cnf.values(true, nodes), sgroup)

        en = engine.enumerate_models(cnf.model, cnf.projection(nodes), on_model=weigh, time_limit=spec.time_limit,
                                     keep=False)
        return count_result(spec, problem, raw, en.count, en.complete, en.stats)
    if spec.task == "count_boards":
        cnf = BoardCnf(problem, "board")
        raw = 0

        def weigh_board(true: set[int]) -> None:
            nonlocal raw
            raw += orbit_size(cnf.values(true), group)

        en = engine.enumerate_models(cnf.model, cnf.projection(), on_model=weigh_board, time_limit=spec.time_limit,
                                     keep=False)
        return count_result(spec, problem, raw, en.count, en.complete, en.stats)
    if spec.task in ("solve", "enumerate"):
        cnf = BoardCnf(problem, "board" if spec.task == "enumerate" else None)
        kept: list[list[int]] = []

        def keep(true: set[int]) -> None:
            if spec.limit is None or len(kept) < spec.limit:
                kept.append(cnf.values(true))

        limit = spec.limit if spec.task == "enumerate" else None
        en = engine.enumerate_models(cnf.model, cnf.projection(), on_model=keep, limit=limit,
                                     time_limit=spec.time_limit, keep=False)
        return result_of(spec, problem, kept, complete=en.complete, count=en.count, count_exact=en.complete,
                         stats=en.stats)
    return _generate(spec, problem)


def _generate(spec: PrefixSuffixBoardSpec, problem: Problem) -> Result:
    """Random boards: each draw assumes a random token at a random slot first, falling back to no assumption."""
    import random

    from cpwords.puzzles.prefix_suffix_board import result_of

    rng = random.Random(spec.seed)
    cnf = BoardCnf(problem, "board")
    end = None if spec.time_limit is None else time.monotonic() + spec.time_limit
    boards: list[list[int]] = []
    exhausted = False
    projection = cnf.projection()
    while len(boards) < spec.count:
        left = None if end is None else max(0.0, end - time.monotonic())
        if left == 0.0:
            break
        tries = [lit for lit in projection]
        rng.shuffle(tries)
        out = None
        for lit in [*tries[:8], None]:
            out = engine.solve(cnf.model, assumptions=[lit] if lit else [], time_limit=left)
            if out.status is not Status.INFEASIBLE:
                break
        if out is None or out.status is Status.INFEASIBLE:
            exhausted = True
            break
        if not out.status.solved:
            break
        x = cnf.values(out.true_vars)
        boards.append(x)
        cnf.model.add([-cnf.onehot[n][t] for n, t in enumerate(x)])
    return result_of(spec, problem, boards, complete=exhausted or len(boards) == spec.count)
