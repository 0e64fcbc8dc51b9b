"""The independent check of every answer a solve returns (:func:`check_result`), within the run's
time: the answers it does not reach are kept, marked unchecked, never dropped."""

from __future__ import annotations

import time

from cpwords import puzzles
from cpwords.engines.budget import Budget
from cpwords.results import Result, Status
from cpwords.specs import BaseSpec

#: Seconds past the time limit by which the independent check ends (the listing's conversion,
#: ``found.CONVERT_GRACE_S``, shares them): the answers not reached are kept, marked unchecked.
CHECK_GRACE_S = 0.5
#: Solutions a kind's all-at-once checker gets per call (the time limit is looked at between calls).
CHECK_CHUNK = 2048


def _answers(n: int) -> str:
    """``the answer is`` or ``the N answers are``, for a message."""
    return "the answer is" if n == 1 else f"the {n:,} answers are"


def check_result(kind: puzzles.PuzzleKind, spec: BaseSpec, result: Result, budget: Budget) -> None:
    """Re-check every answer; past the time limit (plus a grace period) the answers not yet
    checked are kept after the checked ones, marked unchecked in ``stats`` and the message.

    A kind with an all-at-once checker (``PuzzleKind.checker_all``) gets the answers in chunks
    of :data:`CHECK_CHUNK`; the others, one by one."""
    t0 = time.perf_counter()
    problems: list[str] = []
    checked = 0
    solutions = result.solutions
    # The check ends half a second past the deadline, the listing's conversion included, so that
    # the whole command keeps its promise; one that would start later than that (a one-time build
    # finished in its grace) checks nothing: every answer is kept, shown unchecked.
    end = None if budget.deadline is None else budget.deadline + CHECK_GRACE_S
    if kind.checker_all is not None:
        check_all = kind.load(kind.checker_all)
        for start in range(0, len(solutions), CHECK_CHUNK):
            if end is not None and time.monotonic() > end:
                break
            chunk = solutions[start:start + CHECK_CHUNK]
            for i, found in sorted(check_all(spec, chunk).items()):
                problems += [f"solution {start + i + 1}: {p}" for p in found]
            checked += len(chunk)
    else:
        check_one = kind.load(kind.checker)
        for i, solution in enumerate(solutions):
            if end is not None and time.monotonic() > end:
                break
            problems += [f"solution {i + 1}: {p}" for p in check_one(spec, solution)]
            checked += 1
    result.stats["check_s"] = round(time.perf_counter() - t0, 6)
    if checked < len(solutions):
        # What was found is kept: the answers the check did not reach follow the checked ones,
        # and the result says where they start (stats['unchecked_from'], a 0-based index).
        unchecked = len(solutions) - checked
        result.stats["unchecked"] = unchecked
        result.stats["unchecked_from"] = checked
        if result.status == Status.OPTIMAL:
            result.status = Status.FEASIBLE
        note = (f"the time limit cut the check short: the first {checked:,} answers are checked, "
                f"the last {unchecked:,} are shown unchecked" if checked else
                f"the time limit left no time for the check: {_answers(unchecked)} shown unchecked")
        result.message = f"{result.message}; {note}" if result.message else note
    if problems:
        result.status = Status.ERROR
        result.message = "internal check failed (please report): " + "; ".join(problems[:3])
