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

import random
from collections import defaultdict
from typing import Any

from cpwords.engines import sat as engine
from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.geometry import Symmetry, orbit_size
from cpwords.puzzles.prefix_suffix_board.problem import Problem
from cpwords.results import Status


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

    def _lex_leader(self, nodes: list[int], group: list[Symmetry]) -> None:
        """X ≤lex g·X over the values at ``nodes`` for every non-identity g (a permutation of positions)."""
        ge: dict[int, list[int] | None] = dict.fromkeys(nodes)
        for g in group:
            if g.is_identity:
                continue
            src = g.source_indices()
            pos = [j for j in range(len(nodes)) if src[j] != j]
            for j in pos:
                for n in (nodes[j], nodes[src[j]]):
                    if ge[n] is None:
                        ge[n] = self.model.order_literals(self.onehot[n])
            self.model.lex_leq([ge[nodes[j]] or [] for j in pos], [ge[nodes[src[j]]] or [] for j in pos])

    def projection(self, nodes: list[int] | None = None) -> list[int]:
        """The one-hot literals of the slots (all, or ``nodes``) that may be true."""
        nodes = list(range(self.problem.nodes)) if nodes is None else nodes
        return [self.onehot[n][t] for n in nodes for t in self.problem.domain(n)]

    def values(self, true: set[int], nodes: list[int] | None = None) -> list[int]:
        """Token ids of ``nodes`` (default: all, i.e. X) in a model's true variables."""
        nodes = list(range(self.problem.nodes)) if nodes is None else nodes
        return [next(t for t, lit in enumerate(self.onehot[n]) if lit in true) for n in nodes]


def count_suffix_sets(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Suffix placements (lex-leaders on the suffix slots) admitting a board, by projected
    enumeration on the suffix slots, each weighted by its orbit size for the raw count."""
    cnf = BoardCnf(problem, "suffix")
    nodes = list(problem.layout.suffix_nodes)
    sgroup = problem.suffix_group()
    raw = 0

    def weigh(true: set[int]) -> None:
        nonlocal raw
        raw += orbit_size(cnf.values(true, nodes), sgroup)

    en = engine.enumerate_models(cnf.model, cnf.projection(nodes), budget, on_model=weigh, keep=False)
    found = Found(count=en.count, stats={**en.stats, "raw_count": raw, "method": "enumeration"})
    return found if en.complete else found.stop(en.stopped)


def count_boards(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Boards modulo symmetry by projected enumeration of the lex-leaders (raw: orbit sizes)."""
    cnf = BoardCnf(problem, "board")
    group = problem.symmetry_group()
    raw = 0

    def weigh(true: set[int]) -> None:
        nonlocal raw
        raw += orbit_size(cnf.values(true), group)

    en = engine.enumerate_models(cnf.model, cnf.projection(), budget, on_model=weigh, keep=False)
    found = Found(count=en.count, stats={**en.stats, "raw_count": raw, "method": "enumeration"})
    return found if en.complete else found.stop(en.stopped)


def _listing(problem: Problem, spec: Any, budget: Budget, symmetry: str | None, limit: int | None) -> Found:
    cnf = BoardCnf(problem, symmetry)
    found = Found()

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
    cnf = BoardCnf(problem, "board")
    found = Found()
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
        cnf.model.add([-cnf.onehot[n][t] for n, t in enumerate(x)])
    return found
