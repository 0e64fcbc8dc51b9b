"""SAT (PySAT) model of Letter Boxed: the CP-SAT model written as CNF.

Variables ``("pick", p, i)``: position p holds word i; ``("used", p)``: position p holds a word;
``("ends", p, l)``: the word at p ends with letter l. The word count is found by increasing K (or,
for comparison, minimised incrementally by a totalizer over the ``used`` variables); ties are then
broken by a second stage (see :func:`_cheapest`). Answers of k words are enumerated with
blocking clauses projected on the ``pick`` variables. The loops over K are shared with the CP-SAT
engine (:mod:`~cpwords.puzzles.letter_boxed.sizes`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from cpwords.engines import forked
from cpwords.engines import sat as engine
from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.cnf import CnfModel
from cpwords.engines.found import Found
from cpwords.engines.task import TaskFunction
from cpwords.puzzles.letter_boxed.sizes import OnAnswer, Sizes, answers_by_size, fewest_words
from cpwords.puzzles.letter_boxed.spec import LetterBoxedSpec
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

    cnf: CnfModel
    pick: list[dict[int, int]]
    used: list[int]

    def pick_vars(self) -> list[int]:
        """Every pick variable (the projection of an enumeration)."""
        return [v for row in self.pick for v in row.values()]


def build_cnf(table: WordTable, positions: int, *, all_used: bool, prefix_rule: bool,
              domains: list[list[int]] | None = None, budget: Budget | None = None) -> BoxCnf:
    """CNF with ``positions`` word slots (see :func:`cpwords.puzzles.letter_boxed.cpsat_models.build_model`).

    ``domains[p]``: the words position p may hold (:func:`~cpwords.puzzles.letter_boxed.reach.
    position_domains`); every word everywhere when None.
    """
    n, w_count = table.box.n, len(table)
    m = CnfModel(budget)
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
    _each_word_once(m, pick)
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


def _each_word_once(m: CnfModel, pick: list[dict[int, int]]) -> None:
    """No word at two positions: at most one of each word's pick variables."""
    at: dict[int, list[int]] = {}
    for row in pick:
        for i, v in row.items():
            at.setdefault(i, []).append(v)
    for vs in at.values():
        if len(vs) > 1:
            _at_most_one(m, vs)


def _at_most_one(m: CnfModel, lits: list[int]) -> None:
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
              above_bound: bool = False, upper: int | None = None) -> tuple[Status, list[int] | None, dict[str, Any]]:
    """Among answers of exactly k words, one of least total cost.

    ``letters``: the answers of k words have at least n + k - 1 letters; the cover CNF
    (:func:`_cover_cnf`) is asked for an answer with at most s letters of excess over that, for
    s = 0, 1, ... below ``upper`` (the total of an answer known already) minus the bound: the first
    satisfiable s gives the least total. None as the answer with status ``optimal``: no answer
    is cheaper than ``upper``. ``above_bound``: s = 0 was proved unsatisfiable already.
    ``common`` (rareness spans 1 .. 10^7, too wide for unary counters): the k-word answers are
    enumerated with blocking clauses and the cheapest kept.
    """
    if table.rank == "letters":
        assert domains is not None and upper is not None
        bound, t0, calls = table.box.n + k - 1, time.perf_counter(), 0
        for slack in range(1 if above_bound else 0, upper - bound):
            cover = _cover_cnf(table, k, domains, slack, budget)
            if cover is None:
                continue  # no word fits some position with this excess: proved impossible
            calls += 1
            outcome = engine.solve(cover.cnf, budget, solver_name=MINIMUM_SOLVER)
            stats = {"solver_s": round(time.perf_counter() - t0, 6), "solver_calls": calls}
            if outcome.status.solved:
                return Status.OPTIMAL, _decode(cover, outcome.true_vars), stats
            if outcome.status is not Status.INFEASIBLE:
                return Status.FEASIBLE, None, stats
        return Status.OPTIMAL, None, {"solver_s": round(time.perf_counter() - t0, 6), "solver_calls": calls}
    bc = build_cnf(table, k, all_used=True, prefix_rule=False, domains=domains, budget=budget)
    solver_name = SOLVER
    best_answer: list[list[int]] = []

    def keep_cheapest(chosen: set[int]) -> None:
        answer = _decode(bc, chosen)
        if not best_answer or sum(table.cost[i] for i in answer) < sum(table.cost[i] for i in best_answer[0]):
            best_answer[:] = [answer]

    run = engine.enumerate_models(bc.cnf, bc.pick_vars(), budget, on_model=keep_cheapest, keep=False,
                                  solver_name=solver_name)
    status = Status.OPTIMAL if run.complete else Status.FEASIBLE
    return status, (best_answer[0] if best_answer else None), run.stats


