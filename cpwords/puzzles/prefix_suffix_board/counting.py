"""Exact counting of the prefix fillings of a board whose suffixes are set.

Once every suffix slot holds a token, each prefix slot i may take any token of its candidate set
C_i (the prefixes that make a word with every suffix next to it). The slots interact in two ways
only:

- **equal tokens**: two slots may not hold the same prefix when ``distinct_tokens`` is on, or
  when they touch the same suffix token (the word would repeat);
- **word clashes**: different prefixes may still spell the same word with different suffixes
  (in+ter and int+er). Such (slot, token) pairs are few; they are branched on one by one.

The rest is counted without listing: tokens that fit the same set of slots are interchangeable,
so a DP over "which slots are filled" takes one group of tokens at a time and places k of them
into r slots in as many ways as the conflict graph on those slots has proper colourings with k
colours (k·(k−1)·…·(k−r+1) when all must differ).

>>> count_fillings([frozenset({1, 2}), frozenset({1, 2, 3})], [(0,), (1,)], {}, distinct=True)
4
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from functools import lru_cache
from math import perm, prod


def count_fillings(
    candidates: Sequence[frozenset[int]],
    slot_suffixes: Sequence[tuple[int, ...]],
    multi_cut: Mapping[int, Sequence[tuple[int, int]]],
    *,
    distinct: bool,
) -> int:
    """Number of ways to fill the prefix slots once the suffixes are set.

    Parameters
    ----------
    candidates:
        For each prefix slot, the prefix ids that make a word with every suffix next to it.
    slot_suffixes:
        For each prefix slot, the suffix ids of its neighbours.
    multi_cut:
        Suffix id -> (prefix id, word id) for the cuts of words that have more than one cut
        (the only source of word clashes between different prefixes).
    distinct:
        All prefix tokens must differ.

    Returns
    -------
    The exact number of fillings (words all distinct, tokens distinct when asked).
    """
    m = len(candidates)
    for i in range(m):
        if not candidates[i] or len(set(slot_suffixes[i])) != len(slot_suffixes[i]):
            return 0  # a repeated suffix at one prefix repeats a word
    conflict = [0] * m  # slots that must hold a different token than slot i
    for i in range(m):
        for j in range(i + 1, m):
            if distinct or set(slot_suffixes[i]) & set(slot_suffixes[j]):
                conflict[i] |= 1 << j
                conflict[j] |= 1 << i
    return _count_around_clashes(candidates, conflict, word_clashes(candidates, slot_suffixes, multi_cut))


def _count_around_clashes(candidates: Sequence[frozenset[int]], conflict: list[int],
                          clashes: dict[tuple[int, int], set[tuple[int, int]]]) -> int:
    """The fillings of :func:`count_fillings`: each slot either takes one of its clashing
    (slot, prefix) pairs (branched on, keeping the pairs chosen compatible) or a token that
    clashes with nothing, the latter counted together by :func:`count_colourings`."""
    m = len(candidates)
    risky = [sorted(a for (s, a) in clashes if s == i) for i in range(m)]
    risky_sets = [frozenset(r) for r in risky]
    total = 0
    chosen: dict[int, int] = {}

    def leaf() -> int:
        free_slots = [j for j in range(m) if j not in chosen]
        sets = []
        for j in free_slots:
            used = {a for i, a in chosen.items() if conflict[j] >> i & 1}
            sets.append(candidates[j] - risky_sets[j] - used)
        pos = {j: k for k, j in enumerate(free_slots)}
        masks = tuple(sum(1 << pos[i] for i in range(m) if conflict[j] >> i & 1 and i in pos) for j in free_slots)
        return count_colourings(sets, masks)

    def branch(i: int) -> None:
        nonlocal total
        if i == m:
            total += leaf()
            return
        branch(i + 1)  # slot i takes a token that clashes with nothing (counted in the leaf)
        for a in risky[i]:
            if any(b == a and conflict[i] >> j & 1 for j, b in chosen.items()):
                continue
            if any((j, b) in clashes[(i, a)] for j, b in chosen.items()):
                continue
            chosen[i] = a
            branch(i + 1)
            del chosen[i]

    branch(0)
    return total


def word_clashes(
    candidates: Sequence[frozenset[int]],
    slot_suffixes: Sequence[tuple[int, ...]],
    multi_cut: Mapping[int, Sequence[tuple[int, int]]],
) -> dict[tuple[int, int], set[tuple[int, int]]]:
    """(slot, prefix) -> the (slot, prefix) pairs elsewhere, with another prefix, that spell a common word."""
    by_word: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for i, suffixes in enumerate(slot_suffixes):
        for s in suffixes:
            for a, w in multi_cut.get(s, ()):
                if a in candidates[i]:
                    by_word[w].append((i, a))
    clashes: dict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    for entries in by_word.values():
        for x in entries:
            for y in entries:
                if x[0] != y[0] and x[1] != y[1]:
                    clashes[x].add(y)
    return dict(clashes)


def count_colourings(sets: Sequence[frozenset[int] | set[int]], conflict: Sequence[int]) -> int:
    """Assignments of one value of ``sets[j]`` to each slot j, conflicting slots taking different values.

    ``conflict[j]`` is the bitmask of slots that must differ from slot j.

    >>> count_colourings([{1, 2}, {1, 2}], [0b10, 0b01])
    2
    """
    n = len(sets)
    if n == 0:
        return 1
    if not any(conflict):
        return prod(len(s) for s in sets)
    signature: dict[int, int] = defaultdict(int)
    for j, values in enumerate(sets):
        for v in values:
            signature[v] |= 1 << j
    groups = sorted(Counter(signature.values()).items(), key=lambda tk: (tk[0].bit_count(), tk[0]))
    last = [-1] * n
    for g, (slots, _) in enumerate(groups):
        for j in range(n):
            if slots >> j & 1:
                last[j] = g
    if min(last) < 0:
        return 0
    graph = tuple(conflict)
    complete = all(conflict[j] == ((1 << n) - 1) & ~(1 << j) for j in range(n))
    dp: dict[int, int] = {0: 1}
    for g, (slots, k) in enumerate(groups):
        must = sum(1 << j for j in range(n) if last[j] == g)
        new: dict[int, int] = defaultdict(int)
        for filled, ways in dp.items():
            need = must & ~filled
            if need & ~slots:
                continue
            rest = slots & ~filled & ~need
            sub = rest
            while True:
                chosen = need | sub
                r = chosen.bit_count()
                placed = perm(k, r) if complete else colourings_with(chosen, k, graph)
                if placed:
                    new[filled | chosen] += ways * placed
                if sub == 0:
                    break
                sub = (sub - 1) & rest
        dp = new
        if not dp:
            return 0
    return dp.get((1 << n) - 1, 0)


def colourings_with(slots: int, k: int, conflict: tuple[int, ...]) -> int:
    """Proper colourings of the conflict graph induced on ``slots`` with k interchangeable-free colours."""
    by_blocks = independent_partitions(slots, conflict)
    return sum(count * perm(k, r) for r, count in enumerate(by_blocks))


@lru_cache(maxsize=65536)
def independent_partitions(slots: int, conflict: tuple[int, ...]) -> tuple[int, ...]:
    """c[r] = number of partitions of ``slots`` into r independent (conflict-free) blocks."""
    if slots == 0:
        return (1,)
    low = slots & -slots
    rest = slots & ~low
    counts: list[int] = [0]
    j = low.bit_length() - 1
    # the block holding the lowest slot: low plus any independent subset of its non-neighbours
    options = rest & ~conflict[j]
    sub = options
    while True:
        block = low | sub
        if all(not (conflict[b] & block) for b in range(len(conflict)) if block >> b & 1):
            inner = independent_partitions(rest & ~sub, conflict)
            if len(counts) < len(inner) + 1:
                counts.extend([0] * (len(inner) + 1 - len(counts)))
            for r, c in enumerate(inner):
                counts[r + 1] += c
        if sub == 0:
            break
        sub = (sub - 1) & options
    return tuple(counts)
