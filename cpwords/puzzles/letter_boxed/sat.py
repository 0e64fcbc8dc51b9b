"""SAT (PySAT) model of Letter Boxed: the CP-SAT model written as CNF.

Variables ``("pick", p, i)``: position p holds word i; ``("used", p)``: position p holds a word;
``("ends", p, l)``: the word at p ends with letter l. The word count is found by increasing K (or,
for comparison, minimised incrementally by a totalizer over the ``used`` variables); ties are then
broken by a second stage (see :func:`_cheapest`). Answers of k
words are enumerated with blocking clauses projected on the ``pick`` variables.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from pysat.card import ITotalizer

from cpwords.engines import forked
from cpwords.engines import sat as engine
from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found
from cpwords.engines.minimum import increasing_k
from cpwords.puzzles.letter_boxed.reach import domains_or_none
from cpwords.puzzles.letter_boxed.sizes import enumerate_by_size
from cpwords.puzzles.letter_boxed.words import BoxProblem, WordTable
from cpwords.results import Status

#: The solver of enumeration and counting (incremental, in this process, with callbacks): MiniSat,
#: which answers its interrupt (Glucose 4 ran 2.2 s past a 0.3 s limit on a 12-letter box).
SOLVER = "minisat22"
#: The solver of the fewest words and its tie-break: CaDiCaL, run in a forked child process
#: (:mod:`cpwords.engines.forked`) because it has no interrupt. On an 18-letter box it found a
#: 3-word answer in 2.6 s where MiniSat took 35 s (and overran a 5 s deadline by 28 s, which the
#: child process now also bounds); the hard 15-letter box LRT CPU YOE NHW QIA took 1.6 s against 41 s.
MINIMUM_SOLVER = "cadical153"


@dataclass
class BoxCnf:
    """The CNF and the variables to read an answer from: ``pick[p]`` maps each word that
    position p may hold to its variable."""

    cnf: engine.CnfModel
    pick: list[dict[int, int]]
    used: list[int]

    def pick_vars(self) -> list[int]:
        """Every pick variable (the projection of an enumeration)."""
        return [v for row in self.pick for v in row.values()]


def build_cnf(table: WordTable, positions: int, *, all_used: bool, prefix_rule: bool,
              domains: list[list[int]] | None = None, budget: Budget | None = None) -> BoxCnf:
    """CNF with ``positions`` word slots (see :func:`cpwords.puzzles.letter_boxed.cpsat.build_model`).

    ``domains[p]``: the words position p may hold (:func:`~cpwords.puzzles.letter_boxed.reach.
    position_domains`); every word everywhere when None.
    """
    n, w_count = table.box.n, len(table)
    m = engine.CnfModel(budget)
    if domains is None:
        domains = [list(range(w_count))] * positions
    pick = [{i: m.var(("pick", p, i)) for i in domains[p]} for p in range(positions)]
    used = [m.var(("used", p)) for p in range(positions)]
    for p in range(positions):
        _at_most_one(m, list(pick[p].values()))
        m.equiv_or(used[p], list(pick[p].values()))
        if all_used:
            m.add([used[p]])
        if p + 1 < positions:
            ends = {}
            for letter in {table.first[i] for i in pick[p + 1]}:
                ends[letter] = m.var(("ends", p, letter))
                m.equiv_or(ends[letter], [v for i, v in pick[p].items() if table.last[i] == letter])
            m.implies(used[p + 1], used[p])  # empties only at the end
            for i, v in pick[p + 1].items():
                m.implies(v, ends[table.first[i]])
    for c in range(n):
        m.at_least_one([v for p in range(positions) for i, v in pick[p].items() if table.mask[i] >> c & 1])
    at: dict[int, list[int]] = {}
    for row in pick:
        for i, v in row.items():
            at.setdefault(i, []).append(v)
    for vs in at.values():
        if len(vs) > 1:
            _at_most_one(m, vs)
    if prefix_rule:
        covered: list[int] | None = None
        for p in range(positions - 1):
            now = []
            for c in range(n):
                has = m.new_var()
                m.equiv_or(has, [v for i, v in pick[p].items() if table.mask[i] >> c & 1])
                if covered is not None:
                    both = m.new_var()
                    m.equiv_or(both, [has, covered[c]])
                    has = both
                now.append(has)
            covered = now
            m.add([-used[p + 1], *(-x for x in covered)])
    return BoxCnf(m, pick, used)


def _at_most_one(m: engine.CnfModel, lits: list[int]) -> None:
    """At most one of ``lits``: pairwise when few, else a ladder (``x_i → s_i``, ``s_i → s_{i+1}``,
    ``x_{i+1} → ¬s_i``) written clause by clause, so a big model checks the budget as it grows."""
    if len(lits) <= 6:
        m.at_most_one(lits)
        return
    prev = None
    for x in lits:
        if prev is not None:
            m.add([-x, -prev])
        s = m.new_var()
        m.add([-x, s])
        if prev is not None:
            m.add([-prev, s])
        prev = s


def _decode(bc: BoxCnf, true_vars: set[int]) -> list[int]:
    out: list[int] = []
    for row in bc.pick:
        out.extend(i for i, v in row.items() if v in true_vars)
    return out


def _cheapest(table: WordTable, k: int, budget: Budget, domains: list[list[int]] | None = None, *,
              above_bound: bool = False) -> tuple[Status, list[int] | None, dict[str, Any]]:
    """Among answers of exactly k words, one of least total cost.

    ``letters``: unary counters ``("long", p, t)`` (word at p has at least t letters), whose number
    of true literals is the total length, minimised with the same incremental totalizer.
    ``common`` (rareness spans 1 .. 10^7, too wide for unary counters): the k-word answers are
    enumerated with blocking clauses and the cheapest kept. ``above_bound``: :func:`_bound_cnf`
    was proved unsatisfiable, so no answer has n + k - 1 letters and the count starts one higher.
    """
    bc = build_cnf(table, k, all_used=True, prefix_rule=False, domains=domains, budget=budget)
    solver_name = SOLVER
    if table.rank == "letters":
        longest = max(len(w) for w in table.words)
        longs = [[bc.cnf.var(("long", p, t)) for t in range(1, longest + 1)] for p in range(k)]
        for p in range(k):
            for t in range(1, longest):
                bc.cnf.implies(longs[p][t], longs[p][t - 1])
            for i, v in bc.pick[p].items():
                bc.cnf.implies(v, longs[p][len(table.words[i]) - 1])
        # Written one after another with each join letter merged, the words spell a string that
        # holds every letter: their total length is at least n + k - 1, a bound that ends the
        # descent as soon as it is met (often at once).
        status, true_vars, stats = _minimise_total(bc.cnf, [v for row in longs for v in row],
                                                   table.box.n + k - 1 + (1 if above_bound else 0), budget)
        return status, (_decode(bc, true_vars) if true_vars else None), stats
    best_answer: list[list[int]] = []

    def keep_cheapest(chosen: set[int]) -> None:
        answer = _decode(bc, chosen)
        if not best_answer or sum(table.cost[i] for i in answer) < sum(table.cost[i] for i in best_answer[0]):
            best_answer[:] = [answer]

    run = engine.enumerate_models(bc.cnf, bc.pick_vars(), budget, on_model=keep_cheapest, keep=False,
                                  solver_name=solver_name)
    status = Status.OPTIMAL if run.complete else Status.FEASIBLE
    return status, (best_answer[0] if best_answer else None), run.stats


def _bound_cnf(table: WordTable, k: int, domains: list[list[int]], budget: Budget | None = None) -> BoxCnf | None:
    """The CNF of the answers of k words with n + k - 1 letters in all, the fewest k words can
    have (None when some position has no word without a repeated letter: there is no such answer).

    Such an answer is an exact cover: no word repeats a letter, and each box letter is in one
    word, or in two neighbours when it is their join letter. Variables ``("pick", p, i)``,
    ``("has", p, l)`` (the word at p has letter l) and ``("join", p, l)`` (the words at p and
    p + 1 meet on letter l); picking a word rules out, by unit propagation, every word elsewhere
    that shares one of its letters. CaDiCaL finds such an answer on 18-letter boxes in 3 to 4 s,
    where the length-counting CNF of :func:`_cheapest` did not within 60 s; and since no answer of
    k words has fewer letters, an answer settles the tie-break too.
    """
    n = table.box.n
    cost, mask, first, last = table.cost, table.mask, table.first, table.last
    kept = [[i for i in d if cost[i] == mask[i].bit_count()] for d in domains]
    if any(not d for d in kept):
        return None
    m = engine.CnfModel(budget)
    pick = [{i: m.var(("pick", p, i)) for i in d} for p, d in enumerate(kept)]
    has = [[m.var(("has", p, c)) for c in range(n)] for p in range(k)]
    join = [[m.var(("join", p, c)) for c in range(n)] for p in range(k - 1)]
    for p in range(k):
        m.at_least_one(list(pick[p].values()))
        _at_most_one(m, list(pick[p].values()))
        holders: list[list[int]] = [[] for _ in range(n)]
        for i, x in pick[p].items():
            for c in range(n):
                if mask[i] >> c & 1:
                    m.implies(x, has[p][c])
                    holders[c].append(x)
            if p + 1 < k:
                m.implies(x, join[p][last[i]])
            if p > 0:
                m.implies(x, join[p - 1][first[i]])
        for c in range(n):
            m.add([-has[p][c], *holders[c]])
    for row in join:
        m.at_least_one(row)
        _at_most_one(m, row)
    for c in range(n):
        m.add([has[p][c] for p in range(k)])  # every letter covered
        for p in range(k):
            for q in range(p + 1, k):  # ... once, or twice as the join of neighbours
                m.add([-has[p][c], -has[q][c], *([join[p][c]] if q == p + 1 else [])])
    return BoxCnf(m, pick, [])


def _solve_outcome(cnf: engine.CnfModel, budget: Budget) -> tuple[Status, set[int], dict[str, Any]]:
    """Status, true variables and figures of one CaDiCaL call (what a forked child sends back)."""
    outcome = engine.solve(cnf, budget, solver_name=MINIMUM_SOLVER)
    return outcome.status, outcome.true_vars, outcome.stats


def _minimise_total(cnf: engine.CnfModel, lits: list[int], lower: int,
                    budget: Budget) -> tuple[Status, set[int], dict[str, Any]]:
    """Fewest true ``lits``, known to be at least ``lower``, from the bound up: a call allowing at
    most t = lower true (an incremental totalizer, by assumption), then t + 1, ... until one is
    satisfiable; its answer is the least (every smaller t was proved unsatisfiable). The least is
    often the bound itself, and a tight count prunes each search hard: the hard 15-letter box took
    1.6 s this way against 4.6 s descending from the first answer found (both with CaDiCaL).
    Returns (status, true variables of the best answer, figures)."""
    t0 = time.perf_counter()
    tot = ITotalizer(lits=lits, ubound=len(lits), top_id=cnf.pool.top)
    cnf.pool.occupy(cnf.pool.top + 1, tot.top_id)
    best: set[int] = set()
    calls = 0
    status = Status.UNKNOWN
    with engine.new_solver(cnf, MINIMUM_SOLVER) as solver:
        solver.append_formula(tot.cnf.clauses)
        t = max(0, lower)
        while True:
            calls += 1
            assumptions = [-tot.rhs[t]] if t < len(lits) else []  # at most t true
            answer = engine.run(solver, budget, assumptions, name=MINIMUM_SOLVER)
            if answer is None:
                break
            if answer:
                best = {v for v in solver.get_model() if v > 0}
                status = Status.OPTIMAL
                break
            if not assumptions:
                status = Status.INFEASIBLE
                break
            t += 1
    tot.delete()
    return status, best, {"solver_s": round(time.perf_counter() - t0, 6), "solver_calls": calls}


def min_words(problem: BoxProblem, spec: Any, budget: Budget) -> Found:
    """Fewest words by increasing K (a CNF of exactly K words for K = 1, 2, ...: the first
    satisfiable K is optimal), then least cost (:func:`_cheapest`). Ranked by letters, each K is
    first asked at the bound (:func:`_bound_cnf`, n + K - 1 letters): an answer there is optimal
    in both, and a proof that there is none starts the tie-break one letter higher.

    Small K models are proved fast; :func:`min_words_by_totalizer` (one CNF with empty positions,
    the number of used positions minimised by an incremental totalizer) gives the same minimum and
    is kept for comparison.
    """
    table = problem.candidates
    domains: dict[int, list[list[int]] | None] = {}
    reach_cache: dict[str, Any] = {}
    bound: dict[int, Status] = {}  # k -> how the CNF at the bound n + k - 1 letters ended

    def exactly(k: int, budget: Budget) -> tuple[Status, list[int] | None, dict[str, Any]]:
        try:
            found = domains[k] = domains_or_none(table, k, spec, budget, reach_cache)
            if found is None:
                return Status.INFEASIBLE, None, {}
            stats: dict[str, Any] = {}
            if table.rank == "letters":
                at = _bound_cnf(table, k, found, budget)
                got = (Status.INFEASIBLE, set(), {}) if at is None else forked.call(
                    lambda: _solve_outcome(at.cnf, budget), budget)
                if got is None:
                    return Status.UNKNOWN, None, {}
                bound[k], true_vars, stats = got
                if at is not None and bound[k].solved:
                    return Status.OPTIMAL, _decode(at, true_vars), stats
                if bound[k] is not Status.INFEASIBLE:
                    return bound[k], None, stats
            bc = build_cnf(table, k, all_used=True, prefix_rule=False, domains=found, budget=budget)
        except SearchTimeout:
            return Status.UNKNOWN, None, {}
        # In a child process the deadline holds even when MiniSat is slow to see its interrupt.
        outcome = forked.call(lambda: engine.solve(bc.cnf, budget, solver_name=MINIMUM_SOLVER), budget)
        if outcome is None:
            return Status.UNKNOWN, None, stats
        stats = outcome.stats | {"solver_s": round(stats.get("solver_s", 0.0) + outcome.stats["solver_s"], 6)}
        return outcome.status, (_decode(bc, outcome.true_vars) if outcome.status.solved else None), stats

    first = increasing_k(range(1, spec.max_words + 1), exactly, budget)
    found = Found(stats=dict(first.stats))
    if first.answer is None:
        return found if first.complete else found.stop(first.stopped)
    answer = first.answer
    found.objective = len(answer)
    if bound.get(len(answer), Status.UNKNOWN).solved:
        got: tuple[Status, list[int] | None, dict[str, Any]] | None = (Status.OPTIMAL, answer, {})
        found.stats["tie_break"] = "at the bound"  # no answer of that many words has fewer letters
    else:
        above = bound.get(len(answer)) is Status.INFEASIBLE
        try:
            got = forked.call(lambda: _cheapest(table, len(answer), budget, domains.get(len(answer)),
                                                above_bound=above), budget)
        except SearchTimeout:
            got = None
    status, cheapest, more = got if got is not None else (Status.FEASIBLE, None, {})
    found.stats["solver_s"] = round(found.stats.get("solver_s", 0.0) + more.get("solver_s", 0.0), 6)
    found.answers = [problem.words_of(table, cheapest if cheapest is not None else answer)]
    if status is not Status.OPTIMAL:
        found.stop(budget.reason)  # the fewest words is proved; the tie-break is not
        found.message = ("the time limit was reached: the number of words is proved fewest, "
                         "but a cheaper answer of that length may exist")
    return found


def min_words_by_totalizer(spec: Any, table: WordTable, budget: Budget | None = None) -> tuple[Status, int | None]:
    """The fewest words from one CNF with ``max_words`` positions (empties only at the end),
    minimising the used positions incrementally with ``minimise_count``."""
    bc = build_cnf(table, spec.max_words, all_used=False, prefix_rule=False)
    outcome, best_k = engine.minimise_count(bc.cnf, bc.used, budget or Budget(spec.time_limit),
                                            solver_name=SOLVER)
    return outcome.status, best_k


def _each_size(problem: BoxProblem, spec: Any, on_answer: Any, limit: int | None, budget: Budget) -> Found:
    """Enumerate answers of 1..max_words words, one CNF per word count, blocking clauses on the picks."""
    table = problem.table
    assert table is not None

    def enumerate_k(k: int, limit: int | None, budget: Budget) -> tuple[int, str | None]:
        try:
            domains = domains_or_none(table, k, spec, budget)
            if domains is None:
                return 0, None
            bc = build_cnf(table, k, all_used=True, prefix_rule=True, domains=domains, budget=budget)
        except SearchTimeout:
            return 0, budget.reason or "time_limit"
        callback = None if on_answer is None else (lambda chosen: on_answer(_decode(bc, chosen)))
        run = engine.enumerate_models(bc.cnf, bc.pick_vars(), budget, on_model=callback, limit=limit, keep=False,
                                      solver_name=SOLVER)
        return run.count, run.stopped

    return enumerate_by_size(spec, enumerate_k, limit, budget)


def enumerate_(problem: BoxProblem, spec: Any, budget: Budget) -> Found:
    """Every answer of at most ``max_words`` words (up to ``limit``), by blocking clauses."""
    table = problem.table
    assert table is not None
    answers: list[list[str]] = []
    found = _each_size(problem, spec, lambda indexes: answers.append(problem.words_of(table, indexes)),
                       spec.limit, budget)
    found.answers = answers
    return found


def count(problem: BoxProblem, spec: Any, budget: Budget) -> Found:
    """Answers per word count by projected enumeration (exact unless the budget stops it)."""
    found = _each_size(problem, spec, None, None, budget)
    found.stats["method"] = "enumeration"
    return found