def _cover_cnf(table: WordTable, k: int, domains: list[list[int]], slack: int,
               budget: Budget | None = None) -> BoxCnf | None:
    """The CNF of the answers of k words with at most n + k - 1 + ``slack`` letters in all (None
    when some position has no word that fits: there is no such answer).

    k words covering n letters have at least n + k - 1 letters: each letter is in some word, each
    join letter in two neighbours. The rest is *excess*: a word's repeated letters, and each word
    holding a letter an earlier word holds too, unless the two are neighbours joined on it (the
    same count as :func:`cpwords.puzzles.letter_boxed.cpsat_models.cover_model`). Variables
    ``("pick", p, i)``, ``("has", p, l)`` (the word at p has letter l) and ``("join", p, l)``
    (the words at p and p + 1 meet on letter l). Without excess, a letter may be in two words
    only as their join, pair by pair: picking a word rules out, by unit propagation, every word
    elsewhere that shares one of its letters. With excess, ``("excess", p, l)`` marks a letter
    seen before, ``("repeats", p, r)`` a word with r or more repeated letters, and at most
    ``slack`` of them are true (a sequential counter). CaDiCaL answers the no-excess CNF on
    18-letter boxes in 3 to 4 s, where a CNF counting the word lengths took more than 60 s.
    """
    n, cost, mask = table.box.n, table.cost, table.mask
    kept = [[i for i in d if cost[i] - mask[i].bit_count() <= slack] for d in domains]
    if any(not d for d in kept):
        return None
    m = CnfModel(budget)
    pick = [{i: m.var(("pick", p, i)) for i in d} for p, d in enumerate(kept)]
    has = [[m.var(("has", p, c)) for c in range(n)] for p in range(k)]
    join = [[m.var(("join", p, c)) for c in range(n)] for p in range(k - 1)]
    excess: list[int] = []
    for p in range(k):
        excess += _cover_position(m, table, p, pick[p], has[p], join, slack)
    for row in join:
        m.at_least_one(row)
        _at_most_one(m, row)
    for c in range(n):
        m.add([has[p][c] for p in range(k)])  # every letter covered
        excess += _letter_excess(m, [row[c] for row in has], [row[c] for row in join], slack, c)
    if k > 1:  # ... and not already by the words before the last (the answer would end there)
        late = [m.var(("only_last", c)) for c in range(n)]
        for c in range(n):
            for p in range(k - 1):
                m.add([-late[c], -has[p][c]])
        m.add(late)
    if slack > 0:
        m.at_most_k(excess, slack)
        _each_word_once(m, pick)  # (without excess a second use is impossible anyway)
    return BoxCnf(m, pick, [])


def _cover_position(m: CnfModel, table: WordTable, p: int, pick: dict[int, int], has: list[int],
                    join: list[list[int]], slack: int) -> list[int]:
    """Position p's clauses in :func:`_cover_cnf`: one word of ``pick``, the letters it has
    (``has``), the joins with its neighbours; returns the variables counting its repeated letters."""
    n, k = table.box.n, len(join) + 1
    cost, mask, first, last = table.cost, table.mask, table.first, table.last
    m.at_least_one(list(pick.values()))
    _at_most_one(m, list(pick.values()))
    holders: list[list[int]] = [[] for _ in range(n)]
    repeats = [m.var(("repeats", p, r)) for r in range(1, slack + 1)]
    for i, x in pick.items():
        for c in range(n):
            if mask[i] >> c & 1:
                m.implies(x, has[c])
                holders[c].append(x)
        if p + 1 < k:
            m.implies(x, join[p][last[i]])
        if p > 0:
            m.implies(x, join[p - 1][first[i]])
        for r in range(cost[i] - mask[i].bit_count()):
            m.implies(x, repeats[r])
    for c in range(n):
        m.add([-has[c], *holders[c]])
    return repeats


