"""CP-SAT model of Letter Boxed: K word positions, each a word or empty.

Variables (named): ``word_p`` (0 = empty, i + 1 = word i of the table), ``first_p`` / ``last_p``
(letter numbers, n = none) tied to ``word_p`` by one add_allowed_assignments table, one Boolean
per (position, word) from add_map_domain. Constraints: empties only at the end (so each answer is
written one way), chaining ``first_{p+1} == last_p``, every letter covered, each word at most once,
and for listing/counting the first k-1 words of a k-word answer not covering every letter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from cpwords.engines import cpsat as engine
from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import SOLVER, Found
from cpwords.engines.minimum import increasing_k
from cpwords.engines.outcome import Outcome
from cpwords.puzzles.letter_boxed.answers import WordRows
from cpwords.puzzles.letter_boxed.reach import domains_or_none
from cpwords.puzzles.letter_boxed.sizes import enumerate_by_size
from cpwords.puzzles.letter_boxed.words import BoxProblem, WordTable
from cpwords.results import Status


@dataclass
class BoxModel:
    """A built model and the variables to read an answer from."""

    model: cp_model.CpModel
    word: list[cp_model.IntVar]
    used: list[Any]
    cost: list[cp_model.IntVar]
    distinct: list[cp_model.IntVar]


def build_model(table: WordTable, positions: int, *, all_used: bool, prefix_rule: bool,
                domains: list[list[int]] | None = None) -> BoxModel:
    """The model with ``positions`` word slots.

    Parameters
    ----------
    all_used: every slot holds a word (an answer of exactly ``positions`` words); otherwise
        trailing slots may be empty.
    prefix_rule: forbid answers whose words before the last already cover every letter (needed
        when listing or counting; a fewest-words answer obeys it anyway).
    domains: ``domains[p]`` the words slot p may hold (:func:`~cpwords.puzzles.letter_boxed.reach.
        position_domains`); every word in every slot when None.
    """
    n, w_count = table.box.n, len(table)
    m = cp_model.CpModel()
    none = n
    if domains is None:
        domains = [list(range(w_count))] * positions
    costs = sorted({table.cost[i] for d in domains for i in d} | ({0} if not all_used else set()))
    word, first, last, cost, picks, used, distinct = [], [], [], [], [], [], []
    for p in range(positions):
        rows = [(i + 1, table.first[i], table.last[i], table.cost[i], table.mask[i].bit_count()) for i in domains[p]]
        if not all_used:
            rows.insert(0, (0, none, none, 0, 0))
        x = m.new_int_var_from_domain(cp_model.Domain.from_values([r[0] for r in rows]), f"word_{p + 1}")
        f = m.new_int_var(0, n, f"first_{p + 1}")
        e = m.new_int_var(0, n, f"last_{p + 1}")
        c = m.new_int_var_from_domain(cp_model.Domain.from_values(costs), f"cost_{p + 1}")
        d = m.new_int_var(0, n, f"distinct_letters_{p + 1}")
        m.add_allowed_assignments([x, f, e, c, d], rows)
        distinct.append(d)
        pick = {r[0] - 1: m.new_bool_var(f"pick_{p + 1}_{r[0]}") for r in rows}
        m.add_exactly_one(pick.values())
        m.add(x == sum((i + 1) * b for i, b in pick.items()))
        word.append(x)
        first.append(f)
        last.append(e)
        cost.append(c)
        picks.append(pick)
        if -1 in pick:
            used.append(pick[-1].Not())
        else:
            always = m.new_bool_var(f"used_{p + 1}")
            m.add(always == 1)
            used.append(always)
    for p in range(positions - 1):
        m.add_implication(used[p + 1], used[p])  # empties only at the end
        m.add(first[p + 1] == last[p]).only_enforce_if(used[p + 1])
    # Redundant: the words' distinct letters add up to at least n. Gives the solver a lower bound
    # on the number of words (e.g. 12 letters, at most 8 distinct in a word: 2 words or more).
    m.add(sum(distinct) >= n)
    for letter in range(n):
        m.add_bool_or([b for p in range(positions) for i, b in picks[p].items() if i >= 0 and table.mask[i] >> letter & 1])
    _each_word_once(m, picks)
    if prefix_rule:
        covered = None
        for p in range(positions - 1):
            has = []
            for letter in range(n):
                h = m.new_bool_var(f"covers_{p + 1}_{table.box.letters[letter]}")
                m.add_max_equality(h, [b for i, b in picks[p].items() if i >= 0 and table.mask[i] >> letter & 1]
                                   or [m.new_constant(0)])
                if covered is not None:
                    both = m.new_bool_var(f"covered_{p + 1}_{table.box.letters[letter]}")
                    m.add_max_equality(both, [h, covered[letter]])
                    h = both
                has.append(h)
            covered = has
            # A later word is allowed only while some letter is still uncovered.
            m.add_bool_or([x.Not() for x in covered]).only_enforce_if(used[p + 1])
    return BoxModel(m, word, used, cost, distinct)


def _each_word_once(m: cp_model.CpModel, picks: list[dict[int, Any]]) -> None:
    """No word at two positions: at most one of each word's Booleans (key -1, an empty slot, aside)."""
    at: dict[int, list[Any]] = {}
    for pick in picks:
        for i, b in pick.items():
            if i >= 0:
                at.setdefault(i, []).append(b)
    for bs in at.values():
        if len(bs) > 1:
            m.add_at_most_one(bs)


