"""CP-SAT model of Letter Boxed: K word positions, each a word or empty.

Variables (named): ``word_p`` (0 = empty, i + 1 = word i of the table), ``first_p`` / ``last_p``
(letter numbers, n = none) tied to ``word_p`` by one AddAllowedAssignments table, one Boolean
per (position, word) from AddMapDomain. Constraints: empties only at the end (so each answer is
written one way), chaining ``first_{p+1} == last_p``, every letter covered, each word at most once,
and for listing/counting the first k-1 words of a k-word answer not covering every letter.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from cpwords.engines import cpsat as engine
from cpwords.puzzles.letter_boxed.sizes import enumerate_by_size
from cpwords.puzzles.letter_boxed.words import WordTable
from cpwords.results import Status


@dataclass
class BoxModel:
    """A built model and the variables to read an answer from."""

    model: cp_model.CpModel
    word: list[cp_model.IntVar]
    used: list[Any]
    cost: list[cp_model.IntVar]


def build_model(table: WordTable, positions: int, *, all_used: bool, prefix_rule: bool) -> BoxModel:
    """The model with ``positions`` word slots.

    Parameters
    ----------
    all_used: every slot holds a word (an answer of exactly ``positions`` words); otherwise
        trailing slots may be empty.
    prefix_rule: forbid answers whose words before the last already cover every letter (needed
        when listing or counting; a fewest-words answer obeys it anyway).
    """
    n, w_count = table.box.n, len(table)
    m = cp_model.CpModel()
    none = n
    rows = [(i + 1, table.first[i], table.last[i], table.cost[i], table.mask[i].bit_count())
            for i in range(w_count)]
    if not all_used:
        rows.insert(0, (0, none, none, 0, 0))
    costs = sorted({r[3] for r in rows})
    word, first, last, cost, picks, used, distinct = [], [], [], [], [], [], []
    for p in range(positions):
        x = m.NewIntVar(0 if not all_used else 1, w_count, f"word_{p + 1}")
        f = m.NewIntVar(0, n, f"first_{p + 1}")
        e = m.NewIntVar(0, n, f"last_{p + 1}")
        c = m.NewIntVarFromDomain(cp_model.Domain.FromValues(costs), f"cost_{p + 1}")
        d = m.NewIntVar(0, n, f"distinct_letters_{p + 1}")
        m.AddAllowedAssignments([x, f, e, c, d], rows)
        distinct.append(d)
        pick = [m.NewBoolVar(f"pick_{p + 1}_{v}") for v in range(w_count + 1)]
        m.AddMapDomain(x, pick)
        word.append(x), first.append(f), last.append(e), cost.append(c), picks.append(pick)
        used.append(pick[0].Not())
        if all_used:
            m.Add(pick[0] == 0)
    for p in range(positions - 1):
        m.AddImplication(used[p + 1], used[p])  # empties only at the end
        m.Add(first[p + 1] == last[p]).OnlyEnforceIf(used[p + 1])
    # Redundant: the words' distinct letters add up to at least n. Gives the solver a lower bound
    # on the number of words (e.g. 12 letters, at most 8 distinct in a word: 2 words or more).
    m.Add(sum(distinct) >= n)
    containing = [[i for i in range(w_count) if table.mask[i] >> c & 1] for c in range(n)]
    for c in range(n):
        m.AddBoolOr([picks[p][i + 1] for p in range(positions) for i in containing[c]])
    for i in range(w_count):
        m.AddAtMostOne(picks[p][i + 1] for p in range(positions))
    if prefix_rule:
        covered = None
        for p in range(positions - 1):
            has = []
            for c in range(n):
                h = m.NewBoolVar(f"covers_{p + 1}_{table.box.letters[c]}")
                m.AddMaxEquality(h, [picks[p][i + 1] for i in containing[c]] or [m.NewConstant(0)])
                if covered is not None:
                    both = m.NewBoolVar(f"covered_{p + 1}_{table.box.letters[c]}")
                    m.AddMaxEquality(both, [h, covered[c]])
                    h = both
                has.append(h)
            covered = has
            # A later word is allowed only while some letter is still uncovered.
            m.AddBoolOr([x.Not() for x in covered]).OnlyEnforceIf(used[p + 1])
    return BoxModel(m, word, used, cost)


def _solve(model: cp_model.CpModel, spec: Any, time_limit: float | None) -> engine.Outcome:
    """engine.solve, with probing presolve off: on these models it costs more than it saves
    (about 2x faster to the proved minimum on daily puzzles)."""
    return engine.solve(model, time_limit=time_limit, workers=spec.workers, seed=spec.seed,
                        parameters={"cp_model_probing_level": 0})


def _read(outcome: engine.Outcome, bm: BoxModel) -> list[int]:
    return [outcome.value(x) - 1 for x in bm.word if outcome.value(x) > 0]


def best_answer(spec: Any, table: WordTable) -> tuple[Status, list[int] | None, dict[str, Any]]:
    """Stage 1 finds the fewest words by increasing K (a model of exactly K words for K = 1, 2, ...;
    the first feasible K is optimal since every smaller K was proved infeasible); stage 2 fixes
    that count and minimises the total cost, hinted with the stage-1 answer.

    Measured on daily puzzles, this is several times faster than one model whose objective is the
    number of used positions (:func:`min_words_by_objective`, kept for comparison), because each
    small model is proved quickly while the objective model must rule out all its empty patterns.
    """
    t0 = time.monotonic()
    stats: dict[str, Any] = {"stage1_s": 0.0, "conflicts": 0}
    answer = None
    for k in range(1, spec.max_words + 1):
        left = None if spec.time_limit is None else spec.time_limit - (time.monotonic() - t0)
        if left is not None and left <= 0:
            return Status.UNKNOWN, None, stats
        bm = build_model(table, k, all_used=True, prefix_rule=False)
        outcome = _solve(bm.model, spec, left)
        stats["stage1_s"] = round(stats["stage1_s"] + outcome.stats["solver_wall_s"], 6)
        stats["conflicts"] += outcome.stats["conflicts"]
        if outcome.status == Status.UNKNOWN:
            return Status.UNKNOWN, None, stats
        if outcome.status.solved:
            answer = _read(outcome, bm)
            break
    if answer is None:
        return Status.INFEASIBLE, None, stats
    left = None if spec.time_limit is None else max(0.01, spec.time_limit - (time.monotonic() - t0))
    bm2 = build_model(table, len(answer), all_used=True, prefix_rule=False)
    for x, i in zip(bm2.word, answer, strict=True):
        bm2.model.AddHint(x, i + 1)
    bm2.model.Minimize(sum(bm2.cost))
    second = _solve(bm2.model, spec, left)
    stats["stage2_s"] = second.stats["solver_wall_s"]
    if not second.status.solved:
        return Status.FEASIBLE, answer, stats
    return second.status, _read(second, bm2), stats


def min_words_by_objective(spec: Any, table: WordTable) -> tuple[Status, int | None]:
    """The fewest words from one model: ``max_words`` positions, empties only at the end, objective
    = number of used positions. Same optimum as :func:`best_answer` stage 1 (tests and benchmark)."""
    bm = build_model(table, spec.max_words, all_used=False, prefix_rule=False)
    bm.model.Minimize(sum(bm.used))
    outcome = _solve(bm.model, spec, spec.time_limit)
    return outcome.status, (int(outcome.objective) if outcome.objective is not None else None)


def _each_size(spec: Any, table: WordTable, on_answer: Any, limit: int | None) -> tuple[bool, dict[int, int], dict]:
    """Enumerate answers of 1..max_words words, one model per word count."""

    def enumerate_k(k: int, limit: int | None, left: float | None) -> tuple[int, bool]:
        bm = build_model(table, k, all_used=True, prefix_rule=True)
        run = engine.enumerate_solutions(bm.model, bm.word, on_solution=on_answer, limit=limit,
                                         time_limit=left, seed=spec.seed, keep=False)
        return run.count, run.complete

    return enumerate_by_size(spec, enumerate_k, limit)


def list_answers(spec: Any, table: WordTable) -> tuple[bool, list[list[int]], dict[str, Any]]:
    """Every answer of at most ``max_words`` words (up to ``limit``), by solution callbacks."""
    answers: list[list[int]] = []
    complete, _, stats = _each_size(spec, table, lambda values: answers.append([v - 1 for v in values]),
                                    spec.limit)
    return complete, answers, stats


def count_answers(spec: Any, table: WordTable) -> tuple[bool, dict[int, int], dict[str, Any]]:
    """Answers per word count, by enumeration (exact unless the time limit stops it)."""
    return _each_size(spec, table, None, None)