def _letter_excess(m: CnfModel, has: list[int], join: list[int], slack: int, letter: int) -> list[int]:
    """One letter's clauses in :func:`_cover_cnf` (``has[p]``: the word at p has it; ``join[p]``:
    the words at p and p + 1 meet on it): without excess, no two words have it unless they are
    neighbours joined on it; with excess, the variables marking each word that has it after an
    earlier word did (not as their join), returned to be counted."""
    k = len(has)
    if slack == 0:
        for p in range(k):
            for q in range(p + 1, k):
                m.add([-has[p], -has[q], *([join[p]] if q == p + 1 else [])])
        return []
    excess = []
    seen = has[0]  # some word before p has the letter
    for p in range(1, k):
        extra = m.var(("excess", p, letter))
        m.add([-has[p], -seen, join[p - 1], extra])
        excess.append(extra)
        if p + 1 < k:
            now = m.var(("seen", p + 1, letter))
            m.implies(seen, now)
            m.implies(has[p], now)
            seen = now
    return excess


def _solve_outcome(cnf: CnfModel, budget: Budget) -> tuple[Status, set[int], dict[str, Any]]:
    """Status, true variables and figures of one CaDiCaL call (what a forked child sends back)."""
    outcome = engine.solve(cnf, budget, solver_name=MINIMUM_SOLVER)
    return outcome.status, outcome.true_vars, outcome.stats


def min_words(problem: BoxProblem, spec: LetterBoxedSpec, budget: Budget) -> Found:
    """Fewest words by increasing K (a CNF of exactly K words for K = 1, 2, ...: the first
    satisfiable K is optimal), then least cost (:func:`_cheapest`), by
    :func:`~cpwords.puzzles.letter_boxed.sizes.fewest_words`. Ranked by letters, each K is first
    asked at the bound (:func:`_cover_cnf` without excess, n + K - 1 letters): an answer there is
    optimal in both, and a proof that there is none starts the tie-break one letter higher.

    Small K models are proved fast; :func:`min_words_by_totalizer` (one CNF with empty positions,
    the number of used positions minimised by an incremental totalizer) gives the same minimum and
    is kept for comparison.
    """
    return fewest_words(problem, spec, budget, _exactly, _tie_break)


def _exactly(sizes: Sizes, k: int, budget: Budget) -> tuple[Status, list[int] | None, dict[str, Any]]:
    """An answer of exactly k words, or why there is none: at the bound first when ranked by
    letters, then the CNF of k words, solved in a child process."""
    table = sizes.table
    stats: dict[str, Any] = {}
    try:
        domains = sizes.domains_of(k, budget)
        if domains is None:
            return Status.INFEASIBLE, None, {}
        if table.rank == "letters":
            status, answer, stats = _at_the_bound(sizes, k, domains, budget)
            if status is not Status.INFEASIBLE:
                return status, answer, stats
        bc = build_cnf(table, k, all_used=True, prefix_rule=False, domains=domains, budget=budget)
    except SearchTimeout:
        return Status.UNKNOWN, None, {}
    # In a child process the deadline holds even when MiniSat is slow to see its interrupt.
    outcome = forked.call(lambda: engine.solve(bc.cnf, budget, solver_name=MINIMUM_SOLVER), budget)
    if outcome is None:
        return Status.UNKNOWN, None, stats
    stats = outcome.stats | {"solver_s": round(stats.get("solver_s", 0.0) + outcome.stats["solver_s"], 6)}
    return outcome.status, (_decode(bc, outcome.true_vars) if outcome.status.solved else None), stats