def _solve(model: cp_model.CpModel, spec: Any, budget: Budget, *, one_worker: bool = False) -> Outcome:
    """engine.solve, with probing presolve off: on these models it costs more than it saves
    (about 2x faster to the proved minimum on daily puzzles).

    ``one_worker``: one search worker unless the spec sets ``workers``. For the cover models with
    a bound on the excess one worker was as fast or faster on 18-letter boxes (NBV SOG UCT HIA
    YLW DRE at one letter of excess: 4.5-4.7 s against 7.7-14.5 s with two, three seeds each;
    other boxes and refutations alike), while the unbounded search for any answer is faster with
    two (2.9-3.7 s against 7.7-12 s)."""
    workers = 1 if one_worker else None  # CP-SAT's own search threads (``workers`` counts processes)
    return engine.solve(model, budget, workers=workers, seed=spec.seed,
                        parameters={"cp_model_probing_level": 0})


def _read(outcome: Outcome, bm: BoxModel) -> list[int]:
    return [outcome.value(x) - 1 for x in bm.word if outcome.value(x) > 0]


def min_words(problem: BoxProblem, spec: Any, budget: Budget) -> Found:
    """Stage 1 finds the fewest words by increasing K (a model of exactly K words for K = 1, 2, ...;
    the first feasible K is optimal since every smaller K was proved infeasible); stage 2 fixes
    that count and minimises the total cost, hinted with the stage-1 answer.

    Ranked by letters, each K is first asked at the bound (:func:`at_the_bound`: K words with
    n + K - 1 letters, the fewest possible): an answer there settles both stages at once, and a
    proof that there is none lets stage 2 start one letter higher.

    Measured on daily puzzles, this is several times faster than one model whose objective is the
    number of used positions (:func:`min_words_by_objective`, kept for comparison), because each
    small model is proved quickly while the objective model must rule out all its empty patterns.
    """
    table = problem.candidates
    domains: dict[int, list[list[int]]] = {}
    reach_cache: dict[str, Any] = {}
    bound: dict[int, Status] = {}  # k -> how the model at the bound n + k - 1 letters ended

    def exactly(k: int, budget: Budget) -> tuple[Status, list[int] | None, dict[str, Any]]:
        try:
            found_domains = domains_or_none(table, k, spec, budget, reach_cache)
        except SearchTimeout:
            return Status.UNKNOWN, None, {}
        if found_domains is None:
            return Status.INFEASIBLE, None, {}
        domains[k] = found_domains
        stats: dict[str, Any] = {}
        if table.rank == "letters":
            bound[k], answer, stats = at_the_bound(table, k, found_domains, spec, budget)
            if bound[k].solved:
                return Status.OPTIMAL, answer, stats
            if bound[k] is not Status.INFEASIBLE:
                return bound[k], None, stats
            # Any answer of k words, by the cover model without a bound on the letters: smaller
            # than the table model below (an 18-letter box: 4 s and 230 MB against 6 s and 790 MB).
            built = cover_model(table, k, found_domains, None)
            assert built is not None, "the domains are not empty"
            model, pick = built
            outcome = _solve(model, spec, budget)
            engine.add_stats(stats, outcome.stats)
            answer = [next(i for i, x in row.items() if outcome.value(x)) for row in pick] if outcome.status.solved else None
            return outcome.status, answer, stats
        bm = build_model(table, k, all_used=True, prefix_rule=False, domains=found_domains)
        outcome = _solve(bm.model, spec, budget)
        engine.add_stats(stats, outcome.stats)
        return outcome.status, (_read(outcome, bm) if outcome.status.solved else None), stats

    first = increasing_k(range(1, spec.max_words + 1), exactly, budget)
    found = Found(stats=dict(first.stats))
    if first.answer is None:
        return found if first.complete else found.stop(first.stopped)
    answer = first.answer
    found.objective = len(answer)
    cheapest: list[int] | None
    if bound.get(len(answer), Status.UNKNOWN).solved:
        status, cheapest = Status.OPTIMAL, answer  # no answer of that many words has fewer letters
        found.stats["tie_break"] = "at the bound"
    elif table.rank == "letters":
        status, cheapest = _cheapest_from_below(table, answer, domains[len(answer)], spec, budget, found.stats,
                                                above_bound=bound.get(len(answer)) is Status.INFEASIBLE)
    else:
        bm2 = build_model(table, len(answer), all_used=True, prefix_rule=False, domains=domains[len(answer)])
        for x, i in zip(bm2.word, answer, strict=True):
            bm2.model.add_hint(x, i + 1)
        bm2.model.minimize(sum(bm2.cost))
        second = _solve(bm2.model, spec, budget)
        engine.add_stats(found.stats, second.stats)
        status, cheapest = second.status, (_read(second, bm2) if second.status.solved else None)
    found.answers = [problem.words_of(table, cheapest if cheapest is not None else answer)]
    if status is not Status.OPTIMAL:
        # the fewest words is proved; the tie-break is not (CP-SAT may also end it on its own)
        early = budget.reason is None and (budget.left() or 0.0) > engine.EARLY_S
        found.stop(SOLVER if early else budget.reason or "time_limit")
        found.message = (f"{'CP-SAT ended its run before the time limit' if early else 'the time limit was reached'}: "
                         "the number of words is proved fewest, but a cheaper answer of that length may exist")
    return found


