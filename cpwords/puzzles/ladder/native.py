"""The native engine of word ladders: one function per task (the spec's ``mode``).

Each takes the :class:`LadderProblem` (the index and the two word ids, known to be in one group),
the spec and the run's budget, and returns a :class:`~cpwords.engines.found.Found` whose answers
are ``(mode, word ids)`` pairs.

Ladders a person would pick: the shortest ladder is, among the shortest, one without an offensive
word (the ``offensive`` list) between start and target if any exists, then the least rare; the
common ladder avoids offensive words unless no ladder does (then its message says so), and among
the least-rare ladders takes one with the fewest steps.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.lexicon import offensive_words
from cpwords.puzzles.ladder.index import LadderIndex
from cpwords.puzzles.ladder.search import (
    LadderGraph,
    fewest_steps,
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

    @cached_property
    def offensive(self) -> frozenset[int]:
        """Ids of the dictionary's offensive words, start and target left out (they are given)."""
        ids = set()
        for word in offensive_words():
            try:
                ids.add(self.index.id_of(word))
            except KeyError:
                continue
        return frozenset(ids - {self.start, self.target})


class _Penalised:
    """Rareness plus ``penalty`` for each offensive word: a least-rare search then avoids them first."""

    def __init__(self, rareness: Sequence[int], offensive: frozenset[int], penalty: int) -> None:
        self.rareness, self.offensive, self.penalty = rareness, offensive, penalty

    def __getitem__(self, v: int) -> int:
        return self.rareness[v] + (self.penalty if v in self.offensive else 0)


def _offensive_in(ladder: list[int], problem: LadderProblem) -> list[str]:
    return [problem.index.words[v] for v in ladder if v in problem.offensive]


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
        graph = shortest_ladder_graph(meeting, neighbours)
        rareness = problem.index.rareness
        # A penalty above any ladder's total rareness: fewer offensive words first, then less rareness.
        penalty = 1 + (meeting.steps + 1) * max(rareness[v] for v in graph.preds)
        graph, _ = least_rare_shortest_ladders(graph, _Penalised(rareness, problem.offensive, penalty))
        ladder = graph.sample(rng)
        found.answers = [("shortest", ladder)]
        found.stats = {"least_rare_shortest_count": graph.count}
        if bad := _offensive_in(ladder, problem):
            found.stats["shortest_offensive"] = bad
    return found


def common(problem: LadderProblem, spec: Any, budget: Budget, rng: random.Random | None = None) -> Found:
    """A least-rare ladder (least total rareness of the words after the start; random among equals,
    by seed), by Dijkstra with landmark bounds: proved optimal."""
    rng = rng or random.Random(spec.seed)
    neighbours, bad = problem.neighbours, problem.offensive
    # Without the offensive words: fewer links only lengthen distances, so the landmark bounds hold.
    graph = least_rare_ladders(lambda v: [w for w in neighbours(v) if w not in bad], problem.index.rareness,
                               problem.start, problem.target, _landmarks(problem)) if bad else None
    forced = graph is None and bool(bad)
    if graph is None:
        graph = _least_rare(problem)
    short = fewest_steps(graph)
    found = Found(answers=[("common", short.sample(rng))], objective=graph.cost,
                  stats={"least_rare_count": graph.count, "least_rare_fewest_steps_count": short.count})
    if forced:
        words = _offensive_in(found.answers[0][1], problem)
        found.stats["common_offensive"] = words
        found.message = f"every ladder goes through an offensive word; the common ladder uses {', '.join(words)}"
    return found


def _least_rare(problem: LadderProblem) -> LadderGraph:
    graph = least_rare_ladders(problem.neighbours, problem.index.rareness, problem.start, problem.target,
                               _landmarks(problem))
    assert graph is not None, "same group, so connected"
    return graph


def _landmarks(problem: LadderProblem) -> list[array]:
    return problem.index.landmarks(problem.index.group[problem.start])


def both(problem: LadderProblem, spec: Any, budget: Budget) -> Found:
    """One shortest ladder (or all of them) and one least-rare ladder, from one random stream."""
    rng = random.Random(spec.seed)
    first = shortest(problem, spec, budget, rng)
    second = common(problem, spec, budget, rng)
    first.answers += second.answers
    first.stats |= second.stats
    first.message = " ".join(m for m in (first.message, second.message) if m) or None
    return first


def generate(problem: Any, spec: Any, budget: Budget) -> Found:
    """Ladder puzzles at exactly ``par`` steps (see :mod:`.generate`)."""
    from cpwords.puzzles.ladder.generate import generate as make

    return make(problem, spec, budget)
