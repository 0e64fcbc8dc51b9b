"""``mode: generate``: ladder puzzles (Weaver-style: start, target, par) for players.

Each puzzle is a pair of words whose shortest ladder through the dictionary is exactly ``par``
steps: a start word drawn by seed (or the spec's), a breadth-first search from it over the
dictionary's links (exact distances), and a target drawn among the words at distance ``par``.
The answer shown is the least rare of the shortest ladders (ties drawn by seed), with the number
of shortest ladders: fewer means fewer ways through, a harder puzzle. Pure Python; no process.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.puzzles.ladder.index import LadderIndex
from cpwords.puzzles.ladder.search import (
    least_rare_shortest_ladders,
    meet_in_the_middle,
    shortest_ladder_graph,
)
from cpwords.results import Difficulty, difficulty_level

#: Start words drawn per puzzle asked for before giving up.
STARTS_PER_PUZZLE = 60
#: Difficulty bands of a ladder's score: medium from 25 (8 shortest ladders or fewer), hard from
#: 50 (one or two).
DIFFICULTY_BANDS = (25.0, 50.0)


@dataclass
class GenerateProblem:
    """The dictionary's ladder index, and the start word id when the spec fixes it."""

    index: LadderIndex
    start: int | None


def distances_from(index: LadderIndex, start: int, most: int) -> list[set[int]]:
    """The words at each distance 0..``most`` from ``start`` (breadth-first layers)."""
    neighbours = index.adjacency(index.group[start])
    layers = [{start}]
    seen = {start}
    while len(layers) <= most and layers[-1]:
        nxt = {w for v in layers[-1] for w in neighbours[v] if w not in seen}
        seen |= nxt
        layers.append(nxt)
    return layers


def ladder_difficulty(ladders: int, par: int, rareness: int) -> Difficulty:
    """How hard a ladder puzzle is: ``score = 100 / (1 + log2(shortest ladders))`` (one way
    through: 100; two: 50; eight: 25); figures: the shortest ladders, par, and the rareness of the
    least-rare one."""
    score = round(100 / (1 + math.log2(ladders)), 1)
    return Difficulty(level=difficulty_level(score, *DIFFICULTY_BANDS), score=score,
                      figures={"shortest_ladders": ladders, "par": par, "rareness": rareness})


def generate(problem: GenerateProblem, spec: Any, budget: Budget) -> Found:
    """``spec.count`` different start-target pairs at exactly ``spec.par`` steps. Start words are
    tried once each in random order (at most :data:`STARTS_PER_PUZZLE` per puzzle), so when every
    start word was tried the search is complete: no other pair exists.

    Answers are ``(word ids of the least-rare shortest ladder, number of shortest ladders)``.
    """
    index = problem.index
    rng = random.Random(spec.seed)
    if problem.start is not None:
        pool = [problem.start]
    else:
        pool = [i for i, w in enumerate(index.words) if len(w) == spec.length and index.degree(i) > 0]
    found = Found(stats={"starts_tried": 0, "candidates": len(pool)})
    if not pool:
        found.message = f"the dictionary has no {spec.length}-letter word with a one-letter neighbour"
        return found
    pairs: set[frozenset[int]] = set()
    rng.shuffle(pool)  # starts in random order, each tried once: a small dictionary is searched through
    cap = STARTS_PER_PUZZLE * spec.count
    for start in pool:
        if len(found.answers) == spec.count:
            break
        if found.stats["starts_tried"] == cap:
            found.stop("limit")
            break
        if budget.expired():
            return found.stop(budget.reason)
        found.stats["starts_tried"] += 1
        layers = distances_from(index, start, spec.par)
        far = sorted(layers[spec.par]) if len(layers) > spec.par else []
        rng.shuffle(far)
        # one pair a start for variety; a fixed start gives every pair
        wanted = spec.count - len(found.answers) if problem.start is not None else 1
        for target in [w for w in far if frozenset((start, w)) not in pairs][:wanted]:
            found.answers.append(_puzzle(index, start, target, spec.par, rng))
            pairs.add(frozenset((start, target)))
    if len(found.answers) < spec.count:
        tried = found.stats["starts_tried"]
        found.message = (f"found {len(found.answers)} of the {spec.count} pairs asked for at exactly {spec.par} steps "
                         + ("(every start word tried: there are no more)" if found.complete else
                            f"in {tried} start words; try a smaller par or another length"))
        if not found.answers:
            found.message = None if found.complete else found.message  # infeasible: the standard reason
    return found


def _puzzle(index: LadderIndex, start: int, target: int, par: int, rng: random.Random) -> tuple[list[int], int]:
    """The least-rare shortest ladder from ``start`` to ``target`` and the number of shortest ladders."""
    neighbours = index.adjacency(index.group[start]).__getitem__
    meeting = meet_in_the_middle(neighbours, start, target)
    assert meeting is not None and meeting.steps == par, "BFS layers and the meeting agree"
    shortest = shortest_ladder_graph(meeting, neighbours)
    least, _ = least_rare_shortest_ladders(shortest, index.rareness)
    return least.sample(rng), shortest.count


def solution_fields(index: LadderIndex, ids: list[int], ladders: int) -> dict[str, Any]:
    """The LadderSolution fields of one generated puzzle."""
    rareness = [index.rareness[i] for i in ids]
    return {"words": [index.words[i] for i in ids], "mode": "shortest", "steps": len(ids) - 1,
            "rareness": sum(rareness[1:]), "word_rareness": rareness, "definitions": None, "ladders": ladders,
            "difficulty": ladder_difficulty(ladders, len(ids) - 1, sum(rareness[1:]))}
