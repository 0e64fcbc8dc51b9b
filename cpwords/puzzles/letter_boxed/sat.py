"""SAT (PySAT) model of Letter Boxed: the CP-SAT model written as CNF.

Variables ``("pick", p, i)``: position p holds word i; ``("used", p)``: position p holds a word;
``("ends", p, l)``: the word at p ends with letter l. The word count is found by increasing K (or,
for comparison, minimised incrementally by a totalizer over the ``used`` variables); ties are then
broken by a second stage (see :func:`_cheapest`). Answers of k
words are enumerated with blocking clauses projected on the ``pick`` variables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cpwords.engines import sat as engine
from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.engines.minimum import increasing_k
from cpwords.puzzles.letter_boxed.sizes import enumerate_by_size
from cpwords.puzzles.letter_boxed.words import BoxProblem, WordTable
from cpwords.results import Status


@dataclass
class BoxCnf:
    """The CNF and the variables to read an answer from."""

    cnf: engine.CnfModel
    pick: list[list[int]]
    used: list[int]


def build_cnf(table: WordTable, positions: int, *, all_used: bool, prefix_rule: bool) -> BoxCnf:
    """CNF with ``positions`` word slots (see :func:`cpwords.puzzles.letter_boxed.cpsat.build_model`)."""
    n, w_count = table.box.n, len(table)
    m = engine.CnfModel()
    pick = [[m.var(("pick", p, i)) for i in range(w_count)] for p in range(positions)]
    used = [m.var(("used", p)) for p in range(positions)]
    for p in range(positions):
        m.at_most_one(pick[p])
        m.equiv_or(used[p], pick[p])
        if all_used:
            m.add([used[p]])
        ends = [m.var(("ends", p, letter)) for letter in range(n)]
        for letter in range(n):
            m.equiv_or(ends[letter], [pick[p][i] for i in range(w_count) if table.last[i] == letter])
        if p + 1 < positions:
            m.implies(used[p + 1], used[p])  # empties only at the end
            for i in range(w_count):
                m.implies(m.var(("pick", p + 1, i)), ends[table.first[i]])
    containing = [[i for i in range(w_count) if table.mask[i] >> c & 1] for c in range(n)]
    for c in range(n):
        m.at_least_one([pick[p][i] for p in range(positions) for i in containing[c]])
    for i in range(w_count):
        m.at_most_one([pick[p][i] for p in range(positions)])
    if prefix_rule:
        covered: list[int] | None = None
        for p in range(positions - 1):
            now = []
            for c in range(n):
                has = m.new_var()
                m.equiv_or(has, [pick[p][i] for i in containing[c]])
                if covered is not None:
                    both = m.new_var()
                    m.equiv_or(both, [has, covered[c]])
                    has = both
                now.append(has)
            covered = now
            m.add([-used[p + 1], *(-x for x in covered)])
    return BoxCnf(m, pick, used)


def _decode(bc: BoxCnf, true_vars: set[int]) -> list[int]:
    out: list[int] = []
    for row in bc.pick:
        out.extend(i for i, v in enumerate(row) if v in true_vars)
    return out


def _cheapest(table: WordTable, k: int, budget: Budget) -> tuple[Status, list[int] | None, dict[str, Any]]:
    """Among answers of exactly k words, one of least total cost.

    ``letters``: unary counters ``("long", p, t)`` (word at p has at least t letters), whose number
    of true literals is the total length, minimised with the same incremental totalizer.
    ``common`` (rareness spans 1 .. 10^7, too wide for unary counters): the k-word answers are
    enumerated with blocking clauses and the cheapest kept.
    """
    bc = build_cnf(table, k, all_used=True, prefix_rule=False)
    # CaDiCaL proves these bounds about twice as fast as Glucose but cannot be interrupted: it is
    # used only when the run has no deadline.
    solver_name = "cadical153" if not budget.limited else engine.DEFAULT_SOLVER
    if table.rank == "letters":
        longest = max(len(w) for w in table.words)
        longs = [[bc.cnf.var(("long", p, t)) for t in range(1, longest + 1)] for p in range(k)]
        for p in range(k):
            for t in range(1, longest):
                bc.cnf.implies(longs[p][t], longs[p][t - 1])
            for i, w in enumerate(table.words):
                bc.cnf.implies(bc.pick[p][i], longs[p][len(w) - 1])
        outcome, best = engine.minimise_count(bc.cnf, [v for row in longs for v in row], budget,
                                              solver_name=solver_name)
        answer = _decode(bc, outcome.true_vars) if best is not None else None
        return outcome.status, answer, outcome.stats
    best_answer: list[list[int]] = []

    def keep_cheapest(chosen: set[int]) -> None:
        answer = _decode(bc, chosen)
        if not best_answer or sum(table.cost[i] for i in answer) < sum(table.cost[i] for i in best_answer[0]):
            best_answer[:] = [answer]

    projection = [v for row in bc.pick for v in row]
    run = engine.enumerate_models(bc.cnf, projection, budget, on_model=keep_cheapest, keep=False,
                                  solver_name=solver_name)
    status = Status.OPTIMAL if run.complete else Status.FEASIBLE
    return status, (best_answer[0] if best_answer else None), run.stats


def min_words(problem: BoxProblem, spec: Any, budget: Budget) -> Found:
    """Fewest words by increasing K (a CNF of exactly K words for K = 1, 2, ...: the first
    satisfiable K is optimal), then least cost (:func:`_cheapest`).

    Small K models are proved fast; :func:`min_words_by_totalizer` (one CNF with empty positions,
    the number of used positions minimised by an incremental totalizer) gives the same minimum and
    is kept for comparison.
    """
    table = problem.candidates

    def exactly(k: int, budget: Budget) -> tuple[Status, list[int] | None, dict[str, Any]]:
        bc = build_cnf(table, k, all_used=True, prefix_rule=False)
        outcome = engine.solve(bc.cnf, budget)
        return outcome.status, (_decode(bc, outcome.true_vars) if outcome.status.solved else None), outcome.stats

    first = increasing_k(range(1, spec.max_words + 1), exactly, budget)
    found = Found(stats=dict(first.stats))
    if first.answer is None:
        return found if first.complete else found.stop(first.stopped)
    answer = first.answer
    found.objective = len(answer)
    status, cheapest, more = _cheapest(table, len(answer), budget)
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
    outcome, best_k = engine.minimise_count(bc.cnf, bc.used, budget or Budget(spec.time_limit))
    return outcome.status, best_k


def _each_size(problem: BoxProblem, spec: Any, on_answer: Any, limit: int | None, budget: Budget) -> Found:
    """Enumerate answers of 1..max_words words, one CNF per word count, blocking clauses on the picks."""
    table = problem.table
    assert table is not None

    def enumerate_k(k: int, limit: int | None, budget: Budget) -> tuple[int, str | None]:
        bc = build_cnf(table, k, all_used=True, prefix_rule=True)
        projection = [v for row in bc.pick for v in row]
        callback = None if on_answer is None else (lambda chosen: on_answer(_decode(bc, chosen)))
        run = engine.enumerate_models(bc.cnf, projection, budget, on_model=callback, limit=limit, keep=False)
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
