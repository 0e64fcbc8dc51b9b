"""Solving a ladder spec: find the two words, run the task, build the one Result.

>>> import cpwords
>>> cpwords.solve({"kind": "ladder", "start": "cold", "target": "warm", "seed": 1}).solutions[0].steps
4
"""

from __future__ import annotations

import time
from typing import Literal

from cpwords import puzzles
from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.errors import InputError
from cpwords.puzzles.ladder.index import LadderIndex
from cpwords.puzzles.ladder.native import LadderProblem
from cpwords.puzzles.ladder.solution import LadderSolution
from cpwords.puzzles.ladder.spec import LadderSpec
from cpwords.results import Result


def solve(spec: LadderSpec, budget: Budget) -> Result:
    """Solve a ladder spec: the shortest ladder, the least-rare ladder or both (``spec.mode``).

    Returns
    -------
    Result with status ``optimal`` (every ladder returned is proved best: BFS and Dijkstra are
    exact), or ``infeasible`` when the two words are in different groups.

    Raises
    ------
    InputError
        A word that is not in the dictionary (with the nearest dictionary words as suggestions),
        or a dictionary that cannot be loaded.
    """
    from cpwords.puzzles.ladder.store import load_index

    t0 = time.perf_counter()
    if spec.mode == "generate":
        return _generate(spec, budget, t0)
    index = load_index(spec.dictionary)
    start, target = (_word_id(index, spec, field) for field in ("start", "target"))
    group, target_group = index.group[start], index.group[target]
    stats = {"dictionary": spec.dictionary.label(), "group": group, "group_size": index.group_size(group),
             "prepare_s": round(time.perf_counter() - t0, 6)}
    if group != target_group:
        stats |= {"target_group": target_group, "target_group_size": index.group_size(target_group)}
        reason = (f"no ladder: {index.words[start].upper()} is in group {group} with {_words(index.group_size(group))}, "
                  f"{index.words[target].upper()} in group {target_group} with {_words(index.group_size(target_group))}")
        return Result.from_search(spec, Found(message=reason), infeasible=reason, stats=stats)
    t1 = time.perf_counter()
    problem = LadderProblem(index, start, target)
    found = puzzles.get(spec.kind).run(problem, spec, budget)
    stats["search_s"] = round(time.perf_counter() - t1, 6)
    solutions = found.convert(lambda answer: _solution(index, spec, answer[1], answer[0]), budget)
    return Result.from_search(spec, found, solutions, infeasible="no ladder", what="ladder", stats=stats)


def _generate(spec: LadderSpec, budget: Budget, t0: float) -> Result:
    """``mode: generate``: ladder puzzles from the dictionary (offensive words left out unless
    the spec sets ``exclude``)."""
    from cpwords.lexicon.exclude import GENERATING_EXCLUDE
    from cpwords.puzzles.ladder.generate import GenerateProblem, solution_fields
    from cpwords.puzzles.ladder.store import load_index

    index = load_index(spec.dictionary.with_default_exclude(GENERATING_EXCLUDE))
    start = _word_id(index, spec, "start") if spec.start is not None else None
    stats = {"dictionary": spec.dictionary.label(), "par": spec.par, "length": spec.length,
             "prepare_s": round(time.perf_counter() - t0, 6)}
    t1 = time.perf_counter()
    found = puzzles.get(spec.kind).run(GenerateProblem(index, start), spec, budget)
    stats["search_s"] = round(time.perf_counter() - t1, 6)
    solutions = found.convert(lambda answer: LadderSolution.model_validate(solution_fields(index, *answer)), budget)
    return Result.from_search(spec, found, solutions, infeasible=f"no pair of words at exactly {spec.par} steps",
                              what="ladder puzzle", stats=stats, asked=spec.count)


def _words(n: int) -> str:
    return f"{n:,} word" + ("" if n == 1 else "s")


def _solution(index: LadderIndex, spec: LadderSpec, ids: list[int], mode: Literal["shortest", "common"]) -> LadderSolution:
    words = [index.words[i] for i in ids]
    rareness = [index.rareness[i] for i in ids]
    definitions = None
    if spec.define:
        from cpwords.lexicon import define

        definitions = [define(w) for w in words]
    return LadderSolution.trusted({
        "words": words, "mode": mode, "steps": len(ids) - 1, "rareness": sum(rareness[1:]),
        "word_rareness": rareness, "definitions": definitions,
    })


def _word_id(index: LadderIndex, spec: LadderSpec, field: str) -> int:
    word = getattr(spec, field)
    try:
        return index.id_of(word)
    except KeyError:
        pass
    from cpwords.puzzles.ladder.suggest import nearest_words

    near = nearest_words(index, word)
    hint = f"; nearest dictionary words: {', '.join(near)}" if near else ""
    raise InputError(f"not a word of {index.label}{hint}", field=field, value=word) from None
