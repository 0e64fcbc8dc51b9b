"""Ladder searches over a :class:`~cpwords.puzzles.ladder.index.LadderIndex` (word ids in, word ids out).

- :func:`shortest_ladders`: bidirectional breadth-first search by whole layers (set operations run
  in C), then the layered graph of *every* shortest ladder, with exact path counts on it.
- :func:`least_rare_ladders`: Dijkstra (heap queue) on the total rareness of the words after the
  start, then the graph of every least-rare ladder, with counts.
- :func:`least_rare_shortest_ladders`: among the shortest ladders, those of least total rareness
  (what ``cpwords ladder`` shows as "the shortest ladder").

Each gives a :class:`~cpwords.puzzles.ladder.graph.LadderGraph` (sampling, listing, counts and
:func:`~cpwords.puzzles.ladder.graph.fewest_steps` are in :mod:`.graph`; both are importable from here too).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Protocol

from cpwords.puzzles.ladder.graph import LadderGraph, fewest_steps

__all__ = ["Costs", "LadderGraph", "Meeting", "Neighbours", "fewest_steps", "least_rare_ladders",
           "least_rare_shortest_ladders", "meet_in_the_middle", "random_shortest_ladder",
           "shortest_ladder_graph", "shortest_ladders"]

Neighbours = Callable[[int], Sequence[int]]


class Costs(Protocol):
    """A word's cost by id: a list of rareness, or anything indexable like one."""

    def __getitem__(self, v: int, /) -> int: ...


def _union_of_neighbours(neighbours: Neighbours, nodes: set[int]) -> set[int]:
    return set(chain.from_iterable(map(neighbours, nodes)))


@dataclass
class Meeting:
    """Where a bidirectional breadth-first search met: the layers grown from both ends.

    ``from_start[i]`` holds the words at distance i from the start, ``from_target[j]`` those at
    distance j from the target; ``middle`` the words of ``from_start[-1]`` that touch the target side
    (the words at position ``len(from_start) - 1`` of every shortest ladder).
    """

    start: int
    target: int
    from_start: list[set[int]]
    from_target: list[set[int]]
    middle: set[int]

    @property
    def steps(self) -> int:
        """Length of the shortest ladders, in changes."""
        return len(self.from_start) + len(self.from_target) - 2


def meet_in_the_middle(neighbours: Neighbours, start: int, target: int) -> Meeting | None:
    """Bidirectional breadth-first search by whole layers; None when there is no ladder.

    The side with the smaller frontier grows by one whole layer (set operations, run in C) until
    the new layer touches the other side's frontier. The balls grown so far were disjoint, so the
    touching words are exactly the middle words of all the shortest ladders.

    Parameters
    ----------
    neighbours:
        ``neighbours(v)``: ids of the words one letter away from word ``v`` (fastest as a list's
        ``__getitem__``).
    start, target:
        Word ids.

    Example
    -------
    >>> adj = [[1], [0, 2, 3], [1, 4], [1, 4], [2, 3]]  # cat, cot, cog, dot, dog
    >>> m = meet_in_the_middle(adj.__getitem__, 0, 4)
    >>> m.steps, sorted(m.middle)
    (3, [2, 3])
    """
    if start == target:
        return Meeting(start, target, [{start}], [{target}], {start})
    from_start: list[set[int]] = [{start}]
    from_target: list[set[int]] = [{target}]
    while True:
        if len(from_start[-1]) <= len(from_target[-1]):
            layers, other = from_start, from_target
        else:
            layers, other = from_target, from_start
        # Links of layer k reach layers k-1, k and k+1 only. (``a -= b`` walks b: the smaller set.)
        frontier = layers[-1]
        if len(frontier) == 1:
            new = set(neighbours(next(iter(frontier))))
        else:
            new = set(chain.from_iterable(map(neighbours, frontier)))
            new -= frontier
        if len(layers) > 1:
            new -= layers[-2]
        if not new:
            return None
        layers.append(new)
        if not new.isdisjoint(other[-1]):
            # From either side, the middle words are in from_start[-1] and from_target[-1].
            return Meeting(start, target, from_start, from_target, new & other[-1])


