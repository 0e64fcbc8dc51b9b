"""Native Letter Boxed algorithms: fewest words by layered search over (last letter, covered
letters) states, exact answer counts by inclusion-exclusion without listing, lazy enumeration.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from cpwords.engines.budget import Budget
from cpwords.puzzles.letter_boxed.reach import DEFAULT_MEMORY_MB, MemoryBudgetExceeded, can_finish
from cpwords.puzzles.letter_boxed.words import WordTable

#: Exact counting sums one n x n matrix per subset of the box letters: 2^n of them, a block at a time.
MAX_COUNT_LETTERS = 20


def min_words(table: WordTable, max_words: int, budget: Budget | None = None, *,
              max_memory_mb: int | None = DEFAULT_MEMORY_MB) -> tuple[int, int, list[int]] | None:
    """A best answer: fewest words, then least total cost (``table.cost``).

    Breadth-first over layers of states (last letter, covered mask, cost). A state is dropped when
    another with the same last letter covers at least its letters for no more cost (Pareto
    pruning). Before building layer k+1 the search checks whether some state of layer k finishes
    with one more word (outer products of masks per letter), so the last layer is never built. Repeated words never help a shortest answer (dropping the repeat
    and the words between keeps the chain), so states need not remember which words were used.

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
    n, full = table.box.n, table.box.full
    if not len(table):
        return None
    first = np.array(table.first, dtype=np.int64)
    last = np.array(table.last, dtype=np.int64)
    mask = np.array(table.mask, dtype=np.int64)
    cost = np.array(table.cost, dtype=np.int64)
    starting = [np.flatnonzero(first == letter) for letter in range(n)]
    whole = np.flatnonzero(mask == full)
    if len(whole):
        best = whole[np.argmin(cost[whole])]
        return 1, int(cost[best]), [int(best)]
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


# ------------------------------------------------------------------ exact counting


