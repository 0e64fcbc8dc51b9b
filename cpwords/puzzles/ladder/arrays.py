"""The ladder index's links and groups computed with numpy: the first use of a big dictionary
(scowl-95, a user's list of millions of words) builds its index in a fraction of the time the
pure-Python reference (:func:`.index.one_letter_links`, :func:`.index.word_groups`) takes, with
exactly the same result (the tests compare both on random word lists).

Links: each word's letters are packed into an integer key; for each word length and position,
the words are sorted on their key with that letter cleared, and equal neighbours in that order
share a wildcard bucket (``co*d``) and are linked.
Groups: connected components by repeated hooking of roots to the smaller root and pointer
jumping (a few passes over the links), then numbered as the reference numbers them.
Landmark tables: one vectorised Bellman-Ford run a landmark rank, for every group at once, giving
the tables of the reference :func:`.landmarks.landmark_tables`.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter

import numpy as np

from cpwords.puzzles.ladder.landmarks import CAP, LANDMARKS, MIN_GROUP


def link_arrays(words: Sequence[str], check: Callable[[], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """CSR ``(offsets, links)`` of the one-letter links between same-length words: word i links
    to ``links[offsets[i]:offsets[i + 1]]``, in increasing id order. ``check`` runs between
    passes (one a length and position) and may raise to stop the build.

    >>> offsets, links = link_arrays(["cat", "cot", "dog", "cog"])
    >>> [links[offsets[i]:offsets[i + 1]].tolist() for i in range(4)]
    [[1], [0, 3], [3], [1, 2]]
    """
    n = len(words)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=n)
    sources: list[np.ndarray] = []
    targets: list[np.ndarray] = []
    for length in np.unique(lengths).tolist():
        ids = np.flatnonzero(lengths == length)
        if len(ids) < 2 or length == 0:
            continue
        keys, masks = _packed_keys(np.array(itemgetter(*ids.tolist())(words), dtype=f"<U{length}"))
        for p in range(length):
            if check is not None:
                check()
            chunk, mask = masks[p]
            rest = [key & mask if c == chunk else key for c, key in enumerate(keys)]  # word without letter p
            order = np.argsort(rest[0]) if len(rest) == 1 else np.lexsort(rest[::-1])
            ordered = [r[order] for r in rest]
            same = np.logical_and.reduce([r[1:] == r[:-1] for r in ordered])  # row k equals row k+1
            if not same.any():
                continue
            # Buckets are runs of equal sorted rows; each row of a run of two or more is linked to
            # every other row of its run, in both directions at once.
            start = np.flatnonzero(np.concatenate(([True], ~same)))
            size = np.diff(np.append(start, len(ids)))
            start, size = start[size > 1], size[size > 1]
            rows = np.repeat(start - np.cumsum(size) + size, size) + np.arange(int(size.sum()))
            first, each = np.repeat(start, size), np.repeat(size, size)  # of the run of each row
            src = np.repeat(rows, each)
            dst = np.repeat(first - np.cumsum(each) + each, each) + np.arange(int(each.sum()))
            other = src != dst
            sources.append(ids[order[src[other]]])
            targets.append(ids[order[dst[other]]])
    if not sources:
        return np.zeros(n + 1, dtype=np.int32), np.zeros(0, dtype=np.int32)
    src, dst = np.concatenate(sources), np.concatenate(targets)
    by = np.argsort(src * n + dst)  # (src, dst) order; n * n fits 64 bits for any word list
    links = dst[by].astype(np.int32)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=offsets[1:])
    return offsets.astype(np.int32), links


def _packed_keys(words: np.ndarray) -> tuple[list[np.ndarray], list[tuple[int, np.uint64]]]:
    """Same-length words (a ``<U{length}`` array) packed into integer keys, and for each position
    ``p`` the key (chunk number) holding its letter with the mask that clears it.

    Letters are numbered by rank among the letters present (any alphabet, any script), in as few
    bits as that needs; as many letters as fit go in one uint64 key (12 letters of a 32-letter
    alphabet), longer words take several. Two words agree everywhere but at ``p`` exactly when
    their keys agree once that letter is cleared: one integer sort per position replaces a sort
    over every other column.
    """
    count, length = len(words), words.dtype.itemsize // 4
    points = words.view(np.uint32).reshape(count, length)
    top = int(points.max())
    if top < 1 << 16:  # every letter of a living alphabet: rank by a look-up table, no sort
        present = np.zeros(top + 1, dtype=bool)
        present[points] = True
        rank = np.cumsum(present, dtype=np.uint64) - np.uint64(1)
        codes, letters = rank[points], int(present.sum())
    else:
        alphabet, inverse = np.unique(points, return_inverse=True)
        codes, letters = inverse.reshape(count, length).astype(np.uint64), len(alphabet)
    bits = max(1, (letters - 1).bit_length())
    per_key = 64 // bits
    keys: list[np.ndarray] = []
    masks: list[tuple[int, np.uint64]] = []
    for start in range(0, length, per_key):
        key = np.zeros(count, dtype=np.uint64)
        for q in range(start, min(length, start + per_key)):
            shift = np.uint64(bits * (q - start))
            key |= codes[:, q] << shift
            masks.append((len(keys), ~(np.uint64((1 << bits) - 1) << shift)))
        keys.append(key)
    return keys, masks


def group_arrays(words: Sequence[str], offsets: np.ndarray, links: np.ndarray, alphabetical: np.ndarray,
                 check: Callable[[], None] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(group of each word, size of each group, length of each group)`` as the reference
    :func:`.index.word_groups` gives them: groups numbered from 1 by word length, then by their
    alphabetically first word; index 0 of the per-group arrays unused. ``alphabetical`` is the
    word ids in alphabetical order. ``check`` runs between passes and may raise to stop the build.

    >>> o, l = link_arrays(["cot", "cat", "dog"])
    >>> [a.tolist() for a in group_arrays(["cot", "cat", "dog"], o, l, np.array([1, 0, 2]))]
    [[1, 1, 2], [0, 2, 1], [0, 3, 3]]
    """
    n = len(words)
    parent = np.arange(n, dtype=np.int64)
    src = np.repeat(np.arange(n, dtype=np.int64), np.diff(offsets).astype(np.int64))
    dst = links.astype(np.int64)
    while True:
        if check is not None:
            check()
        ps, pd = parent[src], parent[dst]
        differ = ps != pd
        if not differ.any():
            break
        hi, lo = np.maximum(ps[differ], pd[differ]), np.minimum(ps[differ], pd[differ])
        np.minimum.at(parent, hi, lo)  # hook each root to the smallest root it touches
        while True:  # pointer jumping: every word points at its root
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                break
            parent = jumped
    rank = np.empty(n, dtype=np.int64)
    rank[alphabetical] = np.arange(n)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=n)
    roots = np.flatnonzero(parent == np.arange(n))
    first = np.full(n, n, dtype=np.int64)
    np.minimum.at(first, parent, rank)  # the alphabetically first word of each component
    order = np.lexsort((first[roots], lengths[roots]))
    number = np.zeros(n, dtype=np.int64)
    number[roots[order]] = np.arange(1, len(roots) + 1)
    group = number[parent]
    sizes = np.concatenate(([0], np.bincount(group, minlength=len(roots) + 1)[1:]))
    group_lengths = np.concatenate(([0], lengths[roots[order]]))
    return group.astype(np.int32), sizes.astype(np.int32), group_lengths.astype(np.int32)


