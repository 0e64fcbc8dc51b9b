"""The native engine of Letter Boxed: one function per task over the algorithms of ``native.py``.

Each task takes the :class:`~cpwords.puzzles.letter_boxed.words.BoxProblem`, the spec and the
run's budget, and returns a :class:`~cpwords.engines.found.Found` whose answers are word lists
(``generate``: mappings with the box, its words and its count at par).
"""

from __future__ import annotations

import random
import time
from typing import Any

from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import MEMORY, Found
from cpwords.engines.task import TaskFunction
from cpwords.errors import InputError
from cpwords.puzzles.letter_boxed import counting, native
from cpwords.puzzles.letter_boxed.answers import WordRows
from cpwords.puzzles.letter_boxed.reach import MemoryBudgetExceeded
from cpwords.puzzles.letter_boxed.spec import LetterBoxedSpec
from cpwords.puzzles.letter_boxed.words import Box, BoxProblem, drop_dominated, playable_words
from cpwords.wording import counted, plural


def min_words(problem: BoxProblem, spec: LetterBoxedSpec, budget: Budget) -> Found:
    """Fewest words, then least cost, by layered search (proved optimal: layers are exhaustive)."""
    t0 = time.perf_counter()
    table = problem.candidates
    try:
        best = native.min_words(table, spec.max_words, budget, max_memory_mb=spec.max_memory_mb)
    except SearchTimeout:
        return Found(stats={"search_s": round(time.perf_counter() - t0, 6)}).stop(budget.reason)
    stats = {"search_s": round(time.perf_counter() - t0, 6)}
    if best is None:
        return Found(stats=stats)
    return Found(answers=[problem.words_of(table, best[2])], objective=best[0], stats=stats)


def enumerate_(problem: BoxProblem, spec: LetterBoxedSpec, budget: Budget) -> Found:
    """Answers of at most ``max_words`` words by pruned depth-first search, up to ``limit``; the
    answers are :class:`~cpwords.puzzles.letter_boxed.answers.WordRows` of the table's indexes."""
    t0 = time.perf_counter()
    table = problem.table
    assert table is not None
    rows = WordRows(spec.max_words, budget=budget)
    found = Found(answers=rows)
    kept = 0
    try:
        for answer in native.enumerate_answers(table, spec.max_words, budget=budget,
                                                  max_memory_mb=spec.max_memory_mb):
            if spec.limit is not None and kept >= spec.limit:
                found.stop("limit")
                break
            rows.append(answer)
            kept += 1
    except SearchTimeout:
        found.stop(budget.reason)
    except MemoryBudgetExceeded as exc:
        found.stop(MEMORY).message = str(exc)
    found.count = kept
    found.stats["search_s"] = round(time.perf_counter() - t0, 6)
    return found


def count(problem: BoxProblem, spec: LetterBoxedSpec, budget: Budget) -> Found:
    """Exact counts by inclusion-exclusion (boxes of up to MAX_COUNT_LETTERS letters, in blocks
    within ``max_memory_mb``), else by enumeration."""
    t0 = time.perf_counter()
    table = problem.table
    assert table is not None
    by_words = {k: 0 for k in range(1, spec.max_words + 1)}
    found = Found(stats={"count_by_words": by_words})
    try:
        counted = None
        if table.box.n <= counting.MAX_COUNT_LETTERS:
            try:
                counted = counting.count_answers(table, spec.max_words, budget, max_memory_mb=spec.max_memory_mb)
            except ValueError:  # counts beyond int64 on a big box: listed instead
                counted = None
        if counted is not None:
            found.stats["method"] = "inclusion-exclusion"
            found.stats["count_block_letters"] = counting.count_block_bits(table.box.n, spec.max_memory_mb)
            by_words.update(counted)
        else:
            found.stats["method"] = "enumeration"
            for answer in native.enumerate_answers(table, spec.max_words, budget=budget,
                                                  max_memory_mb=spec.max_memory_mb):
                by_words[len(answer)] += 1
    except SearchTimeout:
        found.stop(budget.reason)
    except MemoryBudgetExceeded as exc:
        found.stop(MEMORY).message = str(exc)
    found.count = sum(by_words.values())
    found.stats["search_s"] = round(time.perf_counter() - t0, 6)
    return found


def generate(problem: BoxProblem, spec: LetterBoxedSpec, budget: Budget) -> Found:
    """New puzzles: try ``spec.attempts`` random boxes and keep those whose minimum is exactly
    ``spec.par`` words, ranked by how few answers of ``par`` words they have (fewer: harder).

    Raises
    ------
    InputError when the boxes would have more letters than exact counting handles.
    """
    from cpwords.puzzles.letter_boxed.generate import random_box

    n = spec.side_count * spec.letters_per_side
    if n > counting.MAX_COUNT_LETTERS:
        raise InputError(f"generate ranks puzzles by exact counts, which handle up to {counting.MAX_COUNT_LETTERS} "
                         "letters; lower side_count or letters_per_side", field="letters_per_side",
                         value=spec.letters_per_side)
    rng = random.Random(spec.seed)
    lexicon = problem.lexicon
    weights = None if lexicon.language == "english" else lexicon.letter_weights()
    seen: set[frozenset[str]] = set()
    kept: list[dict[str, Any]] = []
    tried = 0
    stopped = None
    try:
        for _ in range(spec.attempts):
            budget.check()
            sides = random_box(rng, spec.side_count, spec.letters_per_side, weights)
            key = frozenset(sides)
            if key in seen:
                continue
            seen.add(key)
            tried += 1
            table = playable_words(Box.from_sides(sides), problem.lexicon, min_length=spec.min_word_length,
                                   rank=spec.rank)
            candidates = drop_dominated(table)
            best = native.min_words(candidates, spec.par, budget, max_memory_mb=spec.max_memory_mb)
            if best is None or best[0] != spec.par:
                continue
            at_par = counting.count_answers(table, spec.par, budget)[spec.par]
            kept.append({"sides": sides, "words": problem.words_of(candidates, best[2]), "answers_at_par": at_par})
    except SearchTimeout:
        stopped = budget.reason
    kept.sort(key=lambda p: (p["answers_at_par"], p["sides"]))
    found = Found(answers=kept[:spec.puzzles], objective=spec.par,
                  stats={"boxes_tried": tried, "boxes_at_par": len(kept)})
    if stopped is not None:
        found.stop(stopped)
    elif len(found.answers) < spec.puzzles:
        found.stop("limit")
        at_par = len(found.answers)
        found.message = (f"of the {counted(tried, 'box', 'boxes')} tried, "
                         + (f"{counted(at_par, 'box', 'boxes')} {plural(at_par, 'needs', 'need')}" if at_par else "none needs")
                         + f" exactly {counted(spec.par, 'word')}; raise attempts or change par")
    return found


#: This engine's tasks, each checked against the task contract (the capability table names them).
TASKS: tuple[TaskFunction[BoxProblem, LetterBoxedSpec], ...] = (min_words, enumerate_, count, generate)
