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

from cpwords.engines import sat as engine
from cpwords.puzzles.letter_boxed.sizes import enumerate_by_size
from cpwords.puzzles.letter_boxed.words import WordTable
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
    out = []
    for row in bc.pick:
        out.extend(i for i, v in enumerate(row) if v in true_vars)
    return out


def _cheapest(table: WordTable, k: int, time_limit: float | None) -> tuple[Status, list[int] | None, dict]:
    """Among answers of exactly k words, one of least total cost.

    ``letters``: unary counters ``("long", p, t)`` (word at p has at least t letters), whose number
    of true literals is the total length, minimised with the same incremental totalizer.
    ``common`` (rareness spans 1 .. 10^7, too wide for unary counters): the k-word answers are
    enumerated with blocking clauses and the cheapest kept.
    """
    bc = build_cnf(table, k, all_used=True, prefix_rule=False)
    if table.rank == "letters":
        longest = max(len(w) for w in table.words)
        longs = [[bc.cnf.var(("long", p, t)) for t in range(1, longest + 1)] for p in range(k)]
        for p in range(k):
            for t in range(1, longest):
                bc.cnf.implies(longs[p][t], longs[p][t - 1])
            for i, w in enumerate(table.words):
                bc.cnf.implies(bc.pick[p][i], longs[p][len(w) - 1])
        # CaDiCaL proves these bounds about twice as fast as Glucose, but cannot be interrupted:
        # it is used only without a time limit.
        solver_name = "cadical153" if time_limit is None else engine.DEFAULT_SOLVER
        outcome, best = engine.minimise_count(bc.cnf, [v for row in longs for v in row], time_limit=time_limit,
                                              solver_name=solver_name)
        answer = _decode(bc, outcome.true_vars) if best is not None else None
        return outcome.status, answer, {"stage2_sat_s": outcome.stats["sat_wall_s"]}
    best_answer: list[list[int]] = []

    def keep_cheapest(chosen: set[int]) -> None:
        answer = _decode(bc, chosen)
        if not best_answer or sum(table.cost[i] for i in answer) < sum(table.cost[i] for i in best_answer[0]):
            best_answer[:] = [answer]

    projection = [v for row in bc.pick for v in row]
    run = engine.enumerate_models(bc.cnf, projection, on_model=keep_cheapest, time_limit=time_limit, keep=False,
                                  solver_name="cadical153" if time_limit is None else engine.DEFAULT_SOLVER)
    stats = {"stage2_sat_s": run.stats["sat_wall_s"], "stage2_answers": run.count}
    return (Status.OPTIMAL if run.complete else Status.FEASIBLE), (best_answer[0] if best_answer else None), stats


def best_answer(spec: Any, table: WordTable) -> tuple[Status, list[int] | None, dict[str, Any]]:
    """Fewest words by increasing K (a CNF of exactly K words for K = 1, 2, ...: the first
    satisfiable K is optimal), then least cost (:func:`_cheapest`).

    Small K models are proved fast; :func:`min_words_by_totalizer` (one CNF with empty positions,
    the number of used positions minimised by an incremental totalizer) gives the same minimum and
    is kept for comparison.
    """
    t0 = time.monotonic()
    stats: dict[str, Any] = {"stage1_s": 0.0}
    answer = None
    for k in range(1, spec.max_words + 1):
        left = None if spec.time_limit is None else spec.time_limit - (time.monotonic() - t0)
        if left is not None and left <= 0:
            return Status.UNKNOWN, None, stats
        bc = build_cnf(table, k, all_used=True, prefix_rule=False)
        outcome = engine.solve(bc.cnf, time_limit=left)
        stats["stage1_s"] = round(stats["stage1_s"] + outcome.stats["sat_wall_s"], 6)
        if outcome.status == Status.UNKNOWN:
            return Status.UNKNOWN, None, stats
        if outcome.status.solved:
            answer = _decode(bc, outcome.true_vars)
            break
    if answer is None:
        return Status.INFEASIBLE, None, stats
    left = None if spec.time_limit is None else max(0.01, spec.time_limit - (time.monotonic() - t0))
    status, cheapest, more = _cheapest(table, len(answer), left)
    stats.update(more)
    if cheapest is None:
        return Status.FEASIBLE, answer, stats
    return (Status.OPTIMAL if status == Status.OPTIMAL else Status.FEASIBLE), cheapest, stats


def min_words_by_totalizer(spec: Any, table: WordTable) -> tuple[Status, int | None]:
    """The fewest words from one CNF with ``max_words`` positions (empties only at the end),
    minimising the used positions incrementally with ``minimise_count``."""
    bc = build_cnf(table, spec.max_words, all_used=False, prefix_rule=False)
    outcome, best_k = engine.minimise_count(bc.cnf, bc.used, time_limit=spec.time_limit)
    return outcome.status, best_k


def _each_size(spec: Any, table: WordTable, on_answer: Any, limit: int | None) -> tuple[bool, dict[int, int], dict]:
    """Enumerate answers of 1..max_words words, one CNF per word count, blocking clauses on the picks."""

    def enumerate_k(k: int, limit: int | None, left: float | None) -> tuple[int, bool]:
        bc = build_cnf(table, k, all_used=True, prefix_rule=True)
        projection = [v for row in bc.pick for v in row]
        callback = None if on_answer is None else (lambda chosen: on_answer(_decode(bc, chosen)))
        run = engine.enumerate_models(bc.cnf, projection, on_model=callback, limit=limit, time_limit=left,
                                      keep=False)
        return run.count, run.complete

    return enumerate_by_size(spec, enumerate_k, limit)


def list_answers(spec: Any, table: WordTable) -> tuple[bool, list[list[int]], dict[str, Any]]:
    """Every answer of at most ``max_words`` words (up to ``limit``), by blocking clauses."""
    answers: list[list[int]] = []
    complete, _, stats = _each_size(spec, table, answers.append, spec.limit)
    return complete, answers, stats


def count_answers(spec: Any, table: WordTable) -> tuple[bool, dict[int, int], dict[str, Any]]:
    """Answers per word count by projected enumeration (exact unless the time limit stops it)."""
    return _each_size(spec, table, None, None)
