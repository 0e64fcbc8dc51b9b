"""Exact Letter Boxed counts in blocks of letter sets: the same numbers as counting at once, as
listing the answers, and as trying every word sequence."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_letter_boxed_engines import brute_force_counts, small_puzzles

from cpwords import api
from cpwords.lexicon import Lexicon, load_lexicon
from cpwords.puzzles.letter_boxed import counting, native
from cpwords.puzzles.letter_boxed.generate import random_box
from cpwords.puzzles.letter_boxed.words import Box, playable_words


def _listed(table, max_words: int) -> dict[int, int]:  # type: ignore[no-untyped-def]
    out = {k: 0 for k in range(1, max_words + 1)}
    for answer in native.enumerate_answers(table, max_words):
        out[len(answer)] += 1
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.integers(0, 7), st.integers(1, 4))
def test_counting_in_blocks_gives_the_same_counts(puzzle: dict, block_bits: int, max_words: int) -> None:
    sides, words = puzzle["sides"], puzzle["dictionary"]["words"]
    table = playable_words(Box.from_sides(sides), Lexicon.from_words(words), min_length=2)
    whole = counting.count_answers(table, max_words)
    assert counting.count_answers(table, max_words, block_bits=block_bits) == whole
    assert whole == brute_force_counts(sides, words, max_words)


def test_block_sizes_follow_the_memory_budget() -> None:
    assert counting.count_block_bits(9) == 9  # a small box in one block
    assert counting.count_block_bits(18) == counting.COUNT_BLOCK_BITS  # blocks that stay in the caches
    assert counting.count_block_bits(20, max_memory_mb=16) == 9  # 6 x 2^9 x 20 x 20 x 8 bytes < 16 MB
    assert counting.count_block_bits(18, max_memory_mb=1) == 8  # the smallest block


def test_an_eighteen_letter_box_counts_by_blocks_as_listing_does() -> None:
    # 6 sides of 3 letters (common-10k, to keep listing quick): counts up to 3 words (this box has
    # 20 answers of 3), in 32 blocks, against listing every answer; the API path gives the same
    # total and names the method.
    box = random_box(random.Random(600), 6, 3)
    table = playable_words(Box.from_sides(box), load_lexicon("common-10k"), min_length=3)
    counted = counting.count_answers(table, 3, block_bits=13)
    assert counted == _listed(table, 3) and counted[3] > 0
    result = api.solve({"kind": "letter_boxed", "sides": box, "dictionary": "common-10k", "task": "count",
                        "engine": "native", "max_words": 3}, seed=1)
    assert result.status == "optimal" and result.count == sum(counted.values()) and result.count_exact
    assert result.stats["method"] == "inclusion-exclusion"


def test_a_box_whose_counts_pass_int64_is_refused_above_sixteen_letters(monkeypatch: pytest.MonkeyPatch) -> None:
    box = random_box(random.Random(602), 6, 3)
    table = playable_words(Box.from_sides(box), load_lexicon("scowl-35"), min_length=3)
    # Pretend the exactness check failed: the count must not go on with wrapped int64 sums.
    monkeypatch.setattr(counting, "_Operands", _Big.wrap(counting._Operands))
    with pytest.raises(ValueError, match="2\\^62"):
        counting.count_answers(table, 2)


class _Big:
    """Operands whose one-matrix (exactness) chain counts read as huge."""

    @staticmethod
    def wrap(real):  # type: ignore[no-untyped-def]
        class Patched(real):  # type: ignore[misc,valid-type]
            @classmethod
            def of(cls, a):  # type: ignore[no-untyped-def]
                if a.dtype == object:
                    a = a * 2**62
                return real.of(a)
        return Patched
