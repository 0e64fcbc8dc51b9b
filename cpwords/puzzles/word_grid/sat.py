"""The SAT (PySAT) model of a word grid.

One-hot letters per cell, one-hot word choice per slot; choosing a word implies its letters,
and a letter in a cell implies some word of each slot through the cell that has it there
(support clauses, for propagation). At most one slot takes each word when words must differ.
Symmetry: X ≤lex g·X on the order encoding of the cell letters. Grids are enumerated with
blocking clauses projected on the cell letters.
"""

from __future__ import annotations

import random
from typing import Any

from cpwords.engines import sat
from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.geometry import orbit_size
from cpwords.puzzles.word_grid.problem import GridProblem


class GridCnf:
    """The CNF of a grid problem and the cell-letter literals to read answers from."""

    def __init__(self, problem: GridProblem, rng: random.Random | None = None) -> None:
        self.problem = problem
        m = self.model = sat.CnfModel()
        self.letter = [[m.var(("x", c, ch)) for ch in range(26)] for c in range(len(problem.cells))]
        for c, onehot in enumerate(self.letter):
            m.exactly_one(onehot)
            if c in problem.given:
                m.add([onehot[problem.given[c]]])
        by_word: dict[tuple[int, int], list[int]] = {}
        for s, slot in enumerate(problem.slots):
            n = len(slot)
            ids = list(problem.candidates[s])
            if rng is not None:
                rng.shuffle(ids)  # variable order steers the solver: random by seed
            choice = [m.var(("y", s, w)) for w in ids]
            m.exactly_one(choice)
            support: dict[tuple[int, int], list[int]] = {}
            for w, y in zip(ids, choice, strict=True):
                word = problem.words[n][w]
                for p, c in enumerate(slot):
                    lit = self.letter[c][ord(word[p]) - 97]
                    m.implies(y, lit)
                    support.setdefault((p, ord(word[p]) - 97), []).append(y)
                by_word.setdefault((n, w), []).append(y)
            for p, c in enumerate(slot):
                for ch in range(26):
                    m.implies_any(self.letter[c][ch], support.get((p, ch), []))
        if problem.distinct:
            for ys in by_word.values():
                if len(ys) > 1:
                    m.at_most_one(ys)
        order = [m.order_literals(onehot) for onehot in self.letter]
        for g in problem.group:
            if not g.is_identity:
                src = g.source_indices()
                m.lex_leq(order, [order[src[j]] for j in range(len(order))])
        if rng is not None:
            rng.shuffle(m.clauses)
        self.projection = [lit for onehot in self.letter for lit in onehot]

    def letters(self, true: set[int]) -> list[int]:
        """One letter index per cell from the true projection variables."""
        return [next(ch for ch, lit in enumerate(onehot) if lit in true) for onehot in self.letter]


def _models(problem: GridProblem, spec: Any, budget: Budget, limit: int | None, counting: bool) -> Found:
    rng = random.Random(spec.seed) if spec.task == "generate" else None
    cnf = GridCnf(problem, rng)
    raw = 0

    def on_model(true: set[int]) -> None:
        nonlocal raw
        if counting:
            raw += orbit_size(cnf.letters(true), problem.group)

    en = sat.enumerate_models(cnf.model, cnf.projection, budget, on_model=on_model, limit=limit, keep=not counting)
    found = Found(answers=[cnf.letters(true) for true in en.models], count=en.count, stats=dict(en.stats))
    if counting:
        found.stats |= {"raw_count": raw, "method": "enumeration"}
    return found if en.complete else found.stop(en.stopped)


def generate(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """``count`` grids from a CNF whose variable and clause order are shuffled by seed."""
    return _enough(_models(problem, spec, budget, spec.count, counting=False), spec)


def fill(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """Up to ``count`` grids completing the given letters."""
    return _enough(_models(problem, spec, budget, spec.count, counting=False), spec)


def _enough(found: Found, spec: Any) -> Found:
    """As many grids as asked is a finished task; fewer from a finished search: that is all there is."""
    found.count = None
    if found.stopped == "limit" and len(found.answers) == spec.count:
        found.complete, found.stopped = True, None
    if found.complete and 0 < len(found.answers) < spec.count:
        found.message = f"only {len(found.answers)} different grids exist"
    return found


def enumerate_(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """Grids modulo symmetry (lex-leaders) by blocking clauses, up to ``limit``."""
    return _models(problem, spec, budget, spec.limit, counting=False)


def count(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """Grids modulo symmetry by projected enumeration of the lex-leaders; raw from orbit sizes."""
    return _models(problem, spec, budget, None, counting=True)