def landmark_arrays(
    offsets: np.ndarray,
    links: np.ndarray,
    rareness: np.ndarray,
    group_order: np.ndarray,
    group_starts: np.ndarray,
    k: int = LANDMARKS,
    min_group: int = MIN_GROUP,
    groups: Iterable[int] | None = None,
    tables: list[array] | None = None,
    check: Callable[[], None] | None = None,
) -> list[array]:
    """Exactly the tables of :func:`.landmarks.landmark_tables`, for every group at once with numpy.

    ``groups``: only these group numbers (the entries of other words are left as they are);
    ``tables``: ``k`` tables to fill in place (default: new tables of zeros); ``check`` runs
    between rounds of relaxation and may raise to stop.

    The groups are disjoint, so one distance array holds the distances from one source in each
    group; each round of landmarks is one vectorised Bellman-Ford run over the CSR links
    (``offsets``, ``links``) that relaxes only the links of words whose distance just dropped, and
    converges to the exact integer distances. Landmarks are chosen as the reference chooses them
    (the first word in frequency order with the greatest distance or total), so the tables are
    identical. Groups are ``group_order[group_starts[g]:group_starts[g + 1]]`` for ``g >= 1``.

    >>> o, l = np.array([0, 1, 3, 4]), np.array([1, 0, 2, 1])
    >>> [list(t) for t in landmark_arrays(o, l, np.array([1, 10, 2]), np.arange(3), np.array([0, 0, 3]), 2, 2)]
    [[23, 12, 0], [0, 11, 23]]
    """
    n = len(rareness)
    if tables is None:
        tables = [array("i", bytes(4 * n)) for _ in range(k)]
    starts = np.asarray(group_starts, dtype=np.int64)
    big = _big_groups(starts, min_group, groups)
    if not len(big) or not k:
        return tables
    order = np.asarray(group_order, dtype=np.int64)
    members = np.concatenate([order[starts[g] : starts[g + 1]] for g in big.tolist()])
    graph = _subgraph(np.asarray(offsets, dtype=np.int64), np.asarray(links, dtype=np.int64),
                      np.asarray(rareness, dtype=np.int64), members)
    _fill_tables(tables, k, graph, members, np.diff(starts)[big], check)
    return tables