def _cheapest_from_below(table: WordTable, answer: list[int], domains: list[list[int]], spec: Any, budget: Budget,
                         stats: dict[str, Any], *, above_bound: bool = False) -> tuple[Status, list[int] | None]:
    """Least total letters among the answers of ``len(answer)`` words, from the lower bound up.

    k words covering the n letters have at least n + k - 1 letters in all (see
    :func:`cover_model`); the letters beyond that are the *excess*. So the cover model is asked
    for an answer of excess at most s = 0, then 1, 2, ...: the first s with an answer gives the
    least total n + k - 1 + s (every smaller s was proved to have none). The answer of stage 1
    bounds s from above and is the hint where its words remain. ``above_bound``:
    :func:`at_the_bound` proved s = 0 impossible already, so the search starts at s = 1.
    """
    k = len(answer)
    bound = table.box.n + k - 1
    upper = sum(table.cost[i] for i in answer)
    for slack in range(1 if above_bound else 0, upper - bound):
        built = cover_model(table, k, domains, slack)
        if built is None:
            continue  # no word fits some position with this excess: proved impossible
        model, pick = built
        for row, i in zip(pick, answer, strict=True):
            if i in row:
                model.add_hint(row[i], 1)
        outcome = _solve(model, spec, budget, one_worker=True)
        engine.add_stats(stats, outcome.stats)
        if outcome.status.solved:
            return Status.OPTIMAL, [next(i for i, x in row.items() if outcome.value(x)) for row in pick]
        if outcome.status is not Status.INFEASIBLE:
            return Status.FEASIBLE, None
    return Status.OPTIMAL, answer  # every cheaper total was proved impossible


