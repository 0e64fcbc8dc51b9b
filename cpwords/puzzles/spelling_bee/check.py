"""Independent checker of Spelling Bee answers: the game's rules alone, no solver code."""

from __future__ import annotations

from typing import Any

from cpwords.lexicon import lexicon_for


def check(spec: Any, solution: Any) -> list[str]:
    """Rule violations of one hive and its words (empty: it is right).

    The hive has seven different letters with the centre among them (the spec's, for ``words``);
    every word is in the dictionary, long enough, made of the hive's letters and uses the centre;
    the scores, pangrams, total and ranks are the game's; no word of the dictionary that the hive
    allows is missing; a generated hive has a pangram, meets the spec's bounds and avoids its
    letters.
    """
    problems: list[str] = []
    hive = solution.letters
    if len(hive) != 7 or len(set(hive)) != 7 or not hive.isalpha():
        return [f"the hive {hive!r} is not seven different letters"]
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
    lexicon = lexicon_for(spec)
    letters, center, n = set(hive), solution.center, spec.min_word_length
    if len(solution.points) != len(solution.words):
        return problems + ["points and words differ in length"]
    if len(set(solution.words)) != len(solution.words):
        problems.append("a word is listed twice")
    problems += _word_problems(solution, lexicon, n)
    total = sum(solution.points)
    if solution.total != total:
        problems.append(f"total says {solution.total}, the words score {total}")
    if solution.ranks.get("Queen Bee") != total or solution.ranks.get("Beginner") != 0:
        problems.append("the ranks do not run from 0 (Beginner) to the total (Queen Bee)")
    listed = set(solution.words)
    missing = sorted(w for w in lexicon if len(w) >= n and center in w and set(w) <= letters and w not in listed)
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


def _word_problems(solution: Any, lexicon: Any, n: int) -> list[str]:
    """The rules of each listed word: in the dictionary, long enough, hive letters, the centre,
    its score and its pangram mark."""
    problems: list[str] = []
    letters, center = set(solution.letters), solution.center
    for word, points in zip(solution.words, solution.points, strict=True):
        if word not in lexicon:
            problems.append(f"{word!r} is not in the dictionary")
        if len(word) < n:
            problems.append(f"{word!r} is shorter than {n} letters")
        if not set(word) <= letters:
            problems.append(f"{word!r} uses letters outside the hive")
        if center not in word:
            problems.append(f"{word!r} does not use the centre {center!r}")
        pangram = set(word) == letters
        expected = (1 if len(word) == n else len(word)) + (7 if pangram else 0)
        if points != expected:
            problems.append(f"{word!r} scores {expected}, not {points}")
        if pangram != (word in solution.pangrams):
            problems.append(f"{word!r} is {'' if pangram else 'not '}a pangram")
    return problems