def _big_groups(starts: np.ndarray, min_group: int, groups: Iterable[int] | None) -> np.ndarray:
    """The numbers of the groups that get landmarks: those of at least ``min_group`` words
    (group 0 never), among ``groups`` when given."""
    sizes = np.diff(starts)
    big = np.flatnonzero(sizes >= max(min_group, 1))
    big = big[big >= 1]
    if groups is not None:
        big = np.intersect1d(big, np.fromiter(groups, dtype=np.int64))
    return big


def _fill_tables(tables: list[array], k: int, graph: tuple[np.ndarray, np.ndarray, np.ndarray],
                 members: np.ndarray, sizes: np.ndarray, check: Callable[[], None] | None) -> None:
    """Choose ``k`` landmarks a group, round by round, and write each round's distances into
    ``tables`` at the words ``members`` (vertex i of ``graph`` is word ``members[i]``; the groups
    follow one another in ``members``, of ``sizes`` words each)."""
    seg = np.concatenate(([0], np.cumsum(sizes)[:-1]))  # start of each group in ``members``
    local = np.arange(len(members))

    def first_greatest(values: np.ndarray) -> np.ndarray:
        """Per group, the first member (in frequency order) with the greatest value."""
        top = np.repeat(np.maximum.reduceat(values, seg), sizes)
        return np.minimum.reduceat(np.where(values == top, local, len(local)), seg)

    spread = _distances(graph, seg, check)
    total = np.zeros(len(members), dtype=np.int64)
    landmark = first_greatest(spread)
    for j in range(k):
        dist = _distances(graph, landmark, check)
        np.frombuffer(tables[j], dtype=np.int32)[members] = np.minimum(dist, CAP)  # writes through
        total += dist
        total[landmark] = -1  # never chosen twice in a row (as the reference does)
        landmark = first_greatest(total)


def _subgraph(offsets: np.ndarray, links: np.ndarray, rareness: np.ndarray,
              members: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR links and rareness of the words ``members`` (whole groups), renumbered 0, 1, ..."""
    renumber = np.full(len(rareness), -1, dtype=np.int64)
    renumber[members] = np.arange(len(members))
    first, degree = offsets[members], offsets[members + 1] - offsets[members]
    at = np.repeat(first - np.cumsum(degree) + degree, degree) + np.arange(int(degree.sum()))
    sub_offsets = np.concatenate(([0], np.cumsum(degree)))
    return sub_offsets, renumber[links[at]], rareness[members]


def _distances(graph: tuple[np.ndarray, np.ndarray, np.ndarray], sources: np.ndarray,
               check: Callable[[], None] | None = None) -> np.ndarray:
    """W-distances from the nearest of ``sources`` (one per group here), exact.

    Bellman-Ford rounds that relax only words whose distance dropped since they were last
    relaxed, and of those only the nearer part (distance up to the median of them): close to
    Dijkstra's order, so few words are relaxed twice, in a few hundred vectorised rounds.
    """
    offsets, links, rareness = graph
    dist = np.full(len(rareness), np.iinfo(np.int64).max, dtype=np.int64)
    dist[sources] = 0
    pending = np.zeros(len(rareness), dtype=bool)
    pending[sources] = True
    rounds = 0
    while True:
        rounds += 1
        if check is not None and rounds % 16 == 0:
            check()
        waiting = np.flatnonzero(pending)
        if not len(waiting):
            return dist
        frontier = waiting
        if len(waiting) > _WHOLE_FRONTIER:
            near = dist[waiting]
            frontier = waiting[near <= np.partition(near, len(near) // 2)[len(near) // 2]]
        pending[frontier] = False
        first, degree = offsets[frontier], offsets[frontier + 1] - offsets[frontier]
        at = np.repeat(first - np.cumsum(degree) + degree, degree) + np.arange(int(degree.sum()))
        to = links[at]
        reach = np.repeat(dist[frontier] + rareness[frontier], degree) + rareness[to]
        better = reach < dist[to]
        to, reach = to[better], reach[better]
        np.minimum.at(dist, to, reach)
        pending[to] = True


#: Frontiers up to this size are relaxed whole (splitting them saves less than a round costs).
_WHOLE_FRONTIER = 64
