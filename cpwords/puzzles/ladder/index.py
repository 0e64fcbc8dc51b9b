"""The ladder index of a dictionary: one-letter links between words, and word groups.

Two words are *linked* when they have the same length and differ in exactly one position. Links
are found through wildcard buckets (``co*d`` holds cold, cord, coed ...; never all pairs) and
stored as CSR arrays of integer word ids. A *group* is a connected component of the links: two
words have a ladder between them exactly when they are in the same group.

Group numbers are stable for a given dictionary: groups are numbered from 1 by word length, then
by the alphabetically first word of the group (so ``aa``'s group comes first among 2-letter words).

The index is cached on disk per dictionary: see :mod:`cpwords.puzzles.ladder.store`.

Example
-------
>>> from cpwords.lexicon import Lexicon
>>> index = build_index(Lexicon.from_words(["cold", "cord", "card", "ward", "warm", "zzzz"]))
>>> index.n_links, index.group_size(index.group_of("cold")), index.group_of("zzzz") != index.group_of("cold")
(4, 5, True)
"""

from __future__ import annotations

import functools
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from cpwords.engines.budget import build_checkpoint
from cpwords.puzzles.ladder.landmarks import LANDMARKS, MIN_GROUP

if TYPE_CHECKING:
    from cpwords.lexicon import Lexicon

