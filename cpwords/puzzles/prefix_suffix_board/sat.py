"""The SAT model (PySAT) of a prefix/suffix board, and its exact count by projected model counting.

**The CNF** (:class:`BoardCnf`). Each slot chooses one token: one-hot literals over the tokens
it can still take once the domains are made arc consistent along the edges (a prefix that
makes a word with no suffix left next to it is dropped, and back). Support clauses tie each
edge to the cuts of words ("prefix a here → one of the suffixes a pairs with there", and back);
a support clause naming every value of the other slot is implied by its exactly-one and left
out. A word is used at most once: every (edge, cut) that spells it implies a literal, at most
one of which is true; with distinct tokens only words with several cuts (in+ter, int+er) can
repeat, so only they get those literals. Distinct tokens: at most one slot of a kind per token.

**Symmetry**: X ≤lex g·X on order-encoded token ids (:meth:`CnfModel.ordered`, a ladder linear
in the domain, and :meth:`CnfModel.lex_leq_ordered`, about two clauses per value and position).
The chain of each g skips the positions g fixes and the pairs already known equal, and stops
after the first pair that can never be equal: with distinct tokens, the first slot g moves (two
slots of the same kind), so each g costs one comparison. On common-5k the CNF with the board's
lex-leader shrinks from 970,000 clauses to under 50,000.

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
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from cpwords.engines import counting
from cpwords.engines import sat as engine
from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found
from cpwords.engines.outcome import Enumeration
from cpwords.engines.sat import OrderedInt
from cpwords.engines.workers import worker_count
from cpwords.geometry import Symmetry, orbit_size
from cpwords.puzzles.prefix_suffix_board.problem import PlacementCount, Problem
from cpwords.results import Status

#: Longest at-most-one written pairwise (measured on common-10k placements: fewer auxiliary
#: variables make Ganak about 25% faster there).
PAIRWISE_UP_TO = 12


class BoardCnf:
    """The CNF of a board and how to read X back from a model.

    Parameters
    ----------
    problem:
        The board problem.
    symmetry:
        ``board`` (lex-leader on X under ``group``, default the board group), ``suffix`` (on
        the suffix slots under the suffix group) or None.
    domains:
        Token ids each slot may take, by node (default: the problem's domains).
    group:
        The symmetries to break with ``board`` (e.g. a placement's stabiliser).
    budget:
        The run's budget, checked while the clauses are written.

    Raises
    ------
    SearchTimeout
        When the budget ends while the CNF is written.
    """

    def __init__(self, problem: Problem, symmetry: str | None, *, domains: Sequence[Sequence[int]] | None = None,
                 group: Sequence[Symmetry] | None = None, budget: Budget | None = None) -> None:
        self.problem = problem
        self.model = m = engine.CnfModel(budget=budget)
        lay = problem.layout
        self.domains = arc_consistent(problem, domains or [problem.domain(n) for n in range(problem.nodes)])
        self.lits = [{t: m.var(("x", n, t)) for t in self.domains[n]} for n in range(problem.nodes)]
        for n in range(problem.nodes):
            lits = list(self.lits[n].values())
            m.add(lits)  # an empty domain: the empty clause
            self._at_most_one(lits)
        self._supports()
        self._words_once()
        if problem.distinct_tokens:
            for kind_nodes in (lay.prefix_nodes, lay.suffix_nodes):
                holders: dict[int, list[int]] = defaultdict(list)
                for n in kind_nodes:
                    for t, lit in self.lits[n].items():
                        holders[t].append(lit)
                for lits in holders.values():
                    self._at_most_one(lits)
        self._ordered: dict[int, OrderedInt] = {}
        if symmetry == "board":
            self._lex_leader(list(range(problem.nodes)), list(group or problem.symmetry_group()))
        elif symmetry == "suffix" and not problem.fixed_suffixes:
            self._lex_leader(list(lay.suffix_nodes), problem.suffix_group())

    def _supports(self) -> None:
        tokens, m = self.problem.tokens, self.model
        for p, s in self.problem.layout.edges:
            lp, ls = self.lits[p], self.lits[s]
            partners_p: dict[int, list[int]] = defaultdict(list)
            partners_s: dict[int, list[int]] = defaultdict(list)
            for a in lp:
                for b in tokens.suffixes_with[a]:
                    if b in ls:
                        partners_p[a].append(ls[b])
                        partners_s[b].append(lp[a])
            for a, lit in lp.items():
                if len(partners_p[a]) < len(ls):  # else implied by the exactly-one of s
                    m.add([-lit, *partners_p[a]])
            for b, lit in ls.items():
                if len(partners_s[b]) < len(lp):
                    m.add([-lit, *partners_s[b]])

    def _words_once(self) -> None:
        tokens, m = self.problem.tokens, self.model
        multi = {w for w, cuts in enumerate(tokens.cuts_of_word) if len(cuts) > 1}
        spelled: dict[int, list[tuple[int, int, int]]] = defaultdict(list)  # word -> (edge, prefix lit, suffix lit)
        for e, (p, s) in enumerate(self.problem.layout.edges):
            lp, ls = self.lits[p], self.lits[s]
            for a, la in lp.items():
                for b in tokens.suffixes_with[a]:
                    if b in ls:
                        w = tokens.cuts[(a, b)]
                        if w in multi or not self.problem.distinct_tokens:
                            spelled[w].append((e, la, ls[b]))
        for entries in spelled.values():
            if len({e for e, _, _ in entries}) < 2:
                continue  # a word only one edge can spell is spelled at most once
            uses = []
            for _, la, lb in entries:
                used = m.new_var()
                m.add([-la, -lb, used])
                uses.append(used)
            self._at_most_one(uses)

    def _at_most_one(self, lits: list[int]) -> None:
        """Pairwise up to :data:`PAIRWISE_UP_TO` literals: no auxiliary variables, which Ganak
        counts faster on the small formulas of one placement; a sequential counter beyond."""
        if len(lits) <= PAIRWISE_UP_TO:
            self.model.add_all([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:])
        else:
            self.model.at_most_one(lits)

    def _lex_leader(self, nodes: list[int], group: Sequence[Symmetry]) -> None:
        """X ≤lex g·X over the values at ``nodes`` for every non-identity g (a permutation of positions)."""
        for g in group:
            if g.is_identity:
                continue
            src = g.source_indices()
            pairs: list[tuple[int, int]] = []
            joined = list(range(self.problem.nodes))  # union-find over nodes known equal so far
            for j in range(len(nodes)):
                a, b = nodes[j], nodes[src[j]]
                if _root(joined, a) == _root(joined, b):
                    continue  # the same slot, or equal because the pairs before are
                pairs.append((a, b))
                if not self._may_equal(a, b):
                    break
                joined[_root(joined, a)] = _root(joined, b)
            if pairs:
                self.model.lex_leq_ordered([(self._order(a), self._order(b)) for a, b in pairs])

    def _may_equal(self, a: int, b: int) -> bool:
        """Whether slots a and b can hold the same token id (ids compare across kinds too)."""
        if self.problem.distinct_tokens and self.problem.is_prefix(a) == self.problem.is_prefix(b):
            return False
        return not self.lits[a].keys().isdisjoint(self.lits[b].keys())

    def _order(self, node: int) -> OrderedInt:
        if node not in self._ordered:
            self._ordered[node] = self.model.ordered(self.lits[node])
        return self._ordered[node]

    def projection(self, nodes: Sequence[int] | None = None) -> list[int]:
        """The one-hot literals of the slots (all, or ``nodes``)."""
        nodes = range(self.problem.nodes) if nodes is None else nodes
        return [lit for n in nodes for lit in self.lits[n].values()]

    def values(self, true: set[int], nodes: Sequence[int] | None = None) -> list[int]:
        """Token ids of ``nodes`` (default: all, i.e. X) in a model's true variables."""
        nodes = range(self.problem.nodes) if nodes is None else nodes
        return [next(t for t, lit in self.lits[n].items() if lit in true) for n in nodes]


def _root(joined: list[int], x: int) -> int:
    """The representative of x in a union-find array (paths halved on the way)."""
    while joined[x] != x:
        joined[x] = joined[joined[x]]
        x = joined[x]
    return x


def arc_consistent(problem: Problem, domains: Sequence[Sequence[int]]) -> list[list[int]]:
    """The domains with every token removed that makes no word with any token left next to it
    (repeated until nothing changes); with distinct tokens, a slot's only token is also taken
    from the other slots of its kind."""
    tokens = problem.tokens
    dom = [set(d) for d in domains]
    edges = problem.layout.edges
    kind_nodes = (problem.layout.prefix_nodes, problem.layout.suffix_nodes)
    changed = True
    while changed:
        changed = False
        for p, s in edges:
            keep_p = {a for a in dom[p] if not tokens.suffixes_with[a].isdisjoint(dom[s])}
            keep_s = {b for b in dom[s] if not tokens.prefixes_with[b].isdisjoint(keep_p)}
            if keep_p != dom[p] or keep_s != dom[s]:
                dom[p], dom[s], changed = keep_p, keep_s, True
        if problem.distinct_tokens:
            for nodes in kind_nodes:
                for n in nodes:
                    if len(dom[n]) == 1:
                        (t,) = dom[n]
                        for o in nodes:
                            if o != n and t in dom[o]:
                                dom[o] = dom[o] - {t}
                                changed = True
    return [sorted(d) for d in dom]


# ---------------------------------------------------------------- counting by placements


class FillingsCnf:
    """Builds the CNF of one suffix placement's fillings, projected on the prefix slots: the job
    function of :class:`cpwords.engines.counting.CountingPool` (picklable, runs in the workers).

    A job is ``(vector, modulo)``: the suffix ids by suffix slot, and whether to post the
    lex-leader clauses of the placement's stabiliser (count its fillings modulo symmetry).
    """

    def __init__(self, problem: Problem) -> None:
        self.problem = problem

    def cnf(self, vector: tuple[int, ...], modulo: bool, budget: Budget | None = None) -> BoardCnf:
        """The placement's :class:`BoardCnf` (``budget``: see :class:`BoardCnf`)."""
        problem = self.problem
        domains = [problem.domain(n) for n in range(problem.nodes)]
        for n, v in zip(problem.layout.suffix_nodes, vector, strict=True):
            domains[n] = [v] if v in domains[n] else []
        group = problem.stabiliser(vector) if modulo else None
        return BoardCnf(problem, "board" if modulo else None, domains=domains, group=group, budget=budget)

    def __call__(self, job: tuple[tuple[int, ...], bool]) -> counting.Cnf:
        cnf = self.cnf(*job)
        return cnf.model.clauses, cnf.projection(self.problem.layout.prefix_nodes)


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
    workers = worker_count(spec.workers)[0]
    if counting.available():
        found.stats["method"] = "SAT-enumerated suffix placements x projected model counts (Ganak)"
        totals = _count_with_ganak(problem, vectors, budget, workers, found)
    else:
        found.stats["method"] = ("SAT-enumerated suffix placements x SAT-enumerated fillings (no pyganak: the `count` extra "
                                  "adds Ganak's model counts)")
        totals = _count_by_enumeration(problem, vectors, budget, found)
    found.count, found.stats["raw_count"] = totals
    return found


def _count_with_ganak(problem: Problem, vectors: list[tuple[int, ...]], budget: Budget, workers: int,
                      found: Found) -> tuple[int, int]:
    jobs = [(v, False) for v in vectors] + [(v, True) for v in vectors if len(problem.stabiliser(v)) > 1]
    pool: counting.CountingPool[tuple[tuple[int, ...], bool]] = counting.CountingPool(
        FillingsCnf(problem), budget, workers=workers)
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
