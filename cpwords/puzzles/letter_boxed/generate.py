"""Make new Letter Boxed puzzles with a given par (fewest words), hardest first."""

from __future__ import annotations

import random
import time
from typing import Any

from cpwords.errors import InputError
from cpwords.results import Result, Status

#: How often each letter appears in English text (per mille): common letters make playable boxes.
LETTER_WEIGHTS = {
    "e": 127, "t": 91, "a": 82, "o": 75, "i": 70, "n": 67, "s": 63, "h": 61, "r": 60, "d": 43,
    "l": 40, "c": 28, "u": 28, "m": 24, "w": 24, "f": 22, "g": 20, "y": 20, "p": 19, "b": 15,
    "v": 10, "k": 8, "j": 2, "x": 2, "q": 1, "z": 1,
}
VOWELS = set("aeiou")


def random_box(rng: random.Random, side_count: int, per_side: int) -> list[str]:
    """Distinct letters drawn by English frequency (about a third of them vowels), dealt onto sides.

    >>> random_box(random.Random(1), 4, 3)  # doctest: +SKIP
    ['tro', 'aew', 'hsi', 'nlc']
    """
    total = side_count * per_side
    vowels = min(len(VOWELS), max(1, round(total / 3)))
    pool_v = {ch: w for ch, w in LETTER_WEIGHTS.items() if ch in VOWELS}
    pool_c = {ch: w for ch, w in LETTER_WEIGHTS.items() if ch not in VOWELS}
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


def generate(spec: Any) -> Result:
    """Try ``spec.attempts`` random boxes (always with the native engine: it counts exactly); keep those whose minimum is exactly ``spec.par`` words,
    ranked by how few answers of ``par`` words they have (fewer: harder). Each kept puzzle's best
    answer is re-checked by the independent checker before it is shown.

    Raises
    ------
    InputError when the boxes would have more letters than exact counting handles.
    """
    from cpwords.lexicon import load_lexicon
    from cpwords.puzzles.letter_boxed import native
    from cpwords.puzzles.letter_boxed.answer import make_solution
    from cpwords.puzzles.letter_boxed.check import check
    from cpwords.puzzles.letter_boxed.words import Box, drop_dominated, playable_words

    n = spec.side_count * spec.letters_per_side
    if n > native.MAX_COUNT_LETTERS:
        raise InputError(f"generate ranks puzzles by exact counts, which handle up to {native.MAX_COUNT_LETTERS} "
                         "letters; lower side_count or letters_per_side", field="letters_per_side",
                         value=spec.letters_per_side)
    t0 = time.monotonic()
    rng = random.Random(spec.seed)
    lexicon = load_lexicon(spec.dictionary)
    seen: set[frozenset[str]] = set()
    found: list[tuple[int, list[str], Any]] = []
    tried = 0
    for _ in range(spec.attempts):
        if spec.time_limit is not None and time.monotonic() - t0 > spec.time_limit:
            break
        sides = random_box(rng, spec.side_count, spec.letters_per_side)
        key = frozenset(sides)
        if key in seen:
            continue
        seen.add(key)
        tried += 1
        table = playable_words(Box.from_sides(sides), lexicon, min_length=spec.min_word_length, rank=spec.rank)
        best = native.min_words(drop_dominated(table), spec.par)
        if best is None or best[0] != spec.par:
            continue
        at_par = native.count_answers(table, spec.par)[spec.par]
        candidates = drop_dominated(table)
        found.append((at_par, sides, (candidates, best[2])))
    found.sort(key=lambda item: (item[0], item[1]))
    solutions = []
    for at_par, sides, (candidates, indexes) in found:
        if len(solutions) == spec.puzzles:
            break
        solution = make_solution(candidates, indexes, lexicon, sides=sides, answers_at_par=at_par)
        if not check(spec, solution):  # shown only when the independent checker agrees
            solutions.append(solution)
    stats = {"boxes_tried": tried, "boxes_at_par": len(found)}
    if not solutions:
        return Result(kind="letter_boxed", status=Status.UNKNOWN, engine="native", task="generate", stats=stats,
                      message=f"no box of {tried} tried needs exactly {spec.par} words; "
                              "raise attempts or change par")
    status = Status.OPTIMAL if len(solutions) == spec.puzzles else Status.FEASIBLE
    message = None if status == Status.OPTIMAL else f"only {len(solutions)} puzzle(s) reached par {spec.par}"
    return Result(kind="letter_boxed", status=status, engine="native", task="generate", solutions=solutions,
                  count=len(solutions), count_exact=True, objective=spec.par, stats=stats, message=message)