def _at_the_bound(sizes: Sizes, k: int, domains: list[list[int]],
                  budget: Budget) -> tuple[Status, list[int] | None, dict[str, Any]]:
    """An answer of k words with n + k - 1 letters (the fewest; ``optimal``), ``infeasible`` when
    there is none (answers with more letters may exist), or ``unknown``; ``sizes.bound[k]`` says
    how the CNF at the bound ended."""
    at = _cover_cnf(sizes.table, k, domains, 0, budget)
    got = (Status.INFEASIBLE, set(), {}) if at is None else forked.call(
        lambda: _solve_outcome(at.cnf, budget), budget)
    if got is None:
        return Status.UNKNOWN, None, {}
    sizes.bound[k], true_vars, stats = got
    if at is not None and sizes.bound[k].solved:
        return Status.OPTIMAL, _decode(at, true_vars), stats
    return sizes.bound[k], None, stats


def _tie_break(sizes: Sizes, answer: list[int], budget: Budget,
               stats: dict[str, Any]) -> tuple[Status, list[int] | None]:
    """A cheapest answer of ``len(answer)`` words (:func:`_cheapest`, in a child process)."""
    table, k = sizes.table, len(answer)
    above = sizes.bound.get(k) is Status.INFEASIBLE
    try:
        got = forked.call(lambda: _cheapest(table, k, budget, sizes.domains.get(k), above_bound=above,
                                            upper=sum(table.cost[i] for i in answer)), budget)
    except SearchTimeout:
        got = None
    status, cheapest, more = got if got is not None else (Status.FEASIBLE, None, {})
    stats["solver_s"] = round(stats.get("solver_s", 0.0) + more.get("solver_s", 0.0), 6)
    return status, cheapest


def min_words_by_totalizer(spec: LetterBoxedSpec, table: WordTable, budget: Budget | None = None) -> tuple[Status, int | None]:
    """The fewest words from one CNF with ``max_words`` positions (empties only at the end),
    minimising the used positions incrementally with ``minimise_count``."""
    bc = build_cnf(table, spec.max_words, all_used=False, prefix_rule=False)
    outcome, best_k = engine.minimise_count(bc.cnf, bc.used, budget or Budget(spec.time_limit),
                                            solver_name=SOLVER)
    return outcome.status, best_k


def _enumerate_cnf(bc: BoxCnf, on_answer: OnAnswer | None, limit: int | None, budget: Budget) -> tuple[int, str | None]:
    """The answers of one CNF, by blocking clauses on the picks: how many, and why it stopped early."""
    callback = None if on_answer is None else (lambda chosen: on_answer(_decode(bc, chosen)))
    run = engine.enumerate_models(bc.cnf, bc.pick_vars(), budget, on_model=callback, limit=limit, keep=False,
                                  solver_name=SOLVER)
    return run.count, run.stopped


def _build_listing_cnf(table: WordTable, k: int, domains: list[list[int]], budget: Budget) -> BoxCnf:
    return build_cnf(table, k, all_used=True, prefix_rule=True, domains=domains, budget=budget)


def enumerate_(problem: BoxProblem, spec: LetterBoxedSpec, budget: Budget) -> Found:
    """Every answer of at most ``max_words`` words (up to ``limit``), by blocking clauses."""
    return answers_by_size(problem, spec, budget, listing=True, build=_build_listing_cnf,
                           enumerate_model=_enumerate_cnf)


def count(problem: BoxProblem, spec: LetterBoxedSpec, budget: Budget) -> Found:
    """Answers per word count by projected enumeration (exact unless the budget stops it)."""
    return answers_by_size(problem, spec, budget, listing=False, build=_build_listing_cnf,
                           enumerate_model=_enumerate_cnf)


#: This engine's tasks, each checked against the task contract (the capability table names them).
TASKS: tuple[TaskFunction[BoxProblem, LetterBoxedSpec], ...] = (min_words, enumerate_, count)
