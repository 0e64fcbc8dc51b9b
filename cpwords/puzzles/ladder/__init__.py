"""Word ladders: change START into TARGET one letter at a time, every step a dictionary word.

Native engine only: links and groups are precomputed per dictionary (:mod:`.index`), a shortest
ladder comes from a bidirectional breadth-first search and a least-rare ladder from Dijkstra
(:mod:`.search`). No CP solver is imported on this path.

>>> from cpwords import api
>>> api.solve({"kind": "ladder", "start": "cold", "target": "warm"}).solutions[0].steps  # doctest: +SKIP
4
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpwords.results import Result, Status

if TYPE_CHECKING:
    from cpwords.puzzles.ladder.index import LadderIndex
    from cpwords.puzzles.ladder.solution import LadderSolution
    from cpwords.puzzles.ladder.spec import LadderSpec

ENGINES = ("native",)


def solve(spec: LadderSpec) -> Result:
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
    import random

    from cpwords.puzzles.ladder.search import (
        least_rare_ladders,
        meet_in_the_middle,
        random_shortest_ladder,
        shortest_ladder_graph,
    )
    from cpwords.puzzles.ladder.store import load_index

    index = load_index(spec.dictionary)
    start, target = (_word_id(index, spec, field) for field in ("start", "target"))
    group, target_group = index.group[start], index.group[target]
    result = Result(kind="ladder", status=Status.OPTIMAL, engine=spec.engine, task=spec.mode)
    stats = result.stats  # (the model keeps its own copy of a dict passed in)
    stats.update(dictionary=index.label, group=group, group_size=index.group_size(group))
    if group != target_group:
        result.status = Status.INFEASIBLE
        result.message = (
            f"no ladder: {spec.start.upper()} is in group {group} with {_words(index.group_size(group))}, "
            f"{spec.target.upper()} in group {target_group} with {_words(index.group_size(target_group))}"
        )
        stats["target_group"] = target_group
        stats["target_group_size"] = index.group_size(target_group)
        return result
    neighbours = index.adjacency(group).__getitem__  # only this group's words are ever touched
    rng = random.Random(spec.seed)
    if spec.mode in ("shortest", "both"):
        meeting = meet_in_the_middle(neighbours, start, target)
        assert meeting is not None, "same group, so connected"
        if spec.all_shortest:
            graph = shortest_ladder_graph(meeting, neighbours)
            ladders = list(graph.ladders(index.words.__getitem__, limit=spec.limit))
            result.count, result.count_exact = graph.count, True
            stats["shortest_count"] = graph.count
            stats["listed"] = len(ladders)
        else:
            ladders = [random_shortest_ladder(meeting, neighbours, rng)]
        result.solutions += [_solution(index, spec, ids, "shortest") for ids in ladders]
        result.objective = meeting.steps
    if spec.mode in ("common", "both"):
        common = least_rare_ladders(neighbours, index.rareness, start, target, index.landmarks)
        assert common is not None, "same group, so connected"
        stats["least_rare_count"] = common.count
        result.solutions.append(_solution(index, spec, common.sample(rng), "common"))
        if spec.mode == "common":
            result.objective = common.cost
    return result


def _words(n: int) -> str:
    return f"{n:,} word" + ("" if n == 1 else "s")


def _solution(index: LadderIndex, spec: LadderSpec, ids: list[int], mode: str) -> LadderSolution:
    from cpwords.puzzles.ladder.solution import LadderSolution

    words = [index.words[i] for i in ids]
    rareness = [index.rareness[i] for i in ids]
    definitions = None
    if spec.define:
        from cpwords.lexicon import define

        definitions = [define(w) for w in words]
    return LadderSolution(
        words=words, mode=mode, steps=len(ids) - 1, rareness=sum(rareness[1:]), word_rareness=rareness,
        definitions=definitions,
    )


def _word_id(index: LadderIndex, spec: LadderSpec, field: str) -> int:
    from cpwords.errors import InputError

    word = getattr(spec, field)
    try:
        return index.id_of(word)
    except KeyError:
        pass
    from cpwords.puzzles.ladder.suggest import nearest_words

    near = nearest_words(index, word)
    hint = f"; nearest dictionary words: {', '.join(near)}" if near else ""
    raise InputError(f"not a word of {index.label}{hint}", field=field, value=word) from None
