"""Native Letter Boxed algorithms: fewest words by layered search over (last letter, covered
letters) states, and lazy enumeration (exact answer counts without listing are in
:mod:`~cpwords.puzzles.letter_boxed.counting`).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from cpwords.engines.budget import Budget
from cpwords.puzzles.letter_boxed.reach import DEFAULT_MEMORY_MB, MemoryBudgetExceeded, can_finish
from cpwords.puzzles.letter_boxed.words import WordTable


def min_words(table: WordTable, max_words: int, budget: Budget | None = None, *,
              max_memory_mb: int | None = DEFAULT_MEMORY_MB) -> tuple[int, int, list[int]] | None:
    """A best answer: fewest words, then least total cost (``table.cost``).

    Breadth-first over layers of states (last letter, covered mask, cost). A state is dropped when
    another with the same last letter covers at least its letters for no more cost (Pareto
    pruning). Before building layer k+1 the search checks whether some state of layer k finishes
    with one more word (outer products of masks per letter), so the last layer is never built.
    Repeated words never help a shortest answer (dropping the repeat and the words between keeps
    the chain), so states need not remember which words were used.

    Parameters
    ----------
    table: playable words (dominated words may be dropped beforehand: the optimum is unchanged).
    max_words: largest number of words tried.
    budget: checked between layers and while a layer is built (raises SearchTimeout when spent).
    max_memory_mb: the states kept (every layer, for the path back) may take at most this much;
        MemoryBudgetExceeded is raised before a layer would pass it.

    Returns
    -------
    (words, cost, word indexes) of a best answer, or None when none has at most ``max_words`` words.

    Example
    -------
    >>> from cpwords.puzzles.letter_boxed.words import Box, WordTable
    >>> box = Box.from_sides(["ab", "cd", "ef"])
    >>> t = WordTable(box, ["ace", "efa", "bdf"], [0, 4, 1], [4, 0, 5], [21, 49, 42], [3, 3, 3])
    >>> min_words(t, 3) is None
    True
    """
    if not len(table):
        return None
    mask = np.array(table.mask, dtype=np.int64)
    cost = np.array(table.cost, dtype=np.int64)
    whole = np.flatnonzero(mask == table.box.full)
    if len(whole):
        best = whole[np.argmin(cost[whole])]
        return 1, int(cost[best]), [int(best)]
    return _layered_search(table, mask, cost, max_words, budget, max_memory_mb)


def _layered_search(table: WordTable, mask: np.ndarray, cost: np.ndarray, max_words: int, budget: Budget | None,
                    max_memory_mb: int | None) -> tuple[int, int, list[int]] | None:
    """:func:`min_words` from two words up (no word covers the box): a layer of states a word count."""
    n, full = table.box.n, table.box.full
    first = np.array(table.first, dtype=np.int64)
    last = np.array(table.last, dtype=np.int64)
    starting = [np.flatnonzero(first == letter) for letter in range(n)]
    # Layer 1: each word is a state; per layer keep parent state and the word taken.
    s_end, s_mask, s_cost = last, mask, cost
    parents: list[tuple[np.ndarray, np.ndarray]] = [(np.full(len(table), -1), np.arange(len(table)))]
    check = budget.check if budget is not None else (lambda: None)
    for k in range(2, max_words + 1):
        check()
        done = _finish(s_end, s_mask, s_cost, starting, mask, cost, n, full, check)
        if done is not None:
            state, word, total = done
            return k, total, _path(parents, state) + [word]
        if k == max_words:
            break
        if k == 2:  # the first layer is pruned only when it has to be expanded
            keep = _prune(s_end, s_mask, s_cost, n)
            s_end, s_mask, s_cost = s_end[keep], s_mask[keep], s_cost[keep]
            parents[0] = (parents[0][0][keep], parents[0][1][keep])
        kept_bytes = sum(p.nbytes + w.nbytes for p, w in parents) + 3 * s_end.nbytes
        cap = None if max_memory_mb is None else max(0, (max_memory_mb * 2**20 - kept_bytes) // _STATE_BYTES)
        s_end, s_mask, s_cost, parent, word = _expand(s_end, s_mask, s_cost, starting, last, mask, cost, n, check,
                                                      cap=cap, max_memory_mb=max_memory_mb)
        if not len(s_end):
            break
        parents.append((parent, word))
    return None


def _pareto_front(masks: np.ndarray, costs: np.ndarray) -> np.ndarray:
    """Indexes of the (mask, cost) pairs that no other pair beats: a superset mask for no more cost."""
    popcount = np.array([int(m).bit_count() for m in masks.tolist()], dtype=np.int64)
    order = np.lexsort((-popcount, costs))
    kept: list[int] = []
    kept_masks = np.zeros(len(order), dtype=np.int64)
    for i in order.tolist():
        m = masks[i]
        if len(kept) and ((kept_masks[:len(kept)] | m) == kept_masks[:len(kept)]).any():
            continue
        kept_masks[len(kept)] = m
        kept.append(i)
    return np.array(sorted(kept), dtype=np.int64)


def _prune(ends: np.ndarray, masks: np.ndarray, costs: np.ndarray, n: int, *, pareto_up_to: int = 20000) -> np.ndarray:
    """Indexes of the states worth keeping: the cheapest per (last letter, mask), then the Pareto
    front per last letter (skipped for very large layers, where it would cost more than it saves)."""
    keep = _cheapest_per_state(ends, masks, costs, n)
    if len(keep) > pareto_up_to:
        return keep
    out = []
    for letter in range(n):
        here = keep[ends[keep] == letter]
        if len(here):
            out.append(here[_pareto_front(masks[here], costs[here])])
    return np.concatenate(out) if out else keep[:0]


def _finish(s_end, s_mask, s_cost, finishing, mask, cost, n, full, check=lambda: None):
    """The cheapest (state, word, total cost) where one more word covers every letter, or None.

    States are tried in blocks against the words (bounded temporary arrays)."""
    best = None
    for letter in range(n):
        here = np.flatnonzero(s_end == letter)
        nxt = finishing[letter]
        if not len(here) or not len(nxt):
            continue
        step = max(1, _EXPAND_CHUNK // len(nxt))
        for i in range(0, len(here), step):
            check()
            block = here[i:i + step]
            covers = (s_mask[block][:, None] | mask[nxt][None, :]) == full
            if not covers.any():
                continue
            rows, cols = np.nonzero(covers)
            totals = s_cost[block][rows] + cost[nxt][cols]
            j = int(np.argmin(totals))
            if best is None or totals[j] < best[2]:
                best = (int(block[rows[j]]), int(nxt[cols[j]]), int(totals[j]))
    return best


#: Bytes a state costs while a layer is built: five int64 arrays, sorting and pruning copies.
_STATE_BYTES = 160
#: States expanded at once (bounds the temporary arrays of one step).
_EXPAND_CHUNK = 1 << 20


def _expand(s_end, s_mask, s_cost, starting, last, mask, cost, n, check, *, cap=None, max_memory_mb=None):
    """Next layer: every state followed by every word starting with its last letter, pruned.

    Built in chunks, each pruned to its cheapest state per (last letter, covered letters) before
    the next, so memory follows the distinct states rather than states x words; raises
    MemoryBudgetExceeded once the distinct states pass ``cap``."""
    parts: list[tuple[np.ndarray, ...]] = []
    held = 0
    for letter in range(n):
        check()
        here = np.flatnonzero(s_end == letter)
        nxt = starting[letter]
        if not len(here) or not len(nxt):
            continue
        step = max(1, _EXPAND_CHUNK // len(nxt))
        for i in range(0, len(here), step):
            check()
            block = here[i:i + step]
            p = np.repeat(block, len(nxt))
            w = np.tile(nxt, len(block))
            e, m, c = last[w], s_mask[p] | mask[w], s_cost[p] + cost[w]
            keep = _cheapest_per_state(e, m, c, n)
            parts.append((e[keep], m[keep], c[keep], p[keep], w[keep]))
            held += len(keep)
            if held > 4 * _EXPAND_CHUNK:
                parts = [_merge(parts, n)]
                held = len(parts[0][0])
            if cap is not None and held > cap:
                raise MemoryBudgetExceeded(
                    f"the native search over a box of {n} letters passed its memory budget of {max_memory_mb:,} MB "
                    f"(max_memory_mb) with over {held:,} states in one layer; use a smaller dictionary, "
                    "fewer letters or raise max_memory_mb")
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty, empty
    e, m, c, p, w = _merge(parts, n)
    keep = _prune(e, m, c, n)
    return e[keep], m[keep], c[keep], p[keep], w[keep]


def _cheapest_per_state(ends: np.ndarray, masks: np.ndarray, costs: np.ndarray, n: int) -> np.ndarray:
    """Indexes of the cheapest entry of each (last letter, covered letters) state."""
    key = (ends << n) | masks
    order = np.lexsort((costs, key))
    _, first_of_key = np.unique(key[order], return_index=True)
    return order[first_of_key]


def _merge(parts: list[tuple[np.ndarray, ...]], n: int) -> tuple[np.ndarray, ...]:
    e, m, c, p, w = (np.concatenate(x) for x in zip(*parts, strict=True))
    keep = _cheapest_per_state(e, m, c, n)
    return e[keep], m[keep], c[keep], p[keep], w[keep]


def _path(parents: list[tuple[np.ndarray, np.ndarray]], state: int) -> list[int]:
    out = []
    for parent, word in reversed(parents):
        out.append(int(word[state]))
        state = int(parent[state])
    return out[::-1]


# ------------------------------------------------------------------ lazy enumeration


def enumerate_answers(table: WordTable, max_words: int, *, min_words: int = 1,
                      budget: Budget | None = None,
                      max_memory_mb: int | None = DEFAULT_MEMORY_MB) -> Iterator[list[int]]:
    """Answers (word indexes) of min_words, ..., max_words words, lazily, by depth-first search.

    Pruned with :func:`~cpwords.puzzles.letter_boxed.reach.can_finish`. Raises
    :class:`~cpwords.engines.budget.SearchTimeout` once the ``budget`` is spent and
    MemoryBudgetExceeded when the pruning tables would pass ``max_memory_mb``.
    """
    n, full = table.box.n, table.box.full
    reach = can_finish(table, max_words - 1, budget, max_memory_mb=max_memory_mb)
    starting: list[list[int]] = [[] for _ in range(n)]
    for i, f in enumerate(table.first):
        starting[f].append(i)
    last, mask = table.last, table.mask
    tick = budget.ticker() if budget is not None else (lambda: None)

    def extend(path: list[int], end: int, covered: int, left: int) -> Iterator[list[int]]:
        tick()
        for w in starting[end]:
            m = covered | mask[w]
            if left == 1:
                if m == full and w not in path:
                    yield path + [w]
            elif m != full and reach[left - 1][last[w], m] and w not in path:
                path.append(w)
                yield from extend(path, last[w], m, left - 1)
                path.pop()

    for k in range(min_words, max_words + 1):
        for w in range(len(table)):
            m = mask[w]
            if k == 1:
                if m == full:
                    yield [w]
            elif m != full and reach[k - 1][last[w], m]:
                yield from extend([w], last[w], m, k - 1)
