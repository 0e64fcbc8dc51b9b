"""Exact numbers of Letter Boxed answers of each word count, without listing them: chains of words
within each set of letters by batched matrix products, inclusion-exclusion over the sets, and
Möbius inversion over the partitions of the positions for distinct words (see
:func:`count_answers`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from cpwords.engines.budget import Budget
from cpwords.puzzles.letter_boxed.reach import DEFAULT_MEMORY_MB
from cpwords.puzzles.letter_boxed.words import WordTable

#: Exact counting sums one n x n matrix per subset of the box letters: 2^n of them, a block at a time.
MAX_COUNT_LETTERS = 20


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


#: (k, partition of the k positions) pairs: the terms the count sums over.
Terms = list[tuple[int, tuple[tuple[int, ...], ...]]]


def _count_terms(max_words: int) -> Terms:
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
    whole = subset_word_matrices(table, dtype=np.int64, high=(1 << n) - 1, low_bits=0)[0]
    big = _may_pass_int64(whole, terms)
    if big and n > 16:
        raise ValueError("the counts of this box pass 2^62 chains: exact counting by arrays of Python "
                         "integers handles boxes of up to 16 letters")
    dtype = object if big else np.int64
    bits = n if big else min(n, block_bits if block_bits is not None else count_block_bits(n, max_memory_mb))
    sums = _signed_sums(table, terms, _Operands.of(whole.astype(dtype, copy=False)), dtype, bits, budget)
    out = {k: 0 for k in range(1, max_words + 1)}
    for (k, partition), value in sums.items():
        if dtype is not object:
            value = (value + 2**63) % 2**64 - 2**63  # the exact value, from its residue modulo 2^64
        out[k] += _mobius(partition) * value
    return out


def _may_pass_int64(whole: np.ndarray, terms: Terms) -> bool:
    """Whether some partition's chains over the whole box (``whole``: its one word-count matrix)
    reach 2^62, counted with Python integers: then int64 sums might not be exact."""
    exact = _Operands.of(whole[None].astype(object))
    return any(int(_chain_count(exact, _Operands.of(exact.full[0]), p, k, last_free=False)[0]) >= 2**62
               for k, p in terms)


def _signed_sums(table: WordTable, terms: Terms, a_full: _Operands, dtype: Any, bits: int,
                 budget: Budget | None) -> dict[tuple[int, tuple[tuple[int, ...], ...]], int]:
    """Each term's inclusion-exclusion sum over the letter sets, 2^``bits`` sets a block (in
    ``dtype``: int64 sums are exact modulo 2^64)."""
    n = table.box.n
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
    return sums
