"""One word count at a time: the loops shared by the CP-SAT and SAT engines.

Each solver engine builds one model per word count k (exactly k words, every letter used, over
the words each position may hold, :func:`~cpwords.puzzles.letter_boxed.reach.domains_or_none`).
The loops over k are the same for both and live here; each engine hands in its own model steps:

* :func:`fewest_words` (``min_words``): k = 1, 2, … until a model is satisfiable (the first such k
  is optimal, :func:`~cpwords.engines.minimum.increasing_k`), then the engine's tie-break among the
  answers of that many words, unless the model at the bound settled it already;
* :func:`answers_by_size` (``enumerate``, ``count``): every answer of each k, sharing the run's
  budget and the listing limit between the models and gathering the counts per k
  (:func:`enumerate_by_size`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found
from cpwords.engines.minimum import increasing_k
from cpwords.puzzles.letter_boxed.answers import WordRows
from cpwords.puzzles.letter_boxed.reach import domains_or_none
from cpwords.puzzles.letter_boxed.words import BoxProblem, WordTable
from cpwords.results import Status

if TYPE_CHECKING:
    from cpwords.puzzles.letter_boxed.spec import LetterBoxedSpec

M = TypeVar("M")

#: ``enumerate_k(k, limit, budget) -> (answers found, why it stopped early or None)``
EnumerateK = Callable[[int, "int | None", Budget], "tuple[int, str | None]"]
#: Called with each answer found, as word indexes of the table in order.
OnAnswer = Callable[[list[int]], None]


@dataclass
class Sizes:
    """What the fewest-words search keeps from one word count to the next: the words each
    position may hold for each count (None: some position holds none), the reach tables those
    share, and how the model at the bound (n + k - 1 letters) ended for each count."""

    table: WordTable
    spec: LetterBoxedSpec
    domains: dict[int, list[list[int]] | None] = field(default_factory=dict)
    reach_cache: dict[str, Any] = field(default_factory=dict)
    bound: dict[int, Status] = field(default_factory=dict)

    def domains_of(self, k: int, budget: Budget) -> list[list[int]] | None:
        """The words each of k positions may hold (kept for the tie-break), or None when some
        position holds none. Raises SearchTimeout and MemoryBudgetExceeded as
        :func:`~cpwords.puzzles.letter_boxed.reach.domains_or_none` does."""
        found = self.domains[k] = domains_or_none(self.table, k, self.spec, budget, self.reach_cache)
        return found


#: ``exactly(sizes, k, budget) -> (status, answer or None, figures)``: an answer of exactly k words
#: (the engine records ``sizes.bound[k]`` when it asks the model at the bound first).
ExactlyK = Callable[[Sizes, int, Budget], "tuple[Status, list[int] | None, dict[str, Any]]"]
#: ``tie_break(sizes, answer, budget, stats) -> (status, cheapest answer or None)``: a cheapest
#: answer of as many words as ``answer`` (``optimal`` when proved), its figures added to ``stats``.
TieBreak = Callable[[Sizes, list[int], Budget, dict[str, Any]], "tuple[Status, list[int] | None]"]
#: ``unproved(budget) -> (why the tie-break stopped, in the user's words)``.
Unproved = Callable[[Budget], "tuple[str | None, str]"]


def _time_limit(budget: Budget) -> tuple[str | None, str]:
    return budget.reason, "the time limit was reached"


def fewest_words(problem: BoxProblem, spec: LetterBoxedSpec, budget: Budget, exactly: ExactlyK,
                 tie_break: TieBreak, unproved: Unproved = _time_limit) -> Found:
    """A best answer: the fewest words by increasing k (``exactly``), then the least cost among
    the answers of that many words (``tie_break``), over ``problem.candidates``.

    Returns
    -------
    Found with the answer's words and ``objective`` its number of words; incomplete when the
    budget ended the search for the number of words, or the tie-break (``unproved`` says why:
    the number of words is proved fewest then, the cost not).
    """
    sizes = Sizes(problem.candidates, spec)
    first = increasing_k(range(1, spec.max_words + 1), lambda k, budget: exactly(sizes, k, budget), budget)
    found = Found(stats=dict(first.stats))
    if first.answer is None:
        return found if first.complete else found.stop(first.stopped)
    answer = first.answer
    found.objective = len(answer)
    cheapest: list[int] | None
    if sizes.bound.get(len(answer), Status.UNKNOWN).solved:
        status, cheapest = Status.OPTIMAL, answer  # no answer of that many words has fewer letters
        found.stats["tie_break"] = "at the bound"
    else:
        status, cheapest = tie_break(sizes, answer, budget, found.stats)
    found.answers = [problem.words_of(sizes.table, cheapest if cheapest is not None else answer)]
    if status is not Status.OPTIMAL:
        reason, why = unproved(budget)
        found.stop(reason)
        found.message = f"{why}: the number of words is proved fewest, but a cheaper answer of that length may exist"
    return found


def answers_by_size(problem: BoxProblem, spec: LetterBoxedSpec, budget: Budget, *, listing: bool,
                    build: Callable[[WordTable, int, list[list[int]], Budget], M],
                    enumerate_model: Callable[[M, OnAnswer | None, int | None, Budget], tuple[int, str | None]],
                    ) -> Found:
    """Every answer of 1 .. ``max_words`` words, one model a word count: ``build(table, k,
    domains, budget)`` makes the model of exactly k words (raising SearchTimeout when the budget
    ends meanwhile), ``enumerate_model(model, on_answer, limit, budget) -> (answers, why it
    stopped early or None)`` runs it.

    ``listing`` (``enumerate``): the answers, up to ``spec.limit``, kept as
    :class:`~cpwords.puzzles.letter_boxed.answers.WordRows`; otherwise (``count``) only counted,
    with ``stats["method"] = "enumeration"``.
    """
    table = problem.table
    assert table is not None
    answers = WordRows(spec.max_words, budget=budget) if listing else None
    on_answer = answers.append if answers is not None else None

    def enumerate_k(k: int, limit: int | None, budget: Budget) -> tuple[int, str | None]:
        try:
            domains = domains_or_none(table, k, spec, budget)
            if domains is None:
                return 0, None
            model = build(table, k, domains, budget)
        except SearchTimeout:
            return 0, budget.reason or "time_limit"
        return enumerate_model(model, on_answer, limit, budget)

    found = enumerate_by_size(spec, enumerate_k, spec.limit if listing else None, budget)
    if answers is not None:
        found.answers = answers
    else:
        found.stats["method"] = "enumeration"
    return found


def enumerate_by_size(spec: LetterBoxedSpec, enumerate_k: EnumerateK, limit: int | None, budget: Budget) -> Found:
    """Run ``enumerate_k`` for k = 1 .. ``spec.max_words``.

    Returns
    -------
    Found with ``count`` the answers seen and ``stats["count_by_words"]``; incomplete (with the
    reason) when the budget or ``limit`` cut any k short (that k and the ones after it then count
    what was reached).
    """
    counts: dict[int, int] = {}
    found = Found(stats={"count_by_words": counts})
    for k in range(1, spec.max_words + 1):
        if found.stopped is not None:
            counts[k] = 0
            continue
        if budget.expired():
            found.stop(budget.reason)
            counts[k] = 0
            continue
        counts[k], stopped = enumerate_k(k, limit, budget)
        if stopped is not None:
            found.stop(stopped)
        if limit is not None:
            limit -= counts[k]
            if limit <= 0 and found.stopped is None and k < spec.max_words:
                found.stop("limit")
    found.count = sum(counts.values())
    return found