@dataclass
class LadderIndex:
    """Words, their rareness, their links (CSR) and their groups, all by integer word id.

    Word ids are positions in the lexicon's order (most frequent first).
    """

    label: str
    """The dictionary's label, for messages."""
    content_hash: str
    """The lexicon's content hash (the cache key)."""
    words: list[str]
    """Every word, most frequent first; a word's id is its position here."""
    rareness: array
    """Rareness of each word (``array('q')``), lower = more common."""
    offsets: array
    """CSR row starts (``array('i')``, one more than there are words): word i links to ``links[offsets[i]:offsets[i+1]]``."""
    links: array
    """CSR link targets (``array('i')``), each row in increasing id order."""
    group: array
    """Group number of each word (``array('i')``), 1-based."""
    group_sizes: array
    """Number of words of each group (``array('i')``, index 0 unused)."""
    group_lengths: array
    """Word length of each group (``array('i')``, index 0 unused)."""
    alphabetical: array
    """Word ids in alphabetical order of their words (``array('i')``), for binary search."""
    group_order: array
    """Word ids sorted by group (``array('i')``): group g is ``group_order[group_starts[g]:group_starts[g+1]]``."""
    group_starts: array
    """Start of each group in ``group_order`` (``array('i')``, one more than there are groups + 1)."""

    # -- words

    @cached_property
    def ids(self) -> dict[str, int]:
        """Word -> id (built on first use: ~50 ms for 100,000 words; :meth:`id_of` needs no map)."""
        return {w: i for i, w in enumerate(self.words)}

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        try:
            self.id_of(word)
        except KeyError:
            return False
        return True

    def __len__(self) -> int:
        return len(self.words)

    def id_of(self, word: str) -> int:
        """The id of ``word`` (KeyError when it is not in the dictionary)."""
        ids = self.__dict__.get("ids")
        if ids is not None:
            return ids[word]
        # Binary search in the alphabetical order: a one-shot command does not pay for a map.
        words, order = self.words, self.alphabetical
        k = bisect_left(order, word, key=words.__getitem__)
        if k < len(order) and words[order[k]] == word:
            return order[k]
        raise KeyError(word)

    # -- links

    @property
    def n_links(self) -> int:
        """Number of links (each joins two words)."""
        return len(self.links) // 2

    @cached_property
    def _rows(self) -> list[tuple[int, ...]]:
        return [()] * len(self.words)

    @cached_property
    def _groups_with_rows(self) -> set[int]:
        return set()

    def adjacency(self, g: int) -> list[tuple[int, ...]]:
        """``adjacency(g)[i]``: the ids linked to word ``i``, made ready for every word of group ``g``.

        A plain list of tuples: ``list.__getitem__`` is the fastest look-up a search loop can do
        (about twice as fast as a dict), and only the groups searched have their rows made
        (entries of other words are empty until then).
        """
        rows = self._rows
        if g not in self._groups_with_rows:
            offsets, links = self.offsets, self.links
            for i in self.members(g):
                rows[i] = tuple(links[offsets[i] : offsets[i + 1]])
            self._groups_with_rows.add(g)
        return rows

    def neighbours(self, i: int) -> tuple[int, ...]:
        """Ids of the words linked to word ``i``."""
        return self.adjacency(self.group[i])[i]

    def degree(self, i: int) -> int:
        """Number of links of word ``i``."""
        return self.offsets[i + 1] - self.offsets[i]

    def linked_words(self, word: str) -> list[str]:
        """The words linked to ``word``, alphabetically."""
        return sorted(self.words[j] for j in self.neighbours(self.id_of(word)))

    # -- landmarks

    @cached_property
    def _landmark_tables(self) -> list[array]:
        return [array("i", bytes(4 * len(self.words))) for _ in range(LANDMARKS)]

    @cached_property
    def _groups_with_landmarks(self) -> set[int]:
        return set()

    def landmarks(self, g: int) -> list[array]:
        """Landmark distance tables for the least-rare search in group ``g`` (see :mod:`.landmarks`).

        Indexed by word id, made ready for the words of group ``g`` (entries of other words are 0
        until their group is asked for; groups under :data:`.landmarks.MIN_GROUP` words stay 0, a
        plain Dijkstra). Made on first use, a group at a time (a quarter of a second for the
        biggest group of scowl-95), and kept in the disk cache (:func:`landmark_rows`), not
        when the index is built: the first use of a dictionary does not pay for every group, and
        a shortest ladder needs none.
        """
        tables = self._landmark_tables
        if g not in self._groups_with_landmarks:
            if 1 <= g < len(self.group_sizes) and self.group_sizes[g] >= MIN_GROUP:
                import numpy as np

                members = np.frombuffer(self.members(g), dtype=np.int32)
                rows = np.frombuffer(landmark_rows(self, g), dtype=np.int32).reshape(len(tables), len(members))
                for table, row in zip(tables, rows, strict=True):
                    np.frombuffer(table, dtype=np.int32)[members] = row
            self._groups_with_landmarks.add(g)
        return tables

    def compute_landmarks(self, g: int) -> bytes:
        """The landmark distances of group ``g``'s words (``array('i')`` bytes: one row per landmark
        rank, in :meth:`members` order), computed (:func:`.arrays.landmark_arrays`)."""
        import numpy as np

        from cpwords.puzzles.ladder.arrays import landmark_arrays

        def view(values: array) -> np.ndarray:
            return np.frombuffer(values, dtype=np.int32 if values.typecode == "i" else np.int64)

        check = functools.partial(build_checkpoint, f"the landmark tables of group {g} of {self.label}")
        tables = landmark_arrays(view(self.offsets), view(self.links), view(self.rareness), view(self.group_order),
                                 view(self.group_starts), groups=[g], check=check)
        members = view(self.members(g))
        return b"".join(view(table)[members].tobytes() for table in tables)

    # -- groups

    def group_of(self, word: str) -> int:
        """Group number of ``word``."""
        return self.group[self.id_of(word)]

    def members(self, g: int) -> array:
        """Ids of the words of group ``g``, most frequent first."""
        return self.group_order[self.group_starts[g] : self.group_starts[g + 1]]

    def group_size(self, g: int) -> int:
        """Number of words in group ``g``."""
        return self.group_sizes[g]

    @property
    def n_groups(self) -> int:
        """Number of groups (words without any link are groups of one)."""
        return len(self.group_sizes) - 1

    def lengths(self) -> list[int]:
        """Word lengths present, increasing."""
        return sorted(set(self.group_lengths[1:]))

    def groups_of_length(self, length: int) -> list[int]:
        """Group numbers of the words of ``length`` letters, increasing."""
        return [g for g in range(1, len(self.group_lengths)) if self.group_lengths[g] == length]

    def most_linked(self, length: int) -> str | None:
        """The word of ``length`` letters with the most links (the more frequent one on a tie)."""
        best, best_degree = None, -1
        for i, w in enumerate(self.words):
            if len(w) == length and self.degree(i) > best_degree:
                best, best_degree = w, self.degree(i)
        return best

    def to_payload(self) -> dict[str, Any]:
        """Plain data for the disk cache (no class reference, so renaming the class is harmless).

        The words are one newline-joined string: splitting it is several times faster than
        unpickling a list of strings.
        """
        payload = {k: getattr(self, k) for k in _PAYLOAD_FIELDS}
        payload["words"] = "\n".join(self.words)
        return payload

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> LadderIndex:
        """The index stored by :meth:`to_payload`."""
        fields = {k: payload[k] for k in _PAYLOAD_FIELDS}
        fields["words"] = payload["words"].split("\n") if payload["words"] else []
        return cls(**fields)


_PAYLOAD_FIELDS = ("label", "content_hash", "words", "rareness", "offsets", "links", "group", "group_sizes",
                   "group_lengths", "alphabetical", "group_order", "group_starts")


def wildcard_buckets(words: Sequence[str]) -> list[list[int]]:
    """Groups of word ids that agree everywhere but at one position (only groups of two or more).

    For every position p, words sharing ``(length, p, word without letter p)`` form one bucket:
    ``co*d`` holds cold, cord, coed. Two distinct words meet in
    at most one bucket (the position where they differ), and every link lies in exactly one.

    >>> wildcard_buckets(["cat", "cot", "dog", "cog"])
    [[2, 3], [0, 1], [1, 3]]
    """
    found: list[list[int]] = []
    by_length: dict[int, list[int]] = {}
    for i, w in enumerate(words):
        by_length.setdefault(len(w), []).append(i)
    for length in sorted(by_length):
        ids = by_length[length]
        for p in range(length):
            buckets: dict[str, list[int]] = {}
            for i in ids:
                w = words[i]
                buckets.setdefault(w[:p] + w[p + 1 :], []).append(i)
            found.extend(b for b in buckets.values() if len(b) > 1)
    return found


