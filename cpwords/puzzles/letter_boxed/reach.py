"""Which covered-letter sets can still be finished, and which words can stand at each position.

Both are computed over sets of box letters (bitmasks, one boolean array of 2^n entries per letter)
and allow a word to repeat, so they are *relaxations*: every real answer passes them, some
non-answers do too. The native enumeration prunes with :func:`can_finish`; the CP-SAT and SAT
models take :func:`position_domains` as the words each position may hold, which shrinks them
from every playable word to the few that can take part in an answer of k words (a sound
presolve: the solvers still prove the fewest words and the tie-break themselves).

Arrays of 2^n booleans per letter and per step grow fast with the letters of the box: each
function first checks that its arrays fit the ``max_memory_mb`` budget and raises
:class:`MemoryBudgetExceeded` otherwise (24 letters: 16 M masks a letter).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

import numpy as np

from cpwords.engines.budget import Budget, MemoryBudgetExceeded
from cpwords.puzzles.letter_boxed.words import WordTable

if TYPE_CHECKING:
    from cpwords.puzzles.letter_boxed.spec import LetterBoxedSpec

#: Default memory budget of one Letter Boxed search (the ``max_memory_mb`` spec field).
DEFAULT_MEMORY_MB = 1024
#: Word masks expanded at once against all 2^n covered sets (bounds the temporary arrays).
_CHUNK_CELLS = 1 << 22


def _check_memory(needed_bytes: float, max_memory_mb: int | None, what: str) -> None:
    if max_memory_mb is not None and needed_bytes > max_memory_mb * 2**20:
        raise MemoryBudgetExceeded(
            f"{what} needs about {needed_bytes / 2**20:,.0f} MB, more than the memory budget of "
            f"{max_memory_mb:,} MB (max_memory_mb); use fewer letters, a smaller dictionary or raise max_memory_mb")


def _word_groups(table: WordTable) -> dict[tuple[int, int], np.ndarray]:
    """Distinct word masks per (first letter, last letter). (No dominance here: a word with more
    letters may complete the box too early, which the rule on words before the last forbids.)"""
    groups: dict[tuple[int, int], set[int]] = defaultdict(set)
    for f, e, m in zip(table.first, table.last, table.mask, strict=True):
        groups[f, e].add(m)
    return {key: np.array(sorted(masks), dtype=np.int64) for key, masks in groups.items()}


def can_finish(table: WordTable, max_words: int, budget: Budget | None = None, *,
               max_memory_mb: int | None = DEFAULT_MEMORY_MB, known: list[np.ndarray] | None = None) -> list[np.ndarray]:
    """``reach[r][e, m]``: r more words, the first starting at letter e, can cover every letter
    when the letters m are covered so far, without covering them all before the last word
    (repeats allowed). ``reach[0][e, m]`` is ``m == full``.

    ``reach[1]`` is an up-closure (m can be finished by one word from e when m holds every letter
    that word lacks): the complements of the words' letter sets are marked, then spread to their
    supersets bit by bit, n passes over the array instead of one per word (an 18-letter box: 0.1 s
    against 4.8 s). Deeper steps take each word in turn. ``known``: the list an earlier call
    returned for the same table (fewer words): its steps are reused, not recomputed.

    Raises
    ------
    MemoryBudgetExceeded when the arrays would not fit ``max_memory_mb``; SearchTimeout when the
    budget is spent (checked every chunk of work).

    Example
    -------
    >>> from cpwords.puzzles.letter_boxed.words import Box
    >>> box = Box.from_sides(["ab", "cd", "ef"])
    >>> t = WordTable(box, ["ace", "ebdf"], [0, 4], [4, 5], [21, 58], [3, 4])
    >>> reach = can_finish(t, 2)
    >>> bool(reach[2][0, 0]), bool(reach[1][0, 0])
    (True, False)
    """
    n, full = table.box.n, table.box.full
    _check_memory((max_words + 2) * n * (1 << n) + 16 * (1 << n) + 8 * _CHUNK_CELLS, max_memory_mb,
                  f"pruning the search over a box of {n} letters")
    check = budget.check if budget is not None else (lambda: None)
    if known is not None and len(known) > max_words:
        return known[:max_words + 1]
    masks = np.arange(1 << n, dtype=np.int64)
    not_full = masks != full
    groups = _word_groups(table)
    reach = list(known) if known else []
    if not reach:
        reach.append(np.zeros((n, 1 << n), dtype=bool))
        reach[0][:, full] = True
    if len(reach) == 1 and max_words >= 1:
        check()
        one = np.zeros((n, 1 << n), dtype=bool)
        one[np.array(table.first, dtype=np.int64), full & ~np.array(table.mask, dtype=np.int64)] = True
        _up_closure(one, n)
        one[:, full] = False
        reach.append(one)
    while len(reach) <= max_words:
        prev, nxt = reach[-1], np.zeros((n, 1 << n), dtype=bool)
        for (f, e), word_masks in groups.items():
            target = prev[e]
            if not target.any():
                continue
            step = max(1, _CHUNK_CELLS >> n)
            for i in range(0, len(word_masks), step):
                check()
                chunk = word_masks[i:i + step]
                nxt[f] |= target[masks[None, :] | chunk[:, None]].any(axis=0)
        nxt &= not_full[None, :]
        reach.append(nxt)
    return reach


def _up_closure(sets: np.ndarray, n: int) -> None:
    """In place, per row of ``sets`` (shape (rows, 2^n)): mark every superset of a marked set.

    >>> a = np.zeros((1, 8), dtype=bool); a[0, 0b001] = True
    >>> np.flatnonzero(a[0]).tolist(), (_up_closure(a, 3), np.flatnonzero(a[0]).tolist())[1]
    ([1], [1, 3, 5, 7])
    """
    rows = sets.shape[0]
    for b in range(n):
        view = sets.reshape(rows, -1, 2, 1 << b)
        view[:, :, 1, :] |= view[:, :, 0, :]


def reachable_sets(table: WordTable, k: int, budget: Budget | None = None, *,
                   max_memory_mb: int | None = DEFAULT_MEMORY_MB) -> list[np.ndarray]:
    """``seen[p][e, m]``: some chain of p words ends with letter e having covered exactly m, without
    covering every letter (p = 1 .. k-1; ``seen[0]`` is unused). Repeats allowed."""
    n, full = table.box.n, table.box.full
    _check_memory((k + 1) * n * (1 << n) + 16 * (1 << n), max_memory_mb,
                  f"pruning the search over a box of {n} letters")
    check = budget.check if budget is not None else (lambda: None)
    groups = _word_groups(table)
    seen = [np.zeros((n, 1 << n), dtype=bool)]
    first = np.zeros((n, 1 << n), dtype=bool)
    for e, m in zip(table.last, table.mask, strict=True):
        if m != full:
            first[e, m] = True
    seen.append(first)
    for _ in range(2, k):
        prev, nxt = seen[-1], np.zeros((n, 1 << n), dtype=bool)
        sources = [np.flatnonzero(prev[f]) for f in range(n)]
        for (f, e), word_masks in groups.items():
            if not len(sources[f]):
                continue
            check()
            nxt[e, (sources[f][None, :] | word_masks[:, None]).ravel()] = True
        nxt[:, full] = False
        seen.append(nxt)
    return seen


def position_domains(table: WordTable, k: int, budget: Budget | None = None, *,
                     max_memory_mb: int | None = DEFAULT_MEMORY_MB,
                     cache: dict[str, Any] | None = None) -> list[list[int]]:
    """For each position p of an answer of exactly k words, the indexes of the words that can
    stand there: some chain of p words before it and k-1-p after it (repeats allowed) covers
    every letter with it, and no word before the last completes the box.

    A relaxation: every answer of k words uses only words of these lists at their positions.
    ``cache``: a dict kept between the calls of one solve (k = 1, 2, ...): the steps of
    :func:`can_finish` computed for one k are reused for the next.

    >>> from cpwords.puzzles.letter_boxed.words import Box
    >>> box = Box.from_sides(["ab", "cd", "ef"])
    >>> t = WordTable(box, ["ace", "ebdf", "fa", "eca"], [0, 4, 5, 4], [4, 5, 0, 0], [21, 58, 33, 21], [3, 4, 2, 3])
    >>> position_domains(t, 2)
    [[0], [1]]
    """
    full = table.box.full
    mask = np.array(table.mask, dtype=np.int64)
    last = np.array(table.last, dtype=np.int64)
    if k == 1:
        return [np.flatnonzero(mask == full).tolist()]
    known = None if cache is None else cache.get("reach")
    reach = can_finish(table, k - 1, budget, max_memory_mb=max_memory_mb, known=known)
    if cache is not None and len(reach) > len(known or []):
        cache["reach"] = reach
    seen = reachable_sets(table, k, budget, max_memory_mb=max_memory_mb)
    check = budget.check if budget is not None else (lambda: None)
    domains = [np.flatnonzero((mask != full) & reach[k - 1][last, mask]).tolist()]
    by_ends: dict[tuple[int, int], list[int]] = defaultdict(list)
    for w in range(len(table)):
        by_ends[table.first[w], table.last[w]].append(w)
    for p in range(1, k):
        after, keep = reach[k - 1 - p], []
        for (f, e), words in by_ends.items():
            before = np.flatnonzero(seen[p][f])
            if not len(before):
                continue
            step = max(1, _CHUNK_CELLS // len(before))
            for i in range(0, len(words), step):
                check()
                chunk = np.array(words[i:i + step], dtype=np.int64)
                ok = after[e][before[None, :] | mask[chunk][:, None]].any(axis=1)
                keep.extend(chunk[ok].tolist())
        domains.append(sorted(keep))
    return domains


def domains_or_none(table: WordTable, k: int, spec: LetterBoxedSpec, budget: Budget,
                    cache: dict[str, Any] | None = None) -> list[list[int]] | None:
    """:func:`position_domains` within the spec's memory budget, or None when some position can
    hold no word (then no answer of exactly k words exists).

    Raises MemoryBudgetExceeded when the tables would not fit: the models without them are no
    smaller (every playable word at every position), and solvers were seen to ignore their
    interrupts for minutes on such formulas."""
    domains = position_domains(table, k, budget, max_memory_mb=spec.max_memory_mb,
                               cache=cache)
    return None if any(not d for d in domains) else domains
