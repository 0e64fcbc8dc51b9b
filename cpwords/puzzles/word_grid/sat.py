"""The SAT (PySAT) model of a word grid.

One-hot letters per cell, one-hot word choice per slot; choosing a word implies its letters,
and a letter in a cell implies some word of each slot through the cell that has it there
(support clauses, for propagation). At most one slot takes each word when words must differ.
Symmetry: X ≤lex g·X on the order encoding of the cell letters. Grids are enumerated with
blocking clauses projected on the cell letters.
"""

from __future__ import annotations

import random
import time

from cpwords.engines import sat
from cpwords.geometry import orbit_size
from cpwords.puzzles.word_grid import grid_result
from cpwords.puzzles.word_grid.problem import GridProblem
from cpwords.results import Result, Status


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


def solve_sat(spec, problem: GridProblem) -> Result:  # noqa: ANN001
    """Run one task with PySAT (``objective: common`` is not offered here)."""
    t0 = time.perf_counter()
    rng = random.Random(spec.seed) if spec.task == "generate" else None
    cnf = GridCnf(problem, rng)
    counting = spec.task == "count"
    raw = [0]

    def on_model(true: set[int]) -> None:
        if counting:
            raw[0] += orbit_size(cnf.letters(true), problem.group)

    if spec.task in ("generate", "fill"):
        limit = spec.count
    elif spec.task == "enumerate":
        limit = spec.limit
    else:
        limit = None
    found = sat.enumerate_models(cnf.model, cnf.projection, on_model=on_model, limit=limit,
                                 time_limit=spec.time_limit, keep=not counting)
    grids = [cnf.letters(true) for true in found.models]
    stats = {**found.stats, "search_s": round(time.perf_counter() - t0, 6)}
    message = None
    if spec.task in ("generate", "fill"):
        status = found.status
        if found.complete and grids and len(grids) < spec.count:
            status, message = Status.OPTIMAL, f"only {len(grids)} different grids exist"
        elif grids and len(grids) == spec.count:
            status = Status.OPTIMAL
        return grid_result(spec, problem, status=status, grids=grids, stats=stats, message=message)
    if counting:
        stats["raw_count"] = raw[0]
        if not found.complete:
            message = "time limit reached: the count is a lower bound"
    status = found.status
    if spec.task == "enumerate" and not found.complete and limit is not None and found.count >= limit:
        status = Status.FEASIBLE
    return grid_result(spec, problem, status=status, grids=grids, stats=stats, count=found.count,
                       count_exact=found.complete, message=message)
