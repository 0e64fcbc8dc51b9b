"""The slot partitions of the inclusion–exclusion behind the count of grids with distinct words.

Grids with all words different = Σ_π μ(π) · N(π) over the set partitions π of the slots into
blocks of equal length, where N(π) counts the grids whose slots in each block hold the *same*
word and μ(π) = Π_blocks (−1)^{|B|−1} (|B|−1)! (see :mod:`.count`).

Example
-------
>>> [mu for mu, _ in slot_partitions_of([[0, 1, 2]])]
[1, -1, -1, -1, 2]
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from cpwords.puzzles.word_grid.count_base import TooLargeToContract
from cpwords.puzzles.word_grid.problem import GridProblem

__all__ = ["CHECK_EVERY", "MAX_PARTITIONS", "bell_number", "check_partitions", "length_groups", "set_partitions",
           "slot_partitions", "slot_partitions_of"]


def set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every partition of ``items`` into non-empty blocks.

    >>> len(list(set_partitions([0, 1, 2])))
    5
    """
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield partition[:i] + [[first, *partition[i]]] + partition[i + 1:]


#: Most partitions of the slots the inclusion–exclusion may list (Bell(12) = 4,213,597 fit).
MAX_PARTITIONS = 5_000_000
#: Partitions listed between two checks of the budget.
CHECK_EVERY = 4096


def bell_number(n: int) -> int:
    """The number of partitions of ``n`` items, by the Bell triangle.

    >>> [bell_number(n) for n in range(7)]
    [1, 1, 2, 5, 15, 52, 203]
    """
    row = [1]
    for _ in range(n):
        nxt = [row[-1]]
        for value in row:
            nxt.append(nxt[-1] + value)
        row = nxt
    return row[0]


def length_groups(problem: GridProblem) -> dict[int, list[int]]:
    """The slots' indices by slot length (slots of different lengths never hold the same word)."""
    groups: dict[int, list[int]] = {}
    for s, slot in enumerate(problem.slots):
        groups.setdefault(len(slot), []).append(s)
    return groups


def check_partitions(groups: dict[int, list[int]]) -> None:
    """Refuse a count with more than :data:`MAX_PARTITIONS` partitions of ``groups``.

    Raises
    ------
    TooLargeToContract
        Sixteen slots of one length are 10**10 partitions: too many terms.
    """
    if math.prod(bell_number(len(g)) for g in groups.values()) > MAX_PARTITIONS:
        raise TooLargeToContract


def slot_partitions(problem: GridProblem) -> Iterator[tuple[int, list[list[int]]]]:
    """(μ(π), π) for the partitions of the slots that inclusion–exclusion needs.

    Without distinct words only the partition into singletons (μ = 1). With them, every
    partition whose blocks hold slots of one length (:func:`slot_partitions_of`).

    Raises
    ------
    TooLargeToContract
        With distinct words, when the partitions are too many (:func:`check_partitions`).
    """
    if not problem.distinct:
        yield 1, [[s] for s in range(len(problem.slots))]
        return
    groups = length_groups(problem)
    check_partitions(groups)
    yield from slot_partitions_of(list(groups.values()))


def slot_partitions_of(groups: list[list[int]]) -> Iterator[tuple[int, list[list[int]]]]:
    """(μ(π), π) for every partition π whose blocks each lie in one of ``groups``.

    >>> [(mu, p) for mu, p in slot_partitions_of([[0, 1], [2]])]
    [(1, [[0], [1], [2]]), (-1, [[0, 1], [2]])]
    """
    # the first group's partitions are walked once, so they are generated, not kept (an open
    # 6×6's twelve slots of one length have 4.2 million); the others are walked once per head
    per_group = [list(set_partitions(g)) for g in groups[1:]]

    def combine(i: int) -> Iterator[list[list[int]]]:
        if i == len(per_group):
            yield []
            return
        for head in per_group[i]:
            for tail in combine(i + 1):
                yield head + tail

    for head in set_partitions(groups[0]):
        for tail in combine(0):
            partition = head + tail
            mu = 1
            for block in partition:
                k = len(block)
                mu *= (-1) ** (k - 1) * math.factorial(k - 1)
            yield mu, partition