def one_letter_links(words: Sequence[str], buckets: Sequence[Sequence[int]] | None = None) -> list[list[int]]:
    """For each word, the ids (positions in ``words``) of the same-length words one letter away.

    >>> one_letter_links(["cat", "cot", "dog", "cog"])
    [[1], [0, 3], [3], [1, 2]]
    """
    adjacency: list[list[int]] = [[] for _ in words]
    for bucket in wildcard_buckets(words) if buckets is None else buckets:
        for i in bucket:
            adjacency[i].extend(j for j in bucket if j != i)
    for row in adjacency:
        row.sort()
    return adjacency


def _csr(rows: Iterable[Iterable[int]]) -> tuple[array, array]:
    offsets = array("i", [0])
    flat = array("i")
    for row in rows:
        flat.extend(row)
        offsets.append(len(flat))
    return offsets, flat


def word_groups(words: Sequence[str], adjacency: Sequence[Iterable[int]]) -> tuple[list[int], list[int], list[int]]:
    """Connected components, numbered from 1 by length, then by their alphabetically first word.

    Returns ``(group of each word, size of each group, word length of each group)``; the two
    lists per group have an unused entry 0 so that group g is at index g.

    >>> word_groups(["cot", "cat", "dog"], [[1], [0], []])
    ([1, 1, 2], [0, 2, 1], [0, 3, 3])
    """
    group = [0] * len(words)
    sizes, lengths = [0], [0]
    for i in sorted(range(len(words)), key=lambda k: (len(words[k]), words[k])):
        if group[i]:
            continue
        g = len(sizes)
        group[i] = g
        frontier, size = [i], 1
        while frontier:
            nxt = []
            for v in frontier:
                for u in adjacency[v]:
                    if not group[u]:
                        group[u] = g
                        nxt.append(u)
            size += len(nxt)
            frontier = nxt
        sizes.append(size)
        lengths.append(len(words[i]))
    return group, sizes, lengths


def build_index(lexicon: Lexicon) -> LadderIndex:
    """Links and groups of every word of ``lexicon`` (no cache: see :mod:`.store`; the landmark
    tables are made per group when a search needs them: :meth:`LadderIndex.landmarks`).

    Links and groups come from :mod:`.arrays` (numpy; the same result as :func:`one_letter_links`
    and :func:`word_groups`, several times faster on big dictionaries)."""
    import numpy as np

    from cpwords.puzzles.ladder.arrays import group_arrays, link_arrays

    check = functools.partial(build_checkpoint, f"the ladder index of {lexicon.label}")
    words = list(lexicon)
    link_offsets, link_targets = link_arrays(words, check)
    check()
    alphabetical = np.array(sorted(range(len(words)), key=words.__getitem__), dtype=np.int64)
    group_np, sizes_np, lengths_np = group_arrays(words, link_offsets, link_targets, alphabetical, check)
    check()
    group_order_np = np.argsort(group_np, kind="stable")  # stable: frequency order within a group
    starts_np = np.concatenate(([0], np.cumsum(sizes_np)))
    group_order, group_starts = _ints(group_order_np), _ints(starts_np)
    rareness = array("q", lexicon.rareness_array().astype(np.int64).tobytes())
    return LadderIndex(
        label=lexicon.label,
        content_hash=lexicon.content_hash,
        words=words,
        rareness=rareness,
        offsets=_ints(link_offsets),
        links=_ints(link_targets),
        group=_ints(group_np),
        group_sizes=_ints(sizes_np),
        group_lengths=_ints(lengths_np),
        alphabetical=_ints(alphabetical),
        group_order=group_order,
        group_starts=group_starts,
    )


def _ints(values: Any) -> array:
    """A numpy integer array as the index's ``array('i')``."""
    import numpy as np

    out = array("i")
    out.frombytes(np.ascontiguousarray(values, dtype=np.int32).tobytes())
    return out


# ---------------------------------------------------------------- landmark rows in the disk cache

#: The disk cache's name and format version of the index (:mod:`.store`) and of its landmark rows.
CACHE_NAME = "ladder-index"
CACHE_VERSION = 8


@dataclass(frozen=True)
class ByHash:
    """Stands in for a lexicon where :mod:`cpwords.lexicon.cache` only needs its content hash."""

    content_hash: str


def landmark_rows(index: LadderIndex, g: int) -> bytes:
    """The landmark distances of group ``g`` (:meth:`LadderIndex.compute_landmarks`), from the
    disk cache when a search needed them before: a file per group searched, keyed like the index.
    (Here, not in :mod:`.store`, which imports this module.)"""
    from cpwords.lexicon.cache import cached

    return cached(ByHash(index.content_hash), f"{CACHE_NAME}-landmarks-{g}",
                  lambda: index.compute_landmarks(g), version=CACHE_VERSION)