def cover_model(table: WordTable, k: int, domains: list[list[int]],
                slack: int | None) -> tuple[cp_model.CpModel, list[dict[int, Any]]] | None:
    """The answers of k words with at most n + k - 1 + ``slack`` letters in all, as an exact cover
    with at most ``slack`` letters of *excess*; None when some position has no word that fits.

    k words covering n letters have at least n + k - 1 letters: each letter is in some word, and
    each join letter in two neighbours. Everything beyond is excess: a word's repeated letters,
    and each word holding a letter that an earlier word holds too, unless the two are neighbours
    joined on it. Booleans ``pick`` (position p holds word i), ``has`` (the word at p has letter
    l) and ``join`` (the words at p and p + 1 meet on letter l), with the chaining and "every
    letter covered" as clauses. At no excess the letters of a word may appear elsewhere only as a
    join, pair by pair, so picking a word rules out by propagation every word elsewhere sharing a
    letter, as an exact-cover search does; with excess, an indicator per (position, letter)
    marks a letter seen before, and the indicators and repeats add up to at most ``slack``.
    ``slack`` None: any number of letters (every answer of k words).
    """
    n = table.box.n
    cost, mask, first, last = table.cost, table.mask, table.first, table.last
    kept = [[i for i in d if slack is None or cost[i] - mask[i].bit_count() <= slack] for d in domains]
    if any(not d for d in kept):
        return None
    m = cp_model.CpModel()
    pick = [{i: m.new_bool_var(f"pick_{p + 1}_{i + 1}") for i in d} for p, d in enumerate(kept)]
    letters = table.box.letters
    has = [[m.new_bool_var(f"has_{p + 1}_{letters[c]}") for c in range(n)] for p in range(k)]
    join = [[m.new_bool_var(f"join_{p + 1}_{letters[c]}") for c in range(n)] for p in range(k - 1)]
    excess: list[Any] = []
    for p in range(k):
        m.add_exactly_one(pick[p].values())
        holders: list[list[Any]] = [[] for _ in range(n)]
        for i, x in pick[p].items():
            for c in range(n):
                if mask[i] >> c & 1:
                    m.add_implication(x, has[p][c])
                    holders[c].append(x)
            if p + 1 < k:
                m.add_implication(x, join[p][last[i]])
            if p > 0:
                m.add_implication(x, join[p - 1][first[i]])
            if slack is not None and cost[i] > mask[i].bit_count():
                excess.append((cost[i] - mask[i].bit_count()) * x)  # repeated letters
        for c in range(n):
            m.add_bool_or([has[p][c].Not(), *holders[c]])
    for row in join:
        m.add_exactly_one(row)
    for c in range(n):
        m.add_bool_or([has[p][c] for p in range(k)])  # every letter covered
        excess += _letter_excess(m, [row[c] for row in has], [row[c] for row in join], slack, letters[c])
    if k > 1:  # ... and not already by the words before the last (the answer would end there)
        late = [m.new_bool_var(f"only_last_{letters[c]}") for c in range(n)]
        for c in range(n):
            for p in range(k - 1):
                m.add_implication(late[c], has[p][c].Not())
        m.add_bool_or(late)
    if slack != 0:
        if slack is not None:
            m.add(sum(excess) <= slack)
        _each_word_once(m, pick)  # (without excess a second use is impossible anyway)
    return m, pick


