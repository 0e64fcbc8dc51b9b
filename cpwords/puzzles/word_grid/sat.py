"""The SAT (PySAT) model of a word grid.

One-hot letters per cell, a word choice per slot (at least one; the one-hot letters allow at most
one, as two words differ in some letter); choosing a word implies its letters,
and a letter in a cell implies some word of each slot through the cell that has it there
(support clauses, for propagation). At most one slot takes each word when words must differ.
Symmetry: X ≤lex g·X on the order encoding of the cell letters. Grids are enumerated with
blocking clauses projected on the cell letters. Counting uses a second encoding made for a model
counter (:func:`counting_cnf`) and Ganak's projected model count per symmetry (Burnside).
"""

from __future__ import annotations

import itertools
import random
import threading
from collections.abc import Iterator
from functools import partial
from typing import Any

from cpwords.engines import counting, sat
from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found
from cpwords.geometry import orbit_size
from cpwords.puzzles.word_grid.problem import GridProblem


class GridCnf:
    """The CNF of a grid problem and the cell-letter literals to read answers from."""

    def __init__(self, problem: GridProblem, rng: random.Random | None = None, budget: Budget | None = None) -> None:
        self.problem = problem
        m = self.model = sat.CnfModel(budget)  # a big formula takes seconds to write: it checks the budget
        size, index = problem.alphabet.size, problem.alphabet.index
        self.letter = [[m.var(("x", c, ch)) for ch in range(size)] for c in range(len(problem.cells))]
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
            if budget is not None:
                budget.check()  # the model's own check counts calls, and a slot is a few big ones
            choice = [m.var(("y", s, w)) for w in ids]
            # at least one word; at most one follows from the one-hot letters (two words differ somewhere)
            m.at_least_one(choice)
            support: dict[tuple[int, int], list[int]] = {}
            for w, y in zip(ids, choice, strict=True):
                word = problem.words[n][w]
                for p, c in enumerate(slot):
                    lit = self.letter[c][index[word[p]]]
                    m.implies(y, lit)
                    support.setdefault((p, index[word[p]]), []).append(y)
                by_word.setdefault((n, w), []).append(y)
            for p, c in enumerate(slot):
                for ch in range(size):
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
    try:
        cnf = GridCnf(problem, rng, budget)
    except SearchTimeout:  # the time ran out while the formula was written: nothing found yet
        return Found(count=0 if counting else None, stats={"formula": "unfinished"}).stop(budget.reason)
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
        found.message = "no other grid exists"
    return found


