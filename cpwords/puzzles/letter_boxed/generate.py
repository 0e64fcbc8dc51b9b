"""Random boxes for ``generate``: distinct letters drawn by letter frequency (English, or the
dictionary's language)."""

from __future__ import annotations

import random

#: How often each letter appears in English text (per mille): common letters make playable boxes.
LETTER_WEIGHTS = {
    "e": 127, "t": 91, "a": 82, "o": 75, "i": 70, "n": 67, "s": 63, "h": 61, "r": 60, "d": 43,
    "l": 40, "c": 28, "u": 28, "m": 24, "w": 24, "f": 22, "g": 20, "y": 20, "p": 19, "b": 15,
    "v": 10, "k": 8, "j": 2, "x": 2, "q": 1, "z": 1,
}
VOWELS = set("aeiouäöü")


def random_box(rng: random.Random, side_count: int, per_side: int,
               weights: dict[str, int] | None = None) -> list[str]:
    """Distinct letters drawn by frequency (about a third of them vowels), dealt onto sides.

    ``weights``: letter -> weight; default :data:`LETTER_WEIGHTS` (English). A dictionary in another
    language passes its own (:meth:`~cpwords.lexicon.Lexicon.letter_weights`).

    >>> random_box(random.Random(1), 4, 3)
    ['ptc', 'nhl', 'oia', 'rfe']
    """
    total = side_count * per_side
    vowels = min(len(VOWELS), max(1, round(total / 3)))
    weights = {ch: w for ch, w in (weights or LETTER_WEIGHTS).items() if w > 0}
    pool_v = {ch: w for ch, w in weights.items() if ch in VOWELS}
    pool_c = {ch: w for ch, w in weights.items() if ch not in VOWELS}
    letters = _weighted_sample(rng, pool_v, vowels) + _weighted_sample(rng, pool_c, total - vowels)
    rng.shuffle(letters)
    return ["".join(letters[i * per_side:(i + 1) * per_side]) for i in range(side_count)]


def _weighted_sample(rng: random.Random, weights: dict[str, int], k: int) -> list[str]:
    pool = dict(weights)
    out = []
    for _ in range(k):
        ch = rng.choices(list(pool), weights=list(pool.values()))[0]
        out.append(ch)
        del pool[ch]
    return out
