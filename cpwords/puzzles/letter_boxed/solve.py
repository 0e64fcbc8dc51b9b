"""A Letter Boxed spec's two hooks of the registry's pipeline: prepare the playable words; turn what
the engine found into the Result.

This is the one place where a Letter Boxed Result is made: the engine modules (``native_tasks``,
``cpsat``, ``sat``) return neutral :class:`~cpwords.engines.found.Found` data.
"""

from __future__ import annotations

from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.lexicon import Lexicon, lexicon_for
from cpwords.puzzles import Prepared
from cpwords.puzzles.letter_boxed import answers
from cpwords.puzzles.letter_boxed.solution import LetterBoxedSolution
from cpwords.puzzles.letter_boxed.spec import LetterBoxedSpec
from cpwords.puzzles.letter_boxed.words import Box, BoxProblem, check_letters_reachable, playable_words
from cpwords.results import Result
from cpwords.wording import counted


def prepare(spec: LetterBoxedSpec, budget: Budget | None = None) -> Prepared:
    """The box's playable words (generate: the dictionary alone); nothing to search when some letter
    of the box is in no playable word.

    Raises
    ------
    InputError for a bad dictionary (unknown name, unreadable file, no words).
    """
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
            counting = spec.task in ("count", "enumerate")
            if spec.task == "count":
                stats["count_by_words"] = {str(k): 0 for k in range(1, spec.max_words + 1)}
            return Prepared(problem, stats, Found(count=0 if counting else None, message=reason))
    if spec.task == "min_words":
        stats["candidate_words"] = len(problem.candidates)
    return Prepared(problem, stats)


def result(spec: LetterBoxedSpec, problem: BoxProblem, found: Found, stats: dict[str, Any], budget: Budget) -> Result:
    """The Result of what the engine found."""
    if spec.task == "enumerate":  # every answer, kept as word indexes until it is read
        assert problem.table is not None
        solutions = answers.solutions(found.answers, spec.max_words, problem.table, problem.lexicon, spec.rank)
    else:
        solutions = found.convert(lambda answer: _solution(answer, problem.lexicon))
    if "count_by_words" in found.stats:
        found.stats["count_by_words"] = {str(k): v for k, v in sorted(found.stats["count_by_words"].items())}
    if spec.task == "min_words" and solutions:
        stats["cost"] = solutions[0].letters if spec.rank == "letters" else solutions[0].rareness
    infeasible = f"no answer of at most {counted(spec.max_words, 'word')} with this dictionary" + (
        "; raise max_words or use a larger dictionary" if spec.task == "min_words" else "")
    what = "puzzle" if spec.task == "generate" else "answer"
    return Result.from_search(spec, found, solutions, infeasible=infeasible, what=what, stats=stats,
                              asked=spec.puzzles if spec.task == "generate" else None)


def _solution(answer: list[str] | dict[str, Any], lexicon: Lexicon) -> LetterBoxedSolution:
    """The answer as a Solution: a word list, or (``generate``) a mapping with its box too."""
    extra = dict(answer) if isinstance(answer, dict) else {"words": answer}
    words = extra.pop("words")
    return LetterBoxedSolution(words=words, letters=sum(map(len, words)),
                               rareness=sum(lexicon.rareness(w) for w in words), **extra)


def sort_key(rank: str) -> Any:
    """Order of answers: fewer words, then fewer letters (or lower rareness), then alphabetical."""
    if rank == "letters":
        return lambda s: (len(s.words), s.letters, s.words)
    return lambda s: (len(s.words), s.rareness, s.words)
