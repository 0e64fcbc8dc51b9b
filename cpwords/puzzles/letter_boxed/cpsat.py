"""The CP-SAT engine of Letter Boxed: one function per task, over the models of
:mod:`~cpwords.puzzles.letter_boxed.cpsat_models` (the table model of K word positions, and the
exact-cover model of K words with a bounded excess of letters).

``min_words`` asks a model of exactly K words for K = 1, 2, … and then breaks the tie by cost;
``enumerate`` and ``count`` list the answers of each word count by solution callbacks (the loops
over K are shared with the SAT engine: :mod:`~cpwords.puzzles.letter_boxed.sizes`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ortools.sat.python import cp_model

from cpwords.engines import cpsat as engine
from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import SOLVER, Found
from cpwords.engines.outcome import Outcome
from cpwords.engines.task import TaskFunction
from cpwords.puzzles.letter_boxed.cpsat_models import BoxModel, build_model, cover_model
from cpwords.puzzles.letter_boxed.sizes import OnAnswer, Sizes, answers_by_size, fewest_words
from cpwords.puzzles.letter_boxed.spec import LetterBoxedSpec
from cpwords.puzzles.letter_boxed.words import BoxProblem, WordTable
from cpwords.results import Status


def _solve(model: cp_model.CpModel, spec: LetterBoxedSpec, budget: Budget, *, one_worker: bool = False) -> Outcome:
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


def min_words(problem: BoxProblem, spec: LetterBoxedSpec, budget: Budget) -> Found:
    """Stage 1 finds the fewest words by increasing K (a model of exactly K words for K = 1, 2, ...;
    the first feasible K is optimal since every smaller K was proved infeasible); stage 2 fixes
    that count and minimises the total cost, hinted with the stage-1 answer
    (:func:`~cpwords.puzzles.letter_boxed.sizes.fewest_words` runs both).

    Ranked by letters, each K is first asked at the bound (:func:`at_the_bound`: K words with
    n + K - 1 letters, the fewest possible): an answer there settles both stages at once, and a
    proof that there is none lets stage 2 start one letter higher.

    Measured on daily puzzles, this is several times faster than one model whose objective is the
    number of used positions (:func:`min_words_by_objective`, kept for comparison), because each
    small model is proved quickly while the objective model must rule out all its empty patterns.
    """
    return fewest_words(problem, spec, budget, _exactly, _tie_break, _unproved)


def _exactly(sizes: Sizes, k: int, budget: Budget) -> tuple[Status, list[int] | None, dict[str, Any]]:
    """An answer of exactly k words (stage 1), or why there is none."""
    try:
        domains = sizes.domains_of(k, budget)
    except SearchTimeout:
        return Status.UNKNOWN, None, {}
    if domains is None:
        return Status.INFEASIBLE, None, {}
    if sizes.table.rank == "letters":
        return _exactly_covering(sizes, k, domains, budget)
    stats: dict[str, Any] = {}
    bm = build_model(sizes.table, k, all_used=True, prefix_rule=False, domains=domains)
    outcome = _solve(bm.model, sizes.spec, budget)
    engine.add_stats(stats, outcome.stats)
    return outcome.status, (_read(outcome, bm) if outcome.status.solved else None), stats


def _exactly_covering(sizes: Sizes, k: int, domains: list[list[int]],
                      budget: Budget) -> tuple[Status, list[int] | None, dict[str, Any]]:
    """Stage 1 ranked by letters: at the bound first, then any answer of k words by the cover
    model without a bound on the letters: smaller than the table model (an 18-letter box: 4 s
    and 230 MB against 6 s and 790 MB)."""
    table, spec = sizes.table, sizes.spec
    sizes.bound[k], answer, stats = at_the_bound(table, k, domains, spec, budget)
    if sizes.bound[k].solved:
        return Status.OPTIMAL, answer, stats
    if sizes.bound[k] is not Status.INFEASIBLE:
        return sizes.bound[k], None, stats
    built = cover_model(table, k, domains, None)
    assert built is not None, "the domains are not empty"
    model, pick = built
    outcome = _solve(model, spec, budget)
    engine.add_stats(stats, outcome.stats)
    answer = [next(i for i, x in row.items() if outcome.value(x)) for row in pick] if outcome.status.solved else None
    return outcome.status, answer, stats


def _tie_break(sizes: Sizes, answer: list[int], budget: Budget,
               stats: dict[str, Any]) -> tuple[Status, list[int] | None]:
    """Stage 2: a cheapest answer of ``len(answer)`` words, hinted with ``answer``."""
    table, k = sizes.table, len(answer)
    domains = sizes.domains[k]
    assert domains is not None, "an answer of k words was found"
    if table.rank == "letters":
        return _cheapest_from_below(table, answer, domains, sizes.spec, budget, stats,
                                    above_bound=sizes.bound.get(k) is Status.INFEASIBLE)
    bm = build_model(table, k, all_used=True, prefix_rule=False, domains=domains)
    for x, i in zip(bm.word, answer, strict=True):
        bm.model.add_hint(x, i + 1)
    bm.model.minimize(sum(bm.cost))
    second = _solve(bm.model, sizes.spec, budget)
    engine.add_stats(stats, second.stats)
    return second.status, (_read(second, bm) if second.status.solved else None)


def _unproved(budget: Budget) -> tuple[str | None, str]:
    """Why stage 2 did not prove its answer cheapest: the time limit, or CP-SAT ending its run
    on its own well before it."""
    if budget.reason is None and (budget.left() or 0.0) > engine.EARLY_S:
        return SOLVER, "CP-SAT ended its run before the time limit"
    return budget.reason or "time_limit", "the time limit was reached"


def _cheapest_from_below(table: WordTable, answer: list[int], domains: list[list[int]], spec: LetterBoxedSpec, budget: Budget,
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


def at_the_bound(table: WordTable, k: int, domains: list[list[int]], spec: LetterBoxedSpec,
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


def min_words_by_objective(spec: LetterBoxedSpec, table: WordTable, budget: Budget | None = None) -> tuple[Status, int | None]:
    """The fewest words from one model: ``max_words`` positions, empties only at the end, objective
    = number of used positions. Same optimum as :func:`min_words` stage 1 (tests and benchmark)."""
    bm = build_model(table, spec.max_words, all_used=False, prefix_rule=False)
    bm.model.minimize(sum(bm.used))
    outcome = _solve(bm.model, spec, budget or Budget(spec.time_limit))
    return outcome.status, (int(outcome.objective) if outcome.objective is not None else None)


def _build_listing_model(table: WordTable, k: int, domains: list[list[int]], budget: Budget) -> BoxModel:
    return build_model(table, k, all_used=True, prefix_rule=True, domains=domains)


def _enumerate_model(bm: BoxModel, on_answer: OnAnswer | None, limit: int | None, budget: Budget, *,
                     seed: int | None) -> tuple[int, str | None]:
    """The answers of one model, by solution callbacks: how many, and why it stopped early."""
    on_solution = None if on_answer is None else (lambda values: on_answer([v - 1 for v in values]))
    run = engine.enumerate_solutions(bm.model, bm.word, budget, on_solution=on_solution, limit=limit,
                                     seed=seed, keep=False)
    return run.count, run.stopped


def enumerate_(problem: BoxProblem, spec: LetterBoxedSpec, budget: Budget) -> Found:
    """Every answer of at most ``max_words`` words (up to ``limit``), by solution callbacks."""
    return answers_by_size(problem, spec, budget, listing=True, build=_build_listing_model,
                           enumerate_model=partial(_enumerate_model, seed=spec.seed))


def count(problem: BoxProblem, spec: LetterBoxedSpec, budget: Budget) -> Found:
    """Answers per word count, by enumeration (exact unless the budget stops it)."""
    return answers_by_size(problem, spec, budget, listing=False, build=_build_listing_model,
                           enumerate_model=partial(_enumerate_model, seed=spec.seed))


#: This engine's tasks, each checked against the task contract (the capability table names them).
TASKS: tuple[TaskFunction[BoxProblem, LetterBoxedSpec], ...] = (min_words, enumerate_, count)
