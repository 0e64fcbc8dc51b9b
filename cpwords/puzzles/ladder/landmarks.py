"""Landmark distances: lower bounds that steer the least-rare search towards the target (ALT).

A ladder's total rareness (the words after the start) is, up to its two ends, a sum over its links
of the symmetric weight ``W(x, y) = rareness(x) + rareness(y)``::

    cost(s -> t) = (sum of W over the links + rareness(t) - rareness(s)) / 2

so least-rare ladders are the shortest paths for W. For a few *landmark* words L per group, the
W-distances ``D(L, v)`` to every word are precomputed; the triangle inequality then gives
``D(v, t) >= |D(L, t) - D(L, v)|``, a consistent A* heuristic. Landmarks are chosen far apart
(each maximises the summed distance to those chosen before), which makes the bounds tight.
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Callable, Sequence

#: Groups smaller than this get no landmarks (a plain Dijkstra is already instant there).
MIN_GROUP = 64
#: Landmarks per group.
LANDMARKS = 4
#: Stored distances are capped here to fit 32 bits. Capping keeps every bound valid and consistent:
#: ``|min(a, C) - min(b, C)| <= |a - b|``, so a capped difference never exceeds the true one.
CAP = 2**31 - 1


def symmetric_distances(
    neighbours: Callable[[int], Sequence[int]], rareness: Sequence[int], source: int
) -> dict[int, int]:
    """W-distance from ``source`` to every word of its group (Dijkstra, ``W(x, y) = r(x) + r(y)``).

    >>> adj = [[1], [0, 2], [1]]
    >>> symmetric_distances(adj.__getitem__, [1, 10, 2], 0)
    {0: 0, 1: 11, 2: 23}
    """
    dist = {source: 0}
    done: set[int] = set()
    heap = [(0, source)]
    while heap:
        d, v = heapq.heappop(heap)
        if v in done:
            continue
        done.add(v)
        rv = rareness[v]
        for w in neighbours(v):
            nd = d + rv + rareness[w]
            if w not in done and nd < dist.get(w, nd + 1):
                dist[w] = nd
                heapq.heappush(heap, (nd, w))
    return dist


def landmark_tables(
    n_words: int,
    groups: Sequence[Sequence[int]],
    neighbours: Callable[[int], Sequence[int]],
    rareness: Sequence[int],
    k: int = LANDMARKS,
    min_group: int = MIN_GROUP,
) -> list[array]:
    """``k`` arrays of W-distances (capped at :data:`CAP`), one per landmark rank, over all ``n_words`` words.

    Entry v of table j is the distance from the j-th landmark of v's group; 0 for words of groups
    smaller than ``min_group`` (a zero bound is still a valid bound).
    """
    tables = [array("i", bytes(4 * n_words)) for _ in range(k)]
    for members in groups:
        if len(members) < min_group:
            continue
        spread = symmetric_distances(neighbours, rareness, members[0])
        total = dict.fromkeys(members, 0)
        landmark = max(members, key=spread.__getitem__)
        for j in range(k):
            dist = symmetric_distances(neighbours, rareness, landmark)
            table = tables[j]
            for v, d in dist.items():
                table[v] = min(d, CAP)
                total[v] += d
            total[landmark] = -1  # never chosen twice
            landmark = max(members, key=total.__getitem__)
    return tables