@cache
def _set_partitions(k: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """All partitions of positions 0..k-1 into blocks (each block sorted, blocks by first element)."""
    if k == 0:
        return ((),)
    out = []
    for p in _set_partitions(k - 1):
        out.append(p + ((k - 1,),))
        for i in range(len(p)):
            out.append(p[:i] + (p[i] + (k - 1,),) + p[i + 1:])
    return tuple(tuple(sorted(b for b in p)) for p in out)


def _mobius(partition: tuple[tuple[int, ...], ...]) -> int:
    """Möbius value mu(0, pi) of the partition lattice: prod over blocks of (-1)^(b-1) (b-1)!."""
    out = 1
    for block in partition:
        b = len(block)
        out *= (-1) ** (b - 1) * _factorial(b - 1)
    return out


def _factorial(n: int) -> int:
    out = 1
    for i in range(2, n + 1):
        out *= i
    return out


def subset_word_matrices(table: WordTable, dtype: Any = np.int64, *, high: int | None = None,
                         low_bits: int | None = None) -> np.ndarray:
    """``A[S, f, e]``: number of playable words from letter f to letter e using only letters of S.

    One array of shape (2^n, n, n), built by a subset-sum (zeta) transform over the word masks.
    With ``high`` and ``low_bits``: only the block of sets whose letters above the ``low_bits``
    lowest are exactly the bits of ``high`` (``S = high << low_bits | L``), shape (2^low_bits, n, n):
    the words whose high letters are within ``high``, summed over the subsets of ``L``.

    >>> from cpwords.lexicon import Lexicon
    >>> from cpwords.puzzles.letter_boxed.words import Box, playable_words
    >>> t = playable_words(Box.from_sides(["ab", "cd"]), Lexicon.from_words(["ac", "cad", "bd"]), min_length=2)
    >>> a = subset_word_matrices(t)
    >>> int(a[-1].sum()), int(a[0b0101].sum())  # every word; the words of a and c only
    (3, 1)
    >>> bool((subset_word_matrices(t, high=0b1, low_bits=3) == a[8:]).all())
    True
    """
    n = table.box.n
    bits = n if low_bits is None else low_bits
    mask = np.array(table.mask, dtype=np.int64)
    first, last = np.array(table.first, dtype=np.int64), np.array(table.last, dtype=np.int64)
    if high is not None:
        keep = (mask >> bits) & ~high == 0  # high letters within the block's
        mask, first, last = mask[keep] & ((1 << bits) - 1), first[keep], last[keep]
    a = np.zeros((1 << bits, n, n), dtype=dtype)
    np.add.at(a, (mask, first, last), 1)
    for bit in range(bits):
        view = a.reshape(1 << (bits - bit - 1), 2, 1 << bit, n, n)
        view[:, 1] += view[:, 0]
    return a


@dataclass
class _Operands:
    """A stack of word-count matrices and its sums over first letters, last letters and both
    (einsum operands for chain ends that no other word shares: summing them first turns
    matrix products into vector products)."""

    full: np.ndarray
    rows: np.ndarray
    cols: np.ndarray
    total: np.ndarray

    @classmethod
    def of(cls, a: np.ndarray) -> _Operands:
        return cls(a, a.sum(axis=-2), a.sum(axis=-1), a.sum(axis=(-2, -1)))


def _chain_count(a_sets: _Operands, a_full: _Operands, partition: tuple[tuple[int, ...], ...], k: int,
                 last_free: bool) -> np.ndarray:
    """For every subset S: number of k-word chains whose words in one block of ``partition`` are equal,
    words within S (the last word any word, when ``last_free``). Letters x0..xk are einsum labels."""
    parent = list(range(k + 1))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for block in partition:
        for pos in block[1:]:  # same word: same first letter and same last letter
            parent[find(pos)] = find(block[0])
            parent[find(pos + 1)] = find(block[0] + 1)
    labels = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRTUVWXYZ"
    pairs = [(find(block[0]), find(block[0] + 1)) for block in partition]
    uses = Counter(label for pair in pairs for label in set(pair))
    operands, terms = [], []
    for block, (x, y) in zip(partition, pairs, strict=True):
        stack, batch = (a_full, "") if last_free and block == (k - 1,) else (a_sets, "S")
        keep_x, keep_y = uses[x] > 1 or x == y, uses[y] > 1 or x == y
        if keep_x and keep_y:
            operands.append(stack.full)
            terms.append(batch + labels[x] + labels[y])
        elif keep_x:
            operands.append(stack.cols)
            terms.append(batch + labels[x])
        elif keep_y:
            operands.append(stack.rows)
            terms.append(batch + labels[y])
        else:
            operands.append(stack.total)
            terms.append(batch)
    if not any(t.startswith("S") for t in terms):  # (only with a one-word partition on the full set)
        operands.append(np.ones(a_sets.total.shape, dtype=a_sets.total.dtype))
        terms.append("S")
    return _contract(terms, operands, "S")


def _contract(terms: list[str], operands: list[np.ndarray], output: str) -> np.ndarray:
    """``np.einsum(",".join(terms) + "->" + output, *operands)``, two operands at a time in the
    order of its greedy path, each pair contracted by the C einsum loop (numpy's optimised einsum
    copies and reshapes its operands for each pairwise product: more than half of the count's
    time on big boxes).

    >>> a, b = np.arange(8).reshape(2, 2, 2), np.arange(4).reshape(2, 2)
    >>> bool((_contract(["Sab", "Sb"], [a, b], "S") == np.einsum("Sab,Sb->S", a, b)).all())
    True
    """
    if len(operands) <= 2:
        return np.einsum(",".join(terms) + "->" + output, *operands, optimize=False)
    path = _einsum_order(",".join(terms) + "->" + output, tuple(op.shape for op in operands))
    terms, operands = list(terms), list(operands)
    for pair in path:
        i, j = sorted(pair, reverse=True)
        ti, tj = terms.pop(i), terms.pop(j)
        oi, oj = operands.pop(i), operands.pop(j)
        needed = set(output).union(*terms)
        keep = "".join(c for c in dict.fromkeys(tj + ti) if c in needed)
        operands.append(np.einsum(f"{tj},{ti}->{keep}", oj, oi, optimize=False))
        terms.append(keep)
    (result,) = operands
    if terms[0] != output:
        result = np.einsum(f"{terms[0]}->{output}", result)
    return result


@cache
def _einsum_order(subscripts: str, shapes: tuple[tuple[int, ...], ...]) -> list[tuple[int, ...]]:
    """The greedy einsum contraction order for these subscripts and shapes (pairs of operand positions)."""
    dummies = [np.empty(shape, dtype=np.int8) for shape in shapes]  # (only shapes matter)
    path = np.einsum_path(subscripts, *dummies, optimize="greedy")[0]
    return [tuple(p) for p in path[1:]]


def _count_terms(max_words: int) -> list[tuple[int, tuple[tuple[int, ...], ...]]]:
    """The (k, partition) pairs the count sums over (see :func:`count_answers`)."""
    # A partition where the last word repeats an earlier one is left out: that word adds no letter,
    # so the first k-1 words already cover everything; such chains are never answers (both
    # terms cancel).
    return [(k, p) for k in range(1, max_words + 1) for p in _set_partitions(k) if k == 1 or (k - 1,) in p]


#: Letters per block of the count at most: blocks of 2^10–2^12 sets stay in the CPU caches and
#: counted an 18-letter box up to 5 words in 5.7–6.2 s, against 8.1–8.8 s with 2^15–2^16.
COUNT_BLOCK_BITS = 11


def count_block_bits(n: int, max_memory_mb: int | None = DEFAULT_MEMORY_MB) -> int:
    """Letters per block of :func:`count_answers`: at most :data:`COUNT_BLOCK_BITS`, fewer when
    about six arrays of 2^bits n×n int64 would pass the memory budget (at least 8)."""
    budget = (max_memory_mb or DEFAULT_MEMORY_MB) * 2**20
    bits = min(n, COUNT_BLOCK_BITS)
    while bits > 8 and 6 * (1 << bits) * n * n * 8 > budget:
        bits -= 1
    return bits


def count_answers(table: WordTable, max_words: int, budget: Budget | None = None, *,
                  max_memory_mb: int | None = DEFAULT_MEMORY_MB, block_bits: int | None = None) -> dict[int, int]:
    """Exact number of answers of each word count 1..max_words, without listing them.

    An answer of k words: distinct words, chained, every letter covered, and the first k-1 words
    not yet covering every letter. For each k:

    * chains of words within a letter set S are counted with batched matrix products over
      ``A[S]``, and inclusion-exclusion over S (sign (-1)^(n-|S|)) keeps those covering all letters;
    * chains whose first k-1 words already cover everything are subtracted the same way;
    * distinct words: Möbius inversion over the partitions of the k positions (a block = positions
      forced to hold the same word), so chains with a repeated word cancel out exactly.

    The sets S are taken in blocks of 2^``block_bits`` (default: :func:`count_block_bits` of the
    memory budget), so that an 18-letter box needs 2^18 · 18 · 18 numbers only a block at a time.

    Exactness: the inclusion-exclusion sum of one partition is the number of its chains whose
    words cover every letter, at most its number of chains over the whole box. When that is below
    2^62 for every partition (checked first, with Python integers on the box's one matrix), int64
    sums are exact modulo 2^64 whatever they pass through on the way (block by block), and the
    true value is the one in (-2^63, 2^63). Otherwise the arrays hold Python integers (slow; only
    for boxes of up to 16 letters).

    Raises
    ------
    ValueError when the box has more than MAX_COUNT_LETTERS letters, or more than 16 and counts
    beyond int64; SearchTimeout when the ``budget`` is spent (checked between einsums).
    """
    n = table.box.n
    if n > MAX_COUNT_LETTERS:
        raise ValueError(f"exact counting handles boxes of up to {MAX_COUNT_LETTERS} letters")
    if not len(table):
        return {k: 0 for k in range(1, max_words + 1)}
    terms = _count_terms(max_words)
    whole = _Operands.of(subset_word_matrices(table, dtype=np.int64, high=(1 << n) - 1, low_bits=0)[0][None])
    exact = _Operands.of(whole.full.astype(object))
    big = any(int(_chain_count(exact, _Operands.of(exact.full[0]), p, k, last_free=False)[0]) >= 2**62
              for k, p in terms)
    if big and n > 16:
        raise ValueError("the counts of this box pass 2^62 chains: exact counting by arrays of Python "
                         "integers handles boxes of up to 16 letters")
    dtype = object if big else np.int64
    bits = n if big else min(n, block_bits if block_bits is not None else count_block_bits(n, max_memory_mb))
    a_full = _Operands.of(whole.full[0].astype(dtype, copy=False))
    popcount = np.array([bin(s).count("1") for s in range(1 << bits)])
    sums: dict[tuple[int, tuple[tuple[int, ...], ...]], int] = dict.fromkeys(terms, 0)
    for high in range(1 << (n - bits)):
        block = _Operands.of(subset_word_matrices(table, dtype=np.int64, high=high, low_bits=bits).astype(dtype, copy=False))
        sign = np.where((n - bin(high).count("1") - popcount) % 2 == 0, 1, -1).astype(dtype)
        for k, partition in terms:
            if budget is not None:
                budget.check()
            value = int((sign * _chain_count(block, a_full, partition, k, last_free=False)).sum())
            if k > 1:
                value -= int((sign * _chain_count(block, a_full, partition, k, last_free=True)).sum())
            sums[(k, partition)] += value
    out = {k: 0 for k in range(1, max_words + 1)}
    for (k, partition), value in sums.items():
        if dtype is not object:
            value = (value + 2**63) % 2**64 - 2**63  # the exact value, from its residue modulo 2^64
        out[k] += _mobius(partition) * value
    return out


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