def _letter_excess(m: cp_model.CpModel, has: list[Any], join: list[Any], slack: int | None,
                   letter: str) -> list[Any]:
    """One letter's rules in :func:`cover_model`: ``has[p]``, the word at p has it; ``join[p]``,
    the words at p and p + 1 meet on it. Without excess, no two words have it unless they are
    neighbours joined on it; with excess, the Booleans marking each word that has it after an
    earlier word did (not as their join), returned to be counted."""
    k = len(has)
    if slack is None:
        return []
    if slack == 0:
        for p in range(k):
            for q in range(p + 1, k):
                m.add_bool_or([has[p].Not(), has[q].Not(), *([join[p]] if q == p + 1 else [])])
        return []
    excess = []
    seen = has[0]  # some word before p has the letter
    for p in range(1, k):
        extra = m.new_bool_var(f"excess_{p + 1}_{letter}")
        m.add_bool_or([has[p].Not(), seen.Not(), join[p - 1], extra])
        excess.append(extra)
        if p + 1 < k:
            now = m.new_bool_var(f"seen_{p + 1}_{letter}")
            m.add_implication(seen, now)
            m.add_implication(has[p], now)
            seen = now
    return excess


def at_the_bound(table: WordTable, k: int, domains: list[list[int]], spec: Any,
                 budget: Budget) -> tuple[Status, list[int] | None, dict[str, Any]]:
    """An answer of k words with n + k - 1 letters in all, the fewest k words can have (the
    :func:`cover_model` without excess), or a proof that there is none.

    On 18-letter boxes this finds the answer in about 5 s where a model bounding the sum of the
    word lengths by n + k - 1 took 6 to 54 s (seed-dependent); and since no answer of k words has
    fewer letters, it settles the tie-break as well.

    Returns (status, word indexes in order or None, figures): ``infeasible`` means no answer of
    k words has n + k - 1 letters (answers with more letters may exist).
    """
    built = cover_model(table, k, domains, 0)
    if built is None:
        return Status.INFEASIBLE, None, {}
    model, pick = built
    outcome = _solve(model, spec, budget, one_worker=True)
    answer = None
    if outcome.status.solved:
        answer = [next(i for i, x in row.items() if outcome.value(x)) for row in pick]
    return outcome.status, answer, outcome.stats


def min_words_by_objective(spec: Any, table: WordTable, budget: Budget | None = None) -> tuple[Status, int | None]:
    """The fewest words from one model: ``max_words`` positions, empties only at the end, objective
    = number of used positions. Same optimum as :func:`min_words` stage 1 (tests and benchmark)."""
    bm = build_model(table, spec.max_words, all_used=False, prefix_rule=False)
    bm.model.minimize(sum(bm.used))
    outcome = _solve(bm.model, spec, budget or Budget(spec.time_limit))
    return outcome.status, (int(outcome.objective) if outcome.objective is not None else None)


def _each_size(problem: BoxProblem, spec: Any, on_answer: Any, limit: int | None, budget: Budget) -> Found:
    """Enumerate answers of 1..max_words words, one model per word count."""
    table = problem.table
    assert table is not None

    def enumerate_k(k: int, limit: int | None, budget: Budget) -> tuple[int, str | None]:
        try:
            domains = domains_or_none(table, k, spec, budget)
        except SearchTimeout:
            return 0, budget.reason or "time_limit"
        if domains is None:
            return 0, None
        bm = build_model(table, k, all_used=True, prefix_rule=True, domains=domains)
        run = engine.enumerate_solutions(bm.model, bm.word, budget, on_solution=on_answer, limit=limit,
                                         seed=spec.seed, keep=False)
        return run.count, run.stopped

    return enumerate_by_size(spec, enumerate_k, limit, budget)


def enumerate_(problem: BoxProblem, spec: Any, budget: Budget) -> Found:
    """Every answer of at most ``max_words`` words (up to ``limit``), by solution callbacks."""
    table = problem.table
    assert table is not None
    answers = WordRows(spec.max_words, budget=budget)
    found = _each_size(problem, spec, lambda values: answers.append([v - 1 for v in values]), spec.limit, budget)
    found.answers = answers
    return found


def count(problem: BoxProblem, spec: Any, budget: Budget) -> Found:
    """Answers per word count, by enumeration (exact unless the budget stops it)."""
    found = _each_size(problem, spec, None, None, budget)
    found.stats["method"] = "enumeration"
    return found
