"""Letter Boxed: chain words over the letters of a box, using every letter in the fewest words.

``solve(spec)`` runs the task of the spec (``min_words``, ``enumerate``, ``count``, ``generate``)
with its engine (``native``, ``cpsat``, ``sat``); solver back ends are imported lazily.
"""

from __future__ import annotations

import time
from typing import Any

from cpwords.results import Result, Status

ENGINES = ("native", "cpsat", "sat")


def solve(spec: Any) -> Result:
    """Solve one Letter Boxed spec; see :mod:`cpwords.puzzles.letter_boxed.spec` for the fields.

    Raises
    ------
    InputError for a bad dictionary (unknown name, unreadable file, no words).
    """
    from cpwords.lexicon import load_lexicon
    from cpwords.puzzles.letter_boxed.words import Box, check_letters_reachable, playable_words

    if spec.task == "generate":
        from cpwords.puzzles.letter_boxed.generate import generate

        return generate(spec)
    t0 = time.perf_counter()
    lexicon = load_lexicon(spec.dictionary)
    box = Box.from_sides(spec.sides)
    table = playable_words(box, lexicon, min_length=spec.min_word_length, rank=spec.rank)
    stats: dict[str, Any] = {"playable_words": len(table), "letters_on_box": box.n,
                             "words_s": round(time.perf_counter() - t0, 6)}
    reason = check_letters_reachable(table)
    if reason is not None:
        if spec.task == "count":
            stats["count_by_words"] = {str(k): 0 for k in range(1, spec.max_words + 1)}
        return _result(spec, Status.INFEASIBLE, stats=stats, message=reason,
                       **({"count": 0, "count_exact": True} if spec.task in ("count", "enumerate") else {}))
    if spec.task == "min_words":
        return _min_words(spec, table, lexicon, stats)
    if spec.task == "enumerate":
        return _enumerate(spec, table, lexicon, stats)
    return _count(spec, table, stats)


def _result(spec: Any, status: Status, **fields: Any) -> Result:
    return Result(kind="letter_boxed", status=status, engine=spec.engine, task=spec.task, **fields)


def _engine_module(spec: Any) -> Any:
    if spec.engine == "cpsat":
        from cpwords.puzzles.letter_boxed import cpsat as module
    elif spec.engine == "sat":
        from cpwords.puzzles.letter_boxed import sat as module
    else:
        from cpwords.puzzles.letter_boxed import native_tasks as module
    return module


def _min_words(spec: Any, table: Any, lexicon: Any, stats: dict[str, Any]) -> Result:
    from cpwords.puzzles.letter_boxed.answer import make_solution
    from cpwords.puzzles.letter_boxed.words import drop_dominated

    candidates = drop_dominated(table)
    stats["candidate_words"] = len(candidates)
    status, found, engine_stats = _engine_module(spec).best_answer(spec, candidates)
    stats.update(engine_stats)
    if found is None:
        message = None
        if status == Status.INFEASIBLE:
            message = (f"no answer of at most {spec.max_words} words with this dictionary; "
                       "raise max_words or use a larger dictionary")
        elif status == Status.UNKNOWN:
            message = "the time limit was reached before any answer was found"
        return _result(spec, status, stats=stats, message=message)
    solution = make_solution(candidates, found, lexicon)
    stats["cost"] = solution.letters if spec.rank == "letters" else solution.rareness
    return _result(spec, status, solutions=[solution], objective=len(found), stats=stats)


def _enumerate(spec: Any, table: Any, lexicon: Any, stats: dict[str, Any]) -> Result:
    from cpwords.puzzles.letter_boxed.answer import make_solution, sort_key

    complete, answers, engine_stats = _engine_module(spec).list_answers(spec, table)
    stats.update(engine_stats)
    solutions = sorted((make_solution(table, a, lexicon) for a in answers), key=sort_key(spec.rank))
    status = Status.of_search(found=bool(solutions), complete=complete)
    message = None
    if status == Status.INFEASIBLE:
        message = f"no answer of at most {spec.max_words} words with this dictionary"
    elif not complete:
        message = (f"listing stopped at limit={spec.limit} answers" if spec.limit and len(solutions) >= spec.limit
                   else "the time limit was reached before every answer was listed")
    return _result(spec, status, solutions=solutions, count=len(solutions), count_exact=complete,
                   stats=stats, message=message)


def _count(spec: Any, table: Any, stats: dict[str, Any]) -> Result:
    complete, by_words, engine_stats = _engine_module(spec).count_answers(spec, table)
    stats.update(engine_stats)
    stats["count_by_words"] = {str(k): v for k, v in sorted(by_words.items())}
    total = sum(by_words.values())
    status = Status.of_search(found=bool(total), complete=complete)
    message = None
    if status == Status.INFEASIBLE:
        message = f"no answer of at most {spec.max_words} words with this dictionary"
    elif not complete:
        message = "the time limit was reached: the count is a lower bound"
    return _result(spec, status, count=total, count_exact=complete, stats=stats, message=message)
