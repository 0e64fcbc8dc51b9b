"""CNF models for PySAT, puzzle-agnostic: named variables, clauses, cardinality encodings, and
the order encodings that post lex-leader symmetry breaking.

The modelling half of the SAT back end, kept apart from solving (:mod:`cpwords.engines.sat`
loads a :class:`CnfModel` into a PySAT solver and runs it within the budget), as CPMpy keeps its
model apart from its solver interfaces.

Example
-------
>>> m = CnfModel()
>>> x = [m.var(("x", i)) for i in range(3)]
>>> m.exactly_one(x)
>>> m.var(("x", 1)), len(m.clauses)
(2, 4)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from cpwords.engines.budget import Budget


class CnfModel:
    """A CNF formula under construction, with named variables.

    Variables are positive integers from an :class:`IDPool`; ``var(name)`` returns the same
    integer for the same hashable name. Literals are ±variable.

    With a ``budget``, building the formula checks it every few thousand clauses and raises
    :class:`~cpwords.engines.budget.SearchTimeout` once it is spent: a big model (a 7×7 grid over a
    large dictionary) can take longer to write than the whole time limit.
    """

    def __init__(self, budget: Budget | None = None) -> None:
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self._tick = budget.ticker(4096) if budget is not None else _no_check

    # -- variables and clauses
    def var(self, name: Hashable) -> int:
        """The variable named ``name`` (created on first use)."""
        return int(self.pool.id(name))

    def new_var(self) -> int:
        """A fresh auxiliary variable."""
        return int(self.pool.id(("__aux", self.pool.top + 1)))

    def add(self, clause: Iterable[int]) -> None:
        """Add one clause (a disjunction of literals)."""
        self._tick()
        self.clauses.append(list(clause))

    def add_all(self, clauses: Iterable[Iterable[int]]) -> None:
        """Add several clauses."""
        self._tick()
        self.clauses.extend(list(c) for c in clauses)

    def implies(self, a: int, b: int) -> None:
        """a → b."""
        self._tick()
        self.clauses.append([-a, b])

    def implies_any(self, a: int, bs: Sequence[int]) -> None:
        """a → (b1 ∨ b2 ∨ …)."""
        self._tick()
        self.clauses.append([-a, *bs])

    def equiv_and(self, out: int, ins: Sequence[int]) -> None:
        """out ↔ (i1 ∧ i2 ∧ …)."""
        self._tick()
        for i in ins:
            self.clauses.append([-out, i])
        self.clauses.append([out, *(-i for i in ins)])

    def equiv_or(self, out: int, ins: Sequence[int]) -> None:
        """out ↔ (i1 ∨ i2 ∨ …)."""
        self._tick()
        for i in ins:
            self.clauses.append([out, -i])
        self.clauses.append([-out, *ins])

    # -- cardinality
    def _card(self, lits: Sequence[int], bound: int, kind: str, encoding: int) -> None:
        self._tick()
        lits = list(lits)
        if kind == "atmost" and bound >= len(lits):
            return
        if kind == "atleast" and bound <= 0:
            return
        enc = getattr(CardEnc, kind)(lits=lits, bound=bound, vpool=self.pool, encoding=encoding)
        self.clauses.extend(enc.clauses)

    def at_most_one(self, lits: Sequence[int]) -> None:
        """At most one literal true (pairwise for few literals, ladder/sequential otherwise)."""
        self._tick()
        lits = list(lits)
        if len(lits) <= 6:
            for i in range(len(lits)):
                for j in range(i + 1, len(lits)):
                    self.clauses.append([-lits[i], -lits[j]])
        else:
            self._card(lits, 1, "atmost", EncType.seqcounter)

    def at_least_one(self, lits: Sequence[int]) -> None:
        """At least one literal true."""
        self._tick()
        self.clauses.append(list(lits))

    def exactly_one(self, lits: Sequence[int]) -> None:
        """Exactly one literal true."""
        self.at_least_one(lits)
        self.at_most_one(lits)

    def at_most_k(self, lits: Sequence[int], k: int, encoding: int = EncType.seqcounter) -> None:
        """At most k literals true (``pysat.card``)."""
        if k < 0:
            self.clauses.append([])
        else:
            self._card(lits, k, "atmost", encoding)

    def at_least_k(self, lits: Sequence[int], k: int, encoding: int = EncType.seqcounter) -> None:
        """At least k literals true (``pysat.card``)."""
        if k > len(lits):
            self.clauses.append([])
        else:
            self._card(lits, k, "atleast", encoding)

    def exactly_k(self, lits: Sequence[int], k: int, encoding: int = EncType.seqcounter) -> None:
        """Exactly k literals true."""
        self.at_most_k(lits, k, encoding)
        self.at_least_k(lits, k, encoding)

    # -- ordering (symmetry breaking)
    def order_literals(self, onehot: Sequence[int]) -> list[int]:
        """Order encoding of a one-hot integer x ∈ {0..m-1}: ``ge[v] ↔ x ≥ v`` for v = 1..m-1.

        Returned list ``ge`` has ``ge[v-1]`` for ``x ≥ v``.
        """
        self._tick()
        m = len(onehot)
        ge: list[int] = []
        for v in range(1, m):
            g = self.new_var()
            self.equiv_or(g, onehot[v:])
            ge.append(g)
        return ge

    def lex_leq(self, xs: Sequence[Sequence[int]], ys: Sequence[Sequence[int]]) -> None:
        """Post X ≤lex Y over integer vectors given by their order literals (see ``order_literals``).

        ``xs[i]`` and ``ys[i]`` are the ``ge`` lists of the i-th entries (same domain). Equal
        vectors are allowed, so ties (equal values) are fine.
        """
        self._tick()
        equal_so_far = None  # None stands for "true" at position 0
        for i, (gx, gy) in enumerate(zip(xs, ys, strict=True)):
            guard: list[int] = [] if equal_so_far is None else [-equal_so_far]
            # equal so far → x_i ≤ y_i, i.e. for all v: x ≥ v → y ≥ v
            for a, b in zip(gx, gy, strict=True):
                self.clauses.append([*guard, -a, b])
            if i == len(xs) - 1:
                break
            # equal so far ∧ not (x_i < y_i) → equal after i; x_i < y_i ⇐ some v: x < v ≤ y
            nxt = self.new_var()
            witnesses = []
            for a, b in zip(gx, gy, strict=True):
                d = self.new_var()
                self.clauses.append([-d, -a])
                self.clauses.append([-d, b])
                witnesses.append(d)
            self.clauses.append([*guard, nxt, *witnesses])
            equal_so_far = nxt

    def ordered(self, onehot: Mapping[int, int]) -> OrderedInt:
        """Order literals of an integer given by one-hot literals over its values (``{value: literal}``).

        A ladder, linear in the number of values: ``ge_i ↔ onehot_i ∨ ge_{i+1}`` (three clauses a
        value) instead of one ``equiv_or`` over every larger value (quadratic), and only over the
        values the integer can take. Each order literal is fixed by the one-hot literals.
        """
        self._tick()
        values = sorted(onehot)
        ge: list[int] = [0] * len(values)
        above = 0
        for i in range(len(values) - 1, 0, -1):
            g = self.new_var()
            here = onehot[values[i]]
            self.clauses.append([-here, g])
            if above:
                self.clauses.append([-above, g])
                self.clauses.append([-g, here, above])
            else:
                self.clauses.append([-g, here])
            ge[i] = above = g
        return OrderedInt(tuple(values), tuple(ge))

    def lex_leq_ordered(self, pairs: Sequence[tuple[OrderedInt, OrderedInt]]) -> None:
        """Post (x_0, x_1, …) ≤lex (y_0, y_1, …) for ``pairs`` = [(x_0, y_0), …]; ties allowed.

        About two clauses per value of x_j and one helper a position: ``e_j`` ("equal before j")
        → x_j ≤ y_j, and ``e_j ∧ ¬e_{j+1}`` → x_j < y_j, both straight on the order literals.
        A helper ``e_{j+1}`` is free once x_j < y_j: count models *projected* on the values
        (:func:`cpwords.engines.sat.enumerate_models`, :mod:`cpwords.engines.counting`). Callers
        shorten the chain themselves: after a pair that can never be equal nothing further is compared.
        """
        self._tick()
        when: list[int] = []  # e_j as a condition (none at j = 0: nothing before it)
        for j, (x, y) in enumerate(pairs):
            self._implied_order(when, x, y, 0)
            if j == len(pairs) - 1:
                break
            nxt = self.new_var()
            self._implied_order([*when, -nxt], x, y, 1)
            when = [nxt]

    def _implied_order(self, when: Sequence[int], x: OrderedInt, y: OrderedInt, gap: int) -> None:
        """Clauses for (all of ``when``) → x + gap ≤ y: for every value v of x, x ≥ v → y ≥ v + gap."""
        for v in x.values:
            lx, ly = x.at_least(v), y.at_least(v + gap)
            if ly is True:
                continue
            clause = [-c for c in when]
            if lx is not True:
                clause.append(-lx)
            if ly is not False:
                clause.append(ly)
            self.clauses.append(clause)


def _no_check() -> None:
    return None


@dataclass(frozen=True)
class OrderedInt:
    """An integer in CNF: its possible ``values`` (sorted) and order literals, ``ge[i] ↔ x ≥
    values[i]`` for i ≥ 1 (``ge[0]`` is unused: x ≥ its smallest value always holds)."""

    values: tuple[int, ...]
    ge: tuple[int, ...]

    def at_least(self, v: int) -> int | bool:
        """The literal of x ≥ v, or the constant True / False."""
        i = bisect_left(self.values, v)
        if i == 0:
            return True
        if i == len(self.values):
            return False
        return self.ge[i]
