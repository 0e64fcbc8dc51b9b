"""Independent checker of ladders: re-checks an answer from the rules alone (no search code).

It reads the words and their rareness from the lexicon itself, never from the solver's link
index: a ladder is right because each step changes one letter of a dictionary word, which this
module sees for itself.
"""

from __future__ import annotations

from cpwords.lexicon import load_lexicon
from cpwords.results import Solution
from cpwords.specs import BaseSpec


def letters_changed(a: str, b: str) -> int:
    """Number of positions where two words of the same length differ.

    >>> letters_changed("cold", "cord")
    1
    """
    return sum(x != y for x, y in zip(a, b, strict=True))


def check(spec: BaseSpec, solution: Solution) -> list[str]:
    """Rule violations of one ladder (empty when it is right)."""
    words = list(solution.words)
    problems: list[str] = []
    if not words:
        return ["the ladder has no words"]
    start, target = spec.start, spec.target  # type: ignore[attr-defined]
    if words[0] != start:
        problems.append(f"starts with {words[0]!r}, not {start!r}")
    if words[-1] != target:
        problems.append(f"ends with {words[-1]!r}, not {target!r}")
    if any(len(w) != len(start) for w in words):
        return [*problems, "the words do not all have the length of the start word"]
    lexicon = load_lexicon(spec.dictionary)  # type: ignore[attr-defined]
    problems += [f"{w!r} is not in the dictionary" for w in words if w not in lexicon]
    if len(set(words)) != len(words):
        problems.append("a word is used twice")
    for a, b in zip(words, words[1:], strict=False):
        if letters_changed(a, b) != 1:
            problems.append(f"{a!r} -> {b!r} does not change exactly one letter")
    steps = getattr(solution, "steps", len(words) - 1)
    if steps != len(words) - 1:
        problems.append(f"steps is {steps}, but the ladder has {len(words) - 1} changes")
    word_rareness = getattr(solution, "word_rareness", None)
    if word_rareness is not None and not problems:
        expected = [lexicon.rareness(w) for w in words]
        if list(word_rareness) != expected:
            problems.append(f"word rareness {word_rareness} differs from the dictionary's {expected}")
        if getattr(solution, "rareness", None) != sum(expected[1:]):
            problems.append(f"total rareness {getattr(solution, 'rareness', None)} is not {sum(expected[1:])}")
    if getattr(solution, "mode", None) == "shortest":
        # A shortest ladder has no shortcut: no two words more than one step apart are linked.
        for i in range(len(words)):
            for j in range(i + 2, len(words)):
                if letters_changed(words[i], words[j]) == 1:
                    problems.append(f"not shortest: {words[i]!r} links directly to {words[j]!r}")
                    break
    return problems
