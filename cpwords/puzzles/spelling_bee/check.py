"""Independent checker of Spelling Bee answers: the game's rules alone, no solver code.

The solvers group words by letter masks; this checker finds a hive's words with a regular
expression over the dictionary or, for many hives, groups the words by ``frozenset`` of letters
and walks a hive's letter sets with :func:`itertools.combinations`: the two share nothing but the
dictionary.
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Any

from cpwords.lexicon import lexicon_for
from cpwords.wording import counted

#: The game's ranks and the percentage of the hive's points each needs.
RANK_SHARES = {"Beginner": 0, "Good Start": 2, "Moving Up": 5, "Good": 8, "Solid": 15, "Nice": 25, "Great": 40,
               "Amazing": 50, "Genius": 70, "Queen Bee": 100}

#: Hives a result must have before the checker indexes the whole dictionary by letter set (about
#: 15 regular-expression scans of a dictionary cost as much as the index).
INDEX_FROM = 8

#: Per lexicon (by id, the lexicon kept so that its id stays its own): its words joined by new
#: lines, and once built, its words by letter set for each minimum length.
_CACHE: dict[int, tuple[Any, str, dict[int, dict[frozenset[str], list[str]]]]] = {}


def _cached(lexicon: Any) -> tuple[str, dict[int, dict[frozenset[str], list[str]]]]:
    entry = _CACHE.get(id(lexicon))
    if entry is None:
        while len(_CACHE) >= 4:
            del _CACHE[next(iter(_CACHE))]
        entry = _CACHE[id(lexicon)] = (lexicon, "\n".join(lexicon), {})
    return entry[1], entry[2]


def _index(lexicon: Any, n: int) -> dict[frozenset[str], list[str]]:
    """The words of ``n`` or more letters with at most seven different letters, by letter set."""
    indexes = _cached(lexicon)[1]
    if n not in indexes:
        index: dict[frozenset[str], list[str]] = {}
        for w in lexicon:
            if len(w) >= n:
                letters = frozenset(w)
                if len(letters) <= 7:
                    index.setdefault(letters, []).append(w)
        indexes[n] = index
    return indexes[n]


def allowed_words(lexicon: Any, hive: str, center: str, n: int) -> set[str]:
    """Every word of ``lexicon`` with ``n``+ letters, made of the hive's letters, using the centre:
    looked up by letter set when the dictionary is indexed, else found by one scan of it.

    >>> from cpwords.lexicon import Lexicon
    >>> sorted(allowed_words(Lexicon.from_words(["noon", "loon", "nylon", "on"]), "olnabcd", "o", 4))
    ['loon', 'noon']
    """
    text, indexes = _cached(lexicon)
    if n not in indexes:  # the letters are the alphabet's (validated), safe inside a character class
        return set(re.findall(rf"^(?=[^\n]*{center})[{hive}]{{{n},}}$", text, re.MULTILINE))
    index = indexes[n]
    others = [ch for ch in hive if ch != center]
    out: set[str] = set()
    for k in range(len(others) + 1):
        for extra in combinations(others, k):
            out.update(index.get(frozenset((center, *extra)), ()))
    return out


def check_all(spec: Any, solutions: list[Any]) -> dict[int, list[str]]:
    """:func:`check` of many hives at once (``generate``): the problems of each hive that has
    some, by position; with many hives, the dictionary is indexed once first."""
    if len(solutions) >= INDEX_FROM:
        _index(lexicon_for(spec), spec.min_word_length)
    out = {}
    for i, solution in enumerate(solutions):
        problems = check(spec, solution)
        if problems:
            out[i] = problems
    return out


def check(spec: Any, solution: Any) -> list[str]:
    """Rule violations of one hive and its words (empty: it is right).

    The hive has seven different letters with the centre first (the spec's hive, for ``words``);
    every word is in the dictionary, long enough, made of the hive's letters and uses the centre;
    the scores, pangrams, total and ranks are the game's; no word of the dictionary that the hive
    allows is missing; a generated hive has a pangram, meets the spec's bounds and avoids its
    letters.
    """
    problems: list[str] = []
    hive = solution.letters
    alphabet = spec.alphabet()
    if len(hive) != 7 or len(set(hive)) != 7 or not alphabet.is_word(hive):
        return [f"the hive {hive!r} is not seven different letters {alphabet.describe()}"]
    if solution.center != hive[0]:
        problems.append(f"the centre {solution.center!r} is not the hive's first letter {hive[0]!r}")
    if spec.task == "words":
        if set(hive) != set(spec.letters) or solution.center != spec.center:
            problems.append(f"the hive {hive!r} (centre {solution.center!r}) is not the puzzle's "
                            f"{spec.letters!r} (centre {spec.center!r})")
    else:
        bad = set(hive) & set(spec.avoid)
        if bad:
            problems.append(f"the hive uses avoided letter(s) {''.join(sorted(bad))}")
    if len(solution.points) != len(solution.words):
        return [*problems, "points and words differ in length"]
    if len(set(solution.words)) != len(solution.words):
        problems.append("a word is listed twice")
    lexicon = lexicon_for(spec)  # the same words the task saw (generate: offensive ones left out)
    problems += _word_problems(solution, lexicon, spec.min_word_length)
    if not set(solution.pangrams) <= set(solution.words):
        problems.append("a pangram is not among the words")
    total = sum(solution.points)
    if solution.total != total:
        problems.append(f"total says {solution.total}, the words score {total}")
    expected = {name: round_half_up(total * share, 100) for name, share in RANK_SHARES.items()}
    if solution.ranks != expected:
        problems.append(f"the ranks {solution.ranks} are not the game's for {counted(total, 'point')}: {expected}")
    missing = sorted(allowed_words(lexicon, hive, solution.center, spec.min_word_length) - set(solution.words))
    if missing:
        problems.append(f"{len(missing)} allowed word(s) missing, e.g. {missing[0]!r}")
    if spec.task == "generate":
        if not solution.pangrams:
            problems.append("a generated hive must have a pangram")
        for field, value, low in (("min_words", len(solution.words), True), ("max_words", len(solution.words), False),
                                  ("min_points", total, True), ("max_points", total, False)):
            bound = getattr(spec, field)
            if bound is not None and (value < bound if low else value > bound):
                problems.append(f"{value} is outside {field}={bound}")
    return problems


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded to the nearest whole number, halves up (non-negative).

    >>> round_half_up(45, 10), round_half_up(44, 10), round_half_up(2240, 100)
    (5, 4, 22)
    """
    whole, rest = divmod(numerator, denominator)
    return whole + (2 * rest >= denominator)


def _word_problems(solution: Any, lexicon: Any, n: int) -> list[str]:
    """The rules of each listed word: in the dictionary, long enough, hive letters, the centre,
    its score and its pangram mark."""
    problems: list[str] = []
    letters, center = set(solution.letters), solution.center
    pangrams = set(solution.pangrams)
    for word, points in zip(solution.words, solution.points, strict=True):
        if word not in lexicon:
            problems.append(f"{word!r} is not in the dictionary")
        if len(word) < n:
            problems.append(f"{word!r} is shorter than {counted(n, 'letter')}")
        if not set(word) <= letters:
            problems.append(f"{word!r} uses letters outside the hive")
        if center not in word:
            problems.append(f"{word!r} does not use the centre {center!r}")
        pangram = set(word) == letters
        expected = (len(word) if len(word) > 4 else 1) + (7 if pangram else 0)
        if points != expected:
            problems.append(f"{word!r} scores {expected}, not {points}")
        if pangram != (word in pangrams):
            problems.append(f"{word!r} is {'' if pangram else 'not '}a pangram")
    return problems
