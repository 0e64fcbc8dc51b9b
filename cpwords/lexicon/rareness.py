"""Rareness: one integer per word, lower = more common, spread over orders of magnitude.

    rareness = max(1, round(10 ** (LEVEL_EXPONENT[level] + (4 - zipf) / 2)))

with ``zipf`` taken as 0 when wordfreq does not know the word. Each SCOWL level step above 40
multiplies rareness by 10, and every zipf point below 4 (a word seen once per 10 million words
and rarer) multiplies it by about 3. The sum of rarenesses along a ladder therefore prefers
several common words to a single obscure one (see docs/dictionaries.md for worked values).
"""

from __future__ import annotations

from functools import cache

#: Rarest level, given to user-list words SCOWL does not know.
UNKNOWN_LEVEL = 100

LEVEL_EXPONENT: dict[int, float] = {
    10: 0.0, 20: 0.0, 35: 0.5, 40: 1.0, 50: 2.0, 55: 3.0, 60: 4.0, 70: 5.0, 80: 6.0, 95: 7.0,
    UNKNOWN_LEVEL: 8.0,
}

#: Bumped whenever the formula changes (it is part of every lexicon's content hash).
FORMULA_VERSION = 1


@cache
def rareness_of(level: int, zipf_c: int) -> int:
    """Rareness of a word with SCOWL ``level`` and zipf ``zipf_c / 100`` (0 = unknown).

    >>> rareness_of(20, 481), rareness_of(35, 311), rareness_of(50, 172)
    (1, 9, 1380)
    """
    exponent = LEVEL_EXPONENT.get(level)
    if exponent is None:  # a level between the SCOWL ones (user data): the next level up
        exponent = LEVEL_EXPONENT[min(lv for lv in LEVEL_EXPONENT if lv >= level)] if level <= 100 else 8.0
    return max(1, round(10 ** (exponent + (4 - zipf_c / 100) / 2)))