def random_shortest_ladder(meeting: Meeting, neighbours: Neighbours, rng: random.Random) -> list[int]:
    """One shortest ladder: a random middle word, then random steps back to the start and on to
    the target, each among all the words that keep the ladder shortest. Every shortest ladder
    has a chance to come out (the choice is uniform at each step, not over whole ladders; use
    :meth:`LadderGraph.sample` for uniform over ladders).
    """
    at = len(meeting.from_start) - 1
    v = _pick(meeting.middle, rng)
    ladder = [v]
    for layer in reversed(meeting.from_start[:at]):  # towards the start
        v = _pick(layer.intersection(neighbours(v)), rng)
        ladder.append(v)
    ladder.reverse()
    v = ladder[-1]
    for layer in reversed(meeting.from_target[: meeting.steps - at]):  # towards the target
        v = _pick(layer.intersection(neighbours(v)), rng)
        ladder.append(v)
    return ladder


def _pick(choices: set[int], rng: random.Random) -> int:
    """A random member of a non-empty set, the same one for the same seed (sorted first)."""
    if len(choices) == 1:
        (v,) = choices
        return v
    ordered = sorted(choices)
    return ordered[int(rng.random() * len(ordered))]


def shortest_ladder_graph(meeting: Meeting, neighbours: Neighbours) -> LadderGraph:
    """The layered graph of every shortest ladder, with the number of ladders to each word.

    Example
    -------
    >>> adj = {0: [1], 1: [0, 2, 3], 2: [1, 4], 3: [1, 4], 4: [2, 3]}
    >>> g = shortest_ladders(adj.__getitem__, 0, 4)
    >>> g.cost, g.count
    (3, 2)
    """
    start, steps = meeting.start, meeting.steps
    at = len(meeting.from_start) - 1
    positions: list[set[int]] = [set() for _ in range(steps + 1)]
    positions[at] = meeting.middle
    for i in range(at - 1, -1, -1):
        positions[i] = meeting.from_start[i] & _union_of_neighbours(neighbours, positions[i + 1])
    for i in range(at + 1, steps + 1):
        positions[i] = meeting.from_target[steps - i] & _union_of_neighbours(neighbours, positions[i - 1])
    preds: dict[int, list[int]] = {start: []}
    paths: dict[int, int] = {start: 1}
    for i in range(1, steps + 1):
        before = positions[i - 1]
        for v in positions[i]:
            us = [u for u in neighbours(v) if u in before]
            preds[v] = us
            paths[v] = sum(paths[u] for u in us)
    return LadderGraph(start, meeting.target, preds, paths, steps)


def least_rare_shortest_ladders(graph: LadderGraph, rareness: Costs) -> tuple[LadderGraph, int]:
    """Among the shortest ladders of ``graph`` (from :func:`shortest_ladder_graph`), those of least
    total rareness (the words after the start), as a graph with counts; and that rareness.

    A shortest path on the layered graph: each word keeps only the predecessors that give it its
    least rareness, layer by layer (``graph.preds`` lists words in layer order), so sampling the
    result draws uniformly among the least-rare shortest ladders.

    Example
    -------
    >>> adj = {0: [1, 2], 1: [0, 3], 2: [0, 3], 3: [1, 2]}
    >>> m = meet_in_the_middle(adj.__getitem__, 0, 3)
    >>> g, cost = least_rare_shortest_ladders(shortest_ladder_graph(m, adj.__getitem__), [1, 9, 2, 1])
    >>> cost, g.count, g.sample(random.Random(0))
    (3, 1, [0, 2, 3])
    """
    cost: dict[int, int] = {}
    preds: dict[int, list[int]] = {}
    paths: dict[int, int] = {}
    for v, us in graph.preds.items():  # layer order: every predecessor comes first
        if not us:
            cost[v], preds[v], paths[v] = 0, [], 1
            continue
        best = min(cost[u] for u in us)
        cost[v] = best + rareness[v]
        preds[v] = [u for u in us if cost[u] == best]
        paths[v] = sum(paths[u] for u in preds[v])
    return LadderGraph(graph.start, graph.target, preds, paths, graph.cost), cost[graph.target]


def shortest_ladders(neighbours: Neighbours, start: int, target: int) -> LadderGraph | None:
    """Every shortest ladder (:func:`meet_in_the_middle`, then :func:`shortest_ladder_graph`); None when none."""
    meeting = meet_in_the_middle(neighbours, start, target)
    return None if meeting is None else shortest_ladder_graph(meeting, neighbours)


