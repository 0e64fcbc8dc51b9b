"""The native Spelling Bee engine: subsets of a seven-letter mask, words grouped by mask.

``words`` walks the 127 subsets of the hive; ``generate`` sums, for every seven-letter mask that
some word has (a pangram) and each of its seven centres, the words and points of the subsets that
hold the centre, then keeps the hives whose figures are within the spec's bounds.
"""

from __future__ import annotations

import heapq
import random
from typing import Any

from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found
from cpwords.puzzles.spelling_bee.words import HIVE_SIZE, PANGRAM_BONUS, WordTable
from cpwords.wording import counted


def words(table: WordTable, spec: Any, budget: Budget) -> Found:
    """Every word of the spec's hive (one answer: the hive with all of them)."""
    hive = table.mask_of(spec.letters)
    found = table.hive_words(hive, table.mask_of(spec.center))
    return Found(answers=[(spec.hive(), found)], count=len(found),
                 objective=sum(p for _, p, _ in found))


def hive_figures(table: WordTable, hive: int) -> list[tuple[int, int, int]]:
    """``(centre bit, words, points)`` of a seven-letter hive for each of its seven centres."""
    subsets = []
    sub = hive
    while sub:
        if sub in table.words:
            bonus = PANGRAM_BONUS * len(table.words[sub]) if sub == hive else 0
            subsets.append((sub, len(table.words[sub]), table.points[sub] + bonus))
        sub = (sub - 1) & hive
    out = []
    bits = hive
    while bits:
        c = bits & -bits
        bits ^= c
        n = p = 0
        for m, k, pts in subsets:
            if m & c:
                n += k
                p += pts
        out.append((c, n, p))
    return out


def within(spec: Any, n: int, p: int) -> bool:
    """True when a hive's word count ``n`` and points ``p`` are within the spec's bounds."""
    return ((spec.min_words is None or n >= spec.min_words) and (spec.max_words is None or n <= spec.max_words)
            and (spec.min_points is None or p >= spec.min_points)
            and (spec.max_points is None or p <= spec.max_points))


def generate(table: WordTable, spec: Any, budget: Budget) -> Found:
    """Hives (seven letters with a pangram, and a centre) whose words and points are in range.

    Every candidate is examined, so the number of hives in range is exact (``count``) unless the
    time limit cuts the scan; the hives are the first ``puzzles`` by ``maximize``, or a seeded
    random choice among all of them. Without ``maximize`` the candidates are scanned in a seeded
    random order, so that a scan cut short still draws from every part of the alphabet.
    """
    tick = budget.ticker(64)
    avoid = table.mask_of(spec.avoid)
    candidates = table.pangram_masks(avoid)
    rng = random.Random(spec.seed)
    if spec.maximize is None:
        rng.shuffle(candidates)
    good: list[tuple[int, int, int, int]] = []  # (hive, centre bit, words, points)
    found = Found(stats={"pangram_sets": len(candidates)})
    scanned = 0
    try:
        for hive in candidates:
            tick()
            for c, n, p in hive_figures(table, hive):
                if within(spec, n, p):
                    good.append((hive, c, n, p))
            scanned += 1
    except SearchTimeout as exc:
        found.stop(exc.args[0] if exc.args else None)
    if spec.maximize is not None:
        key = 2 if spec.maximize == "words" else 3
        chosen = heapq.nsmallest(spec.puzzles, good, key=lambda g: (-g[key], g[0], g[1]))
    else:
        chosen = rng.sample(good, min(spec.puzzles, len(good)))
    found.count = len(good)
    found.answers = [(_hive_letters(table, h, c), table.hive_words(h, c)) for h, c, _, _ in chosen]
    if spec.maximize is not None and chosen:
        found.objective = chosen[0][2 if spec.maximize == "words" else 3]
    if not found.complete and chosen:
        how = f"the {'best' if spec.maximize else 'hives drawn'} among"
        found.message = (f"the time limit was reached after {scanned:,} of {len(candidates):,} pangram letter sets: "
                         f"{how} those ({counted(len(good), 'hive')} in range so far)")
    return found


def _hive_letters(table: WordTable, hive: int, center: int) -> str:
    """The hive's letters as a string, centre first."""
    assert hive.bit_count() == HIVE_SIZE
    c = table.letters_of(center)
    return c + table.letters_of(hive).replace(c, "")
