"""The native engine of word ladders: one function per task (the spec's ``mode``).

Each takes the :class:`LadderProblem` (the index and the two word ids, known to be in one group),
the spec and the run's budget, and returns a :class:`~cpwords.engines.found.Found` whose answers
are ``(mode, word ids)`` pairs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.puzzles.ladder.index import LadderIndex
from cpwords.puzzles.ladder.search import (
    least_rare_ladders,
    least_rare_shortest_ladders,
    meet_in_the_middle,
    random_shortest_ladder,
    shortest_ladder_graph,
)


@dataclass
class LadderProblem:
    """A ladder question made concrete: the dictionary's index and the start and target ids."""

    index: LadderIndex
    start: int
    target: int

    @property
    def neighbours(self) -> Callable[[int], Sequence[int]]:
        """Links of a word; only the start's group is ever touched."""
        return self.index.adjacency(self.index.group[self.start]).__getitem__


def shortest(problem: LadderProblem, spec: Any, budget: Budget, rng: random.Random | None = None) -> Found:
    """A shortest ladder: by default the least rare of them (random among equals, by seed); with
    ``shortest_pick: random`` any of them, by seed; with ``all_shortest`` every one of them (up to
    ``limit``) and their exact number. Bidirectional BFS is exact: proved optimal."""
    rng = rng or random.Random(spec.seed)
    neighbours = problem.neighbours
    meeting = meet_in_the_middle(neighbours, problem.start, problem.target)
    assert meeting is not None, "same group, so connected"
    found = Found(objective=meeting.steps)
    if spec.all_shortest:
        graph = shortest_ladder_graph(meeting, neighbours)
        found.answers = [("shortest", ids) for ids in graph.ladders(problem.index.words.__getitem__, limit=spec.limit)]
        found.count = graph.count
        found.stats = {"shortest_count": graph.count, "listed": len(found.answers)}
    elif getattr(spec, "shortest_pick", "least_rare") == "random":
        found.answers = [("shortest", random_shortest_ladder(meeting, neighbours, rng))]
    else:
        graph, _ = least_rare_shortest_ladders(shortest_ladder_graph(meeting, neighbours), problem.index.rareness)
        found.answers = [("shortest", graph.sample(rng))]
        found.stats = {"least_rare_shortest_count": graph.count}
    return found


def common(problem: LadderProblem, spec: Any, budget: Budget, rng: random.Random | None = None) -> Found:
    """A least-rare ladder (least total rareness of the words after the start; random among equals,
    by seed), by Dijkstra with landmark bounds: proved optimal."""
    rng = rng or random.Random(spec.seed)
    graph = least_rare_ladders(problem.neighbours, problem.index.rareness, problem.start, problem.target,
                               problem.index.landmarks)
    assert graph is not None, "same group, so connected"
    return Found(answers=[("common", graph.sample(rng))], objective=graph.cost,
                 stats={"least_rare_count": graph.count})


def both(problem: LadderProblem, spec: Any, budget: Budget) -> Found:
    """One shortest ladder (or all of them) and one least-rare ladder, from one random stream."""
    rng = random.Random(spec.seed)
    first = shortest(problem, spec, budget, rng)
    second = common(problem, spec, budget, rng)
    first.answers += second.answers
    first.stats |= second.stats
    return first


def generate(problem: Any, spec: Any, budget: Budget) -> Found:
    """Ladder puzzles at exactly ``par`` steps (see :mod:`.generate`)."""
    from cpwords.puzzles.ladder.generate import generate as make

    return make(problem, spec, budget)
