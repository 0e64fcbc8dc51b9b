"""The graph of every optimal ladder between two words (word ids), with exact path counts.

A :class:`LadderGraph` is what the searches of :mod:`.search` return: :meth:`LadderGraph.sample`
draws one ladder uniformly at random among all optimal ones (so every optimal ladder can come out,
and a seed fixes which), :meth:`LadderGraph.ladders` lists them in alphabetical order, and
:func:`fewest_steps` narrows a graph to its ladders of fewest steps.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass


@dataclass
class LadderGraph:
    """Every optimal ladder from ``start`` to ``target``, as a layered graph with path counts.

    ``preds[v]`` lists the words just before ``v`` on some optimal ladder (empty for the start);
    ``paths[v]`` is the number of optimal ladders from the start to ``v``.
    """

    start: int
    target: int
    preds: dict[int, list[int]]
    paths: dict[int, int]
    cost: int
    """Steps (shortest) or total rareness (least rare) of every ladder of this graph."""

    @property
    def count(self) -> int:
        """Number of optimal ladders (exact)."""
        return self.paths[self.target]

    def sample(self, rng: random.Random) -> list[int]:
        """One optimal ladder, uniformly at random: walk back from the target, choosing each
        predecessor with probability proportional to its number of ladders from the start."""
        ladder = [self.target]
        v = self.target
        while v != self.start:
            choices = sorted(self.preds[v])
            pick = rng.randrange(self.paths[v])
            for u in choices:
                pick -= self.paths[u]
                if pick < 0:
                    break
            ladder.append(u)
            v = u
        ladder.reverse()
        return ladder

    def ladders(self, key: Callable[[int], str], limit: int | None = None) -> Iterator[list[int]]:
        """Every optimal ladder, in alphabetical order of their words (``key`` gives a word's text)."""
        succs: dict[int, list[int]] = {}
        for v, us in self.preds.items():
            for u in us:
                succs.setdefault(u, []).append(v)
        for row in succs.values():
            row.sort(key=key)
        produced = 0
        stack: list[tuple[int, int]] = [(self.start, 0)]  # (word, index of the next successor to try)
        path = [self.start]
        if self.start == self.target:
            yield [self.start]
            return
        while stack:
            v, k = stack[-1]
            row = succs.get(v, [])
            if k == len(row):
                stack.pop()
                path.pop()
                continue
            stack[-1] = (v, k + 1)
            w = row[k]
            if w == self.target:
                yield [*path, w]
                produced += 1
                if limit is not None and produced >= limit:
                    return
                continue
            stack.append((w, 0))
            path.append(w)


def fewest_steps(graph: LadderGraph) -> LadderGraph:
    """Among the ladders of ``graph``, those with the fewest steps, as a graph with counts (same
    ``cost``): how the least-rare ladders are narrowed to the shortest of them.

    Example
    -------
    >>> g = LadderGraph(0, 3, {0: [], 1: [0], 2: [1], 3: [2, 0]}, {0: 1, 1: 1, 2: 1, 3: 2}, 5)
    >>> short = fewest_steps(g)
    >>> short.count, short.sample(random.Random(0))
    (1, [0, 3])
    """
    steps: dict[int, int] = {}
    preds: dict[int, list[int]] = {}
    paths: dict[int, int] = {}
    for v in _start_first(graph):
        us = graph.preds[v]
        if not us:
            steps[v], preds[v], paths[v] = 0, [], 1
            continue
        best = min(steps[u] for u in us)
        steps[v] = best + 1
        preds[v] = [u for u in us if steps[u] == best]
        paths[v] = sum(paths[u] for u in preds[v])
    return LadderGraph(graph.start, graph.target, preds, paths, graph.cost)


def _start_first(graph: LadderGraph) -> list[int]:
    """The words of ``graph`` with every predecessor before its successors (depth-first from the target)."""
    order: list[int] = []
    done: set[int] = set()
    stack: list[tuple[int, bool]] = [(graph.target, False)]
    while stack:
        v, expanded = stack.pop()
        if expanded:
            order.append(v)
            continue
        if v in done:
            continue
        done.add(v)
        stack.append((v, True))
        stack.extend((u, False) for u in graph.preds[v] if u not in done)
    return order