def enumerate_(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """Grids modulo symmetry (lex-leaders) by blocking clauses, up to ``limit``."""
    return _models(problem, spec, budget, spec.limit, counting=False)


def count(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """Grids modulo symmetry and raw, exactly, by two methods raced against each other.

    * Projected enumeration of the lex-leaders by blocking clauses (raw from orbit sizes), in
      this process.
    * With ``pyganak``: projected model counting (Ganak) on :func:`counting_cnf`, one count per
      symmetry g of the grids that g maps onto themselves, combined by Burnside's lemma, in a
      worker process.

    The first to finish gives the count and stops the other. Ganak wins where grids are many
    and the formula is small; enumeration (about a thousand grids a second) wins on small
    counts, where Ganak's fixed cost (a tree decomposition of the formula, seconds) dominates.
    Measured on the 5×5 Gridle list neither scales to the full list: the native sum-product is
    the counting method there (docs/word_grid.md).
    """
    if not counting.available():
        found = _models(problem, spec, budget, None, counting=True)
        found.stats["method"] = "enumeration (no pyganak: the `count` extra adds Ganak's model counts)"
        return found
    return _raced_count(problem, spec, budget)


def _raced_count(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    ganak_budget, enum_budget = budget.child(), budget.child()
    ganak: list[Found] = []

    def run_ganak() -> None:
        ganak.append(projected_count(problem, spec, ganak_budget))
        if ganak[0].complete:
            enum_budget.stop("limit")  # the enumeration is not needed any more

    thread = threading.Thread(target=run_ganak, name="ganak-count", daemon=True)
    thread.start()
    try:
        enumerated = _models(problem, spec, enum_budget, None, counting=True)
    finally:
        ganak_budget.stop("limit")  # done, or stopped: the model count either finished or is not needed
        thread.join()
    if ganak and ganak[0].complete:
        return ganak[0]
    if enumerated.complete:
        enumerated.stats["method"] = "enumeration (finished before the projected model count)"
        return enumerated
    enumerated.stats["method"] = "enumeration; the projected model count did not finish either"
    budget.expired()  # records why the run's budget ended (the children saw it, not the run)
    enumerated.stopped = budget.reason or enumerated.stopped
    return enumerated


def projected_count(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """Grids by Ganak's projected model counts of :func:`counting_cnf`, one per symmetry, combined
    by Burnside's lemma (in ``budget.workers`` worker processes, the run's own: a pool, so that a
    count can be killed when ``budget`` ends).

    Raises
    ------
    ImportError
        When ``pyganak`` is not installed.
    """
    pool: counting.CountingPool[int] = counting.CountingPool(partial(counting_cnf, problem), budget,
                                                             workers=budget.workers, chunk=1)
    fixed: dict[str, int] = {}
    clauses = 0
    for counted in pool.counts(range(len(problem.group))):
        fixed[problem.group[counted.job].name] = counted.count
        clauses = max(clauses, counted.clauses)
    stats: dict[str, Any] = {"method": "projected model counting (Ganak), Burnside over the symmetries",
                             **pool.run.stats, "clauses": clauses}
    if not pool.run.complete:
        found = Found(count=None, stats=stats).stop(pool.run.stopped)
        found.message = (f"{'the count was interrupted' if found.stopped == 'interrupted' else 'the count stopped'}"
                         f" after {len(fixed)} of the {len(problem.group)} model counts (one per symmetry): "
                         "no bound to report")
        return found
    total = sum(fixed.values())
    if total % len(problem.group):
        raise AssertionError("Burnside's sum is not a multiple of the group order")  # a bug if ever
    stats |= {"raw_count": fixed["identity"], "fixed_points": fixed}
    return Found(count=total // len(problem.group), stats=stats)


def counting_cnf(problem: GridProblem, g: int = 0) -> counting.Cnf:
    """The CNF whose models projected on its word variables are the grids fixed by symmetry ``g``
    (an index into ``problem.group``; 0, the identity: every grid).

    Built for a model counter rather than a solver: one-hot letters per cell (pairwise), and per
    slot a trie of its candidate words, a variable per trie node (node ↔ parent node ∧ the cell's
    letter; a chosen node needs one of its children's letters next), so every clause is short
    and the formula's primal graph stays narrow (long "some word of the slot" clauses make the
    counter's tree decomposition hopeless). A slot's leaf variables are its word variables:
    exactly one is true in every model, and the projection is on them. Distinct words: two
    slots never both take one word's leaf. Symmetry g: each cell's letter equals its image's.
    An unsatisfiable formula is returned as the empty clause (checked by a SAT solver first).
    """
    fresh = itertools.count(1)  # the formula's variables, numbered in order of creation
    clauses: list[list[int]] = []
    letter = _cell_letters(problem, fresh, clauses)
    words: dict[tuple[int, int], list[int]] = {}
    projection: list[int] = []
    for s in range(len(problem.slots)):
        _slot_trie(problem, s, letter, fresh, clauses, words, projection)
    if problem.distinct:
        for leaves in words.values():
            clauses.extend([-a, -b] for i, a in enumerate(leaves) for b in leaves[i + 1:])
    if g:
        perm = problem.group[g].perm
        for c, onehot in enumerate(letter):
            for code, x in onehot.items():
                y = letter[perm[c]].get(code)
                clauses.append([-x, y] if y is not None else [-x])
    if not _satisfiable(clauses):
        # Ganak takes tens of seconds to refute some of these formulas that CaDiCaL refutes at
        # once: an unsatisfiable one becomes the empty clause, which counts 0 at once
        return [[]], projection
    return clauses, projection


def _cell_letters(problem: GridProblem, fresh: Iterator[int], clauses: list[list[int]]) -> list[dict[int, int]]:
    """Per cell, a variable for each letter some candidate word puts there, exactly one true
    (pairwise at-most-one clauses go into ``clauses``)."""
    used: list[set[int]] = [set() for _ in problem.cells]
    for s, slot in enumerate(problem.slots):
        ws = problem.words[len(slot)]
        for w in problem.candidates[s]:
            for c, ch in zip(slot, ws[w], strict=True):
                used[c].add(problem.alphabet.index[ch])
    letter = [{ch: next(fresh) for ch in sorted(u)} for u in used]
    for onehot in letter:
        lits = list(onehot.values())
        clauses.append(lits)
        clauses.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:])
    return letter


def _slot_trie(problem: GridProblem, s: int, letter: list[dict[int, int]], fresh: Iterator[int],
               clauses: list[list[int]], words: dict[tuple[int, int], list[int]], projection: list[int]) -> None:
    """The trie of slot ``s``'s candidate words, one variable per trie node (node ↔ parent ∧ the
    cell's letter; a chosen node needs one of its children's letters next). Its leaves, the
    slot's word variables, are added to ``projection`` and to ``words`` by (length, word id)."""
    slot = problem.slots[s]
    n = len(slot)
    ws = problem.words[n]
    trie: dict[str, Any] = {}
    for w in problem.candidates[s]:
        node = trie
        for ch in ws[w]:
            node = node.setdefault(ch, {})
        node[""] = w
    stack: list[tuple[dict[str, Any], int, int | None]] = [(trie, 0, None)]
    while stack:
        node, depth, var = stack.pop()
        cell = slot[depth]
        options = []
        for ch, child in node.items():
            if ch == "":
                continue
            x = letter[cell][problem.alphabet.index[ch]]
            options.append(x)
            t = next(fresh)
            clauses.append([-t, x])
            if var is None:
                clauses.append([-x, t])
            else:
                clauses.extend(([-t, var], [-var, -x, t]))
            if depth + 1 == n:
                words.setdefault((n, child[""]), []).append(t)
                projection.append(t)
            else:
                stack.append((child, depth + 1, t))
        clauses.append(options if var is None else [-var, *options])


def _satisfiable(clauses: list[list[int]]) -> bool:
    """Whether the formula has a model (PySAT's CaDiCaL)."""
    if any(not c for c in clauses):
        return False
    from pysat.solvers import Solver

    with Solver(name="cadical153", bootstrap_with=clauses) as solver:
        return bool(solver.solve())


