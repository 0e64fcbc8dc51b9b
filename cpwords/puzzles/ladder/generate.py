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
from dataclasses import dataclass, field
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
from cpwords.wording import counted

#: Targets kept for the rounds after the first, per puzzle asked for (and at most ``count`` a
#: start). Keeping fewer than all is safe: a kept target is unusable only when its pair was made,
#: and each pair made uses up at most two kept targets (its own and the same pair seen from the
#: other word), so ``3 × count`` kept targets (or ``count`` of one start) always make ``count``
#: puzzles. A search that ends short therefore kept, and tried, every target of every start.
LATER_TARGETS_PER_PUZZLE = 3
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
    """``spec.count`` different start-target pairs at exactly ``spec.par`` steps, until the budget
    ends. Start words are tried in random order, one target each (variety: many starts); when
    more pairs are asked for than that gives, the other targets of those starts come next, one a
    start a round. The search ends short only when every start word was tried and every target
    of each was taken: then no other pair exists (:data:`LATER_TARGETS_PER_PUZZLE` says why
    keeping a few of them is enough).

    Answers are ``(word ids of the least-rare shortest ladder, number of shortest ladders)``.
    """
    rng = random.Random(spec.seed)
    if problem.start is not None:
        pool = [problem.start]
    else:
        index = problem.index
        pool = [i for i, w in enumerate(index.words) if len(w) == spec.length and index.degree(i) > 0]
    found = Found(stats={"starts_tried": 0, "candidates": len(pool)})
    if not pool:
        found.message = f"the dictionary has no {spec.length}-letter word with a one-letter neighbour"
        return found
    pairs = _Pairs(problem.index, spec.par, rng, found)
    rng.shuffle(pool)
    later = _first_round(pairs, pool, spec, budget)
    if later is None or not _later_rounds(pairs, later, spec.count, budget):
        return found
    if 0 < len(found.answers) < spec.count:
        steps = counted(spec.par, "step")
        found.message = (f"every {spec.length}-letter start word was tried with each of its targets at {steps}: "
                         "there are no more" if problem.start is None else
                         f"every target at {steps} was tried: there are no more")
    return found


@dataclass
class _Pairs:
    """The puzzles made so far (in ``found``) and their start-target pairs."""

    index: LadderIndex
    par: int
    rng: random.Random
    found: Found
    made: set[frozenset[int]] = field(default_factory=set)

    def take(self, start: int, targets: list[int]) -> list[int]:
        """Make the puzzle of the first target not paired with ``start`` yet; the targets after it."""
        for k, target in enumerate(targets):
            if frozenset((start, target)) not in self.made:
                self.made.add(frozenset((start, target)))
                self.found.answers.append(_puzzle(self.index, start, target, self.par, self.rng))
                return targets[k + 1:]
        return []


def _first_round(pairs: _Pairs, pool: list[int], spec: Any, budget: Budget) -> list[tuple[int, list[int]]] | None:
    """Round one: one target a start, starts in ``pool``'s order. Returns the starts with targets
    kept for the rounds after, or None when the search is over (enough puzzles, or the budget
    ended)."""
    found = pairs.found
    later: list[tuple[int, list[int]]] = []
    kept = 0
    for start in pool:
        if len(found.answers) == spec.count:
            return None
        if budget.expired():
            found.stop(budget.reason)
            return None
        found.stats["starts_tried"] += 1
        layers = distances_from(pairs.index, start, spec.par)
        far = sorted(layers[spec.par]) if len(layers) > spec.par else []
        pairs.rng.shuffle(far)
        rest = pairs.take(start, far)
        if rest and kept < LATER_TARGETS_PER_PUZZLE * spec.count:
            later.append((start, rest[:spec.count]))
            kept += min(len(rest), spec.count)
    return later


def _later_rounds(pairs: _Pairs, later: list[tuple[int, list[int]]], count: int, budget: Budget) -> bool:
    """The rounds after the first: the other targets kept, one a start a round, until ``count``
    puzzles; False when the budget ended first."""
    found = pairs.found
    while later and len(found.answers) < count:
        next_round = []
        for start, targets in later:
            if len(found.answers) == count:
                break
            if budget.expired():
                found.stop(budget.reason)
                return False
            rest = pairs.take(start, targets)
            if rest:
                next_round.append((start, rest))
        later = next_round
    return True


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
