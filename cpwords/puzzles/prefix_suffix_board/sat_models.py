"""The CNFs (PySAT) of a prefix/suffix board: the whole board's and one suffix placement's fillings.

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

**One placement's fillings** (:class:`FillingsCnf`): the board's CNF with the suffix slots set to
the placement's tokens, projected on the prefix slots; with the lex-leader clauses of the
placement's stabiliser, its models are the fillings modulo symmetry. :mod:`.sat` counts them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from cpwords.engines import counting
from cpwords.engines import sat as engine
from cpwords.engines.budget import Budget
from cpwords.engines.sat import OrderedInt
from cpwords.geometry import Symmetry
from cpwords.puzzles.prefix_suffix_board.problem import Problem

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