def least_rare_ladders(
    neighbours: Neighbours,
    rareness: Sequence[int],
    start: int,
    target: int,
    landmarks: Sequence[Sequence[int]] = (),
) -> LadderGraph | None:
    """All ladders of least total rareness (the words after the start; the start costs nothing).

    A* (Dijkstra with a heap queue, steered by landmark bounds when given; see :mod:`.landmarks`).
    The bound is consistent, so a word's cost is final when it leaves the queue; the search goes
    on until the queue holds only words that cannot be on an optimal ladder, so that every
    optimal ladder is in the returned graph.

    Parameters
    ----------
    neighbours:
        ``neighbours(v)``: ids of the words one letter away from word ``v``.
    rareness:
        Rareness of every word (>= 1).
    start, target:
        Word ids.
    landmarks:
        Tables of landmark distances (each indexed by word id); empty: plain Dijkstra.

    Returns
    -------
    LadderGraph with ``cost`` = total rareness, or None when the words are not connected.

    Example
    -------
    >>> adj = [[1, 2], [0, 3], [0, 3], [1, 2]]
    >>> g = least_rare_ladders(adj.__getitem__, [1, 5, 2, 1], 0, 3)
    >>> g.cost, g.count, g.sample(random.Random(0))
    (3, 1, [0, 2, 3])
    """
    offset = _astar_offset(rareness, start, target, landmarks)
    cost, settled = _least_rare_costs(neighbours, rareness, start, target, offset)
    if target not in settled:
        return None
    preds = _tight_links(neighbours, rareness, cost, settled, start, target)
    paths: dict[int, int] = {}
    for v in sorted(preds, key=cost.__getitem__):
        paths[v] = sum(paths[u] for u in preds[v]) if preds[v] else 1
    return LadderGraph(start, target, preds, paths, cost[target])


def _astar_offset(rareness: Sequence[int], start: int, target: int,
                  landmarks: Sequence[Sequence[int]]) -> Callable[[int], int]:
    """``offset(v)``, the part of a word's key in the queue that does not depend on its cost.

    Keys are doubled costs plus the bound, kept in integers:
      key(v) = 2 cost(v) + max_L |D(L, t) - D(L, v)| - rareness(v)
    (the constant rareness(t) is left out; see landmarks.py for why this bound is consistent).
    """
    tables = [(table, table[target]) for table in landmarks if table[target] or table[start]]
    if len(tables) == 4:  # the index's case, spelt out: this runs once per word reached
        (t0, a0), (t1, a1), (t2, a2), (t3, a3) = tables

        def offset(v: int) -> int:
            return max(abs(a0 - t0[v]), abs(a1 - t1[v]), abs(a2 - t2[v]), abs(a3 - t3[v])) - rareness[v]
    elif tables:
        def offset(v: int) -> int:
            return max([abs(t_d - table[v]) for table, t_d in tables]) - rareness[v]
    else:  # no landmarks for this group (a small one): plain Dijkstra
        def offset(v: int) -> int:
            return -rareness[v]
    return offset


def _least_rare_costs(neighbours: Neighbours, rareness: Sequence[int], start: int, target: int,
                      offset: Callable[[int], int]) -> tuple[dict[int, int], set[int]]:
    """The A* search itself: the least cost of every word reached, and the words settled (whose
    cost is final). It runs on past the target until every word left in the queue has a key above
    the target's, so that every word of every optimal ladder is settled."""
    cost = {start: 0}
    offsets = {start: offset(start)}  # key(v) = 2 cost(v) + offsets[v]
    settled: set[int] = set()
    heap = [(offsets[start], 0, start)]
    push, pop = heapq.heappush, heapq.heappop
    stop_key = None
    while heap:
        k, d, v = pop(heap)
        if stop_key is not None and k > stop_key:
            break
        if v in settled:
            continue
        settled.add(v)
        if v == target:
            stop_key = k  # every word of an optimal ladder has a key <= this one
            continue
        for w in neighbours(v):
            if w not in settled:
                nd = d + rareness[w]
                old = cost.get(w)
                if old is None:
                    cost[w] = nd
                    h = offsets[w] = offset(w)
                    push(heap, (2 * nd + h, nd, w))
                elif nd < old:
                    cost[w] = nd
                    push(heap, (2 * nd + offsets[w], nd, w))
    return cost, settled


def _tight_links(neighbours: Neighbours, rareness: Sequence[int], cost: dict[int, int], settled: set[int],
                 start: int, target: int) -> dict[int, list[int]]:
    """The predecessors of every word on an optimal ladder, walking back from the target: the
    optimal ladders use only "tight" links u -> v with cost[u] + rareness[v] == cost[v]."""
    preds: dict[int, list[int]] = {}
    frontier = [target]
    while frontier:
        nxt = []
        for v in frontier:
            if v in preds:
                continue
            if v == start:
                preds[v] = []
                continue
            need = cost[v] - rareness[v]
            us = [u for u in neighbours(v) if u in settled and cost[u] == need]
            preds[v] = us
            nxt.extend(us)
        frontier = nxt
    return preds
