"""A ladder spec's two hooks of the registry's pipeline: find the two words; turn what the search
found into the one Result.

>>> import cpwords
>>> cpwords.solve({"kind": "ladder", "start": "cold", "target": "warm", "seed": 1}).solutions[0].steps
4
"""

from __future__ import annotations

from typing import Any, Literal

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.errors import InputError
from cpwords.puzzles import Prepared
from cpwords.puzzles.ladder.index import LadderIndex
from cpwords.puzzles.ladder.native import LadderProblem
from cpwords.puzzles.ladder.solution import LadderSolution
from cpwords.puzzles.ladder.spec import LadderSpec
from cpwords.results import Result
from cpwords.wording import counted


def prepare(spec: LadderSpec, budget: Budget | None = None) -> Prepared:
    """The dictionary's ladder index and the two words (generate: the index alone, offensive words
    left out unless the spec sets ``exclude``); nothing to search when the words are in different
    groups.

    Raises
    ------
    InputError
        A word that is not in the dictionary (with the nearest dictionary words as suggestions),
        or a dictionary that cannot be loaded.
    """
    from cpwords.puzzles.ladder.store import load_index

    if spec.mode == "generate":
        from cpwords.lexicon.exclude import GENERATING_EXCLUDE
        from cpwords.puzzles.ladder.generate import GenerateProblem

        index = load_index(spec.dictionary.with_default_exclude(GENERATING_EXCLUDE))
        start = _word_id(index, spec, "start") if spec.start is not None else None
        return Prepared(GenerateProblem(index, start),
                        {"dictionary": spec.dictionary.label(), "par": spec.par, "length": spec.length})
    index = load_index(spec.dictionary)
    start, target = (_word_id(index, spec, field) for field in ("start", "target"))
    group, target_group = index.group[start], index.group[target]
    stats = {"dictionary": spec.dictionary.label(), "group": group, "group_size": index.group_size(group)}
    problem = LadderProblem(index, start, target)
    if group != target_group:
        stats |= {"target_group": target_group, "target_group_size": index.group_size(target_group)}
        reason = (f"no ladder: {index.words[start].upper()} is in group {group} with {_words(index.group_size(group))}, "
                  f"{index.words[target].upper()} in group {target_group} with {_words(index.group_size(target_group))}")
        return Prepared(problem, stats, Found(message=reason))
    return Prepared(problem, stats)


def result(spec: LadderSpec, problem: Any, found: Found, stats: dict[str, Any], budget: Budget) -> Result:
    """The Result of what the search found: the shortest and/or least-rare ladder (status ``optimal``:
    BFS and Dijkstra are exact), or ``infeasible`` when the two words are in different groups."""
    index = problem.index
    if spec.mode == "generate":
        from cpwords.puzzles.ladder.generate import solution_fields

        solutions = found.convert(lambda answer: LadderSolution.model_validate(solution_fields(index, *answer)))
        return Result.from_search(spec, found, solutions, infeasible=f"no pair of words at exactly {counted(spec.par, 'step')}",
                                  what="ladder puzzle", stats=stats, asked=spec.count)
    solutions = found.convert(lambda answer: _solution(index, spec, answer[1], answer[0]))
    return Result.from_search(spec, found, solutions, infeasible=found.message or "no ladder", what="ladder",
                              stats=stats)


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
    longest = max(map(len, index.words), default=0)
    if len(word) > longest:  # nothing near it to suggest; looking would cost time and memory
        raise InputError(f"not a word of {index.label}: it has {len(word):,} letters, the dictionary's longest "
                         f"word {longest}", field=field, value=word)
    from cpwords.puzzles.ladder.suggest import nearest_words

    near = nearest_words(index, word)
    hint = f"; nearest dictionary words: {', '.join(near)}" if near else ""
    raise InputError(f"not a word of {index.label}{hint}", field=field, value=word) from None
