"""Solving a Letter Boxed spec: prepare the playable words, run the engine's task, build the Result.

This is the one place where a Letter Boxed Result is made: the engine modules (``native_tasks``,
``cpsat``, ``sat``) return neutral :class:`~cpwords.engines.found.Found` data.
"""

from __future__ import annotations

import math
import time
from typing import Any

from cpwords import puzzles
from cpwords.engines.budget import Budget
from cpwords.engines.found import MEMORY, Found
from cpwords.lexicon import Lexicon, lexicon_for
from cpwords.puzzles.letter_boxed.reach import MemoryBudgetExceeded
from cpwords.puzzles.letter_boxed.solution import LetterBoxedSolution
from cpwords.puzzles.letter_boxed.spec import LetterBoxedSpec
from cpwords.puzzles.letter_boxed.words import Box, BoxProblem, check_letters_reachable, playable_words
from cpwords.results import Difficulty, Result, difficulty_level


def solve(spec: LetterBoxedSpec, budget: Budget) -> Result:
    """Solve one Letter Boxed spec with its engine, within ``budget``.

    Raises
    ------
    InputError for a bad dictionary (unknown name, unreadable file, no words).
    """
    t0 = time.perf_counter()
    lexicon = lexicon_for(spec)  # generate: no offensive words unless the spec says
    problem = BoxProblem(lexicon)
    stats: dict[str, Any] = {"dictionary": spec.dictionary.label()}
    if spec.task != "generate":
        assert spec.sides is not None
        problem.table = playable_words(Box.from_sides(spec.sides), lexicon, min_length=spec.min_word_length,
                                       rank=spec.rank)
        stats |= {"playable_words": len(problem.table), "letters_on_box": problem.table.box.n}
        reason = check_letters_reachable(problem.table)
        if reason is not None:
            stats["prepare_s"] = round(time.perf_counter() - t0, 6)
            counting = spec.task in ("count", "enumerate")
            if spec.task == "count":
                stats["count_by_words"] = {str(k): 0 for k in range(1, spec.max_words + 1)}
            return Result.from_search(spec, Found(count=0 if counting else None, message=reason), infeasible=reason,
                                      stats=stats)
    if spec.task == "min_words":
        stats["candidate_words"] = len(problem.candidates)
    stats["prepare_s"] = round(time.perf_counter() - t0, 6)
    try:
        found = puzzles.get(spec.kind).run(problem, spec, budget)
    except MemoryBudgetExceeded as exc:
        found = Found(message=str(exc)).stop(MEMORY)
    # One best answer always converts (in microseconds); only listings are cut at the deadline.
    solutions = found.convert(lambda answer: _solution(answer, lexicon), None if spec.task == "min_words" else budget)
    if spec.task == "enumerate":
        solutions.sort(key=sort_key(spec.rank))
    if "count_by_words" in found.stats:
        found.stats["count_by_words"] = {str(k): v for k, v in sorted(found.stats["count_by_words"].items())}
    if spec.task == "min_words" and solutions:
        stats["cost"] = solutions[0].letters if spec.rank == "letters" else solutions[0].rareness
    infeasible = f"no answer of at most {spec.max_words} words with this dictionary" + (
        "; raise max_words or use a larger dictionary" if spec.task == "min_words" else "")
    what = "puzzle" if spec.task == "generate" else "answer"
    return Result.from_search(spec, found, solutions, infeasible=infeasible, what=what, stats=stats,
                              asked=spec.puzzles if spec.task == "generate" else None)


def _solution(answer: list[str] | dict[str, Any], lexicon: Lexicon) -> LetterBoxedSolution:
    """The answer as a Solution: a word list, or (``generate``) a mapping with its box too."""
    extra: dict[str, Any] = dict(answer) if isinstance(answer, dict) else {"words": answer}
    words = extra.pop("words")
    if extra.get("answers_at_par") is not None:
        extra["difficulty"] = puzzle_difficulty(extra["answers_at_par"], len(words))
    return LetterBoxedSolution(words=words, letters=sum(map(len, words)),
                               rareness=sum(lexicon.rareness(w) for w in words), **extra)


#: Difficulty bands of a generated box's score: medium from 12 (about 100 answers at par or
#: fewer), hard from 20 (16 or fewer).
DIFFICULTY_BANDS = (12.0, 20.0)


def puzzle_difficulty(answers_at_par: int, par: int) -> Difficulty:
    """How hard a generated box is: ``score = 100 / (1 + log2(answers at par))`` (one answer at
    par: 100; 16: 20; 128: 12.5): the fewer ways to reach par, the harder.

    >>> puzzle_difficulty(16, 2).level
    'hard'
    """
    score = round(100 / (1 + math.log2(max(1, answers_at_par))), 1)
    return Difficulty(level=difficulty_level(score, *DIFFICULTY_BANDS), score=score,
                      figures={"answers_at_par": answers_at_par, "par": par})


def sort_key(rank: str) -> Any:
    """Order of answers: fewer words, then fewer letters (or lower rareness), then alphabetical."""
    if rank == "letters":
        return lambda s: (len(s.words), s.letters, s.words)
    return lambda s: (len(s.words), s.rareness, s.words)
