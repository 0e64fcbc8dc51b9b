"""Independent checker of ladders: re-checks an answer from the rules alone (no search code).

It reads the words and their rareness from the lexicon itself, never from the solver's link
index: a ladder is right because each step changes one letter of a dictionary word, which this
module sees for itself.
"""

from __future__ import annotations

from cpwords.lexicon import lexicon_for, load_lexicon
from cpwords.results import Solution
from cpwords.specs import BaseSpec
from cpwords.wording import counted


def letters_changed(a: str, b: str) -> int:
    """Number of positions where two words of the same length differ.

    >>> letters_changed("cold", "cord")
    1
    """
    if len(a) != len(b):
        raise ValueError(f"{a!r} and {b!r} differ in length")
    return sum(map(str.__ne__, a, b))


def check(spec: BaseSpec, solution: Solution) -> list[str]:
    """Rule violations of one ladder (empty when it is right)."""
    words = list(solution.words)
    problems: list[str] = []
    if not words:
        return ["the ladder has no words"]
    generating = spec.task == "generate"
    start = words[0] if generating and spec.start is None else spec.start  # type: ignore[attr-defined]
    target = words[-1] if generating else spec.target  # type: ignore[attr-defined]
    if words[0] != start:
        problems.append(f"starts with {words[0]!r}, not {start!r}")
    if words[-1] != target:
        problems.append(f"ends with {words[-1]!r}, not {target!r}")
    length = spec.length if generating else len(start)  # type: ignore[attr-defined]
    if any(len(w) != length for w in words):
        return [*problems, f"the words do not all have {length} letters"]
    if generating and len(words) - 1 != spec.par:  # type: ignore[attr-defined]
        problems.append(f"the ladder has {counted(len(words) - 1, 'step')}, not par {spec.par}")  # type: ignore[attr-defined]
    # a generated puzzle's words come from the dictionary without its offensive words
    lexicon = lexicon_for(spec) if generating else load_lexicon(spec.dictionary)  # type: ignore[attr-defined]
    problems += [f"{w!r} is not in the dictionary" for w in words if w not in lexicon]
    if len(set(words)) != len(words):
        problems.append("a word is used twice")
    bad_steps = len(problems)
    for a, b in zip(words, words[1:], strict=False):
        if letters_changed(a, b) != 1:
            problems.append(f"{a!r} -> {b!r} does not change exactly one letter")
    is_ladder = len(problems) == bad_steps and len(set(words)) == len(words)
    steps = getattr(solution, "steps", len(words) - 1)
    if steps != len(words) - 1:
        problems.append(f"steps is {steps}, but the ladder has {counted(len(words) - 1, 'change')}")
    word_rareness = getattr(solution, "word_rareness", None)
    if word_rareness is not None and not problems:
        expected = [lexicon.rareness(w) for w in words]
        if list(word_rareness) != expected:
            problems.append(f"word rareness {word_rareness} differs from the dictionary's {expected}")
        if getattr(solution, "rareness", None) != sum(expected[1:]):
            problems.append(f"total rareness {getattr(solution, 'rareness', None)} is not {sum(expected[1:])}")
    if getattr(solution, "mode", None) == "shortest":
        problems += shortcuts(words, is_ladder=is_ladder)
    return problems


def shortcuts(words: list[str], *, is_ladder: bool = False) -> list[str]:
    """A shortest ladder has no shortcut: no two words more than one step apart are linked.

    Two different words of one length are linked when they share a *pattern* (the word with one
    position blanked). Each step of a ladder shares exactly one pattern with the next word, so a
    ladder of n words of length m without shortcuts or repeats has its n − 1 step patterns all
    different (two equal ones link the words around them) and exactly n·m − (n − 1) distinct
    patterns (a shared pattern beyond the steps, or a step pattern shared a third time, is a shortcut). ``is_ladder`` says the caller checked that (distinct words, one letter a step): then
    a ladder with that many patterns has no shortcut, and only one with fewer has its pairs
    compared one by one, to name the shortcuts. Otherwise every pair is compared.

    >>> shortcuts(["cold", "cord", "card", "ward", "warm"], is_ladder=True)
    []
    >>> shortcuts(["cat", "cot", "cog", "dog", "dot"], is_ladder=True)
    ["not shortest: 'cot' links directly to 'dot'"]
    """
    m = len(words[0]) if words else 0
    if is_ladder and len(set(_step_patterns(words))) == len(words) - 1 and \
            len({w[:p] + "." + w[p + 1:] for w in words for p in range(m)}) == len(words) * m - (len(words) - 1):
        return []
    found = []
    for i in range(len(words)):
        for j in range(i + 2, len(words)):
            if letters_changed(words[i], words[j]) == 1:
                found.append(f"not shortest: {words[i]!r} links directly to {words[j]!r}")
                break
    return found


def _step_patterns(words: list[str]) -> list[str]:
    """The pattern each step of a ladder shares with the next word (its one changed position blanked)."""
    out = []
    for a, b in zip(words, words[1:], strict=False):
        p = next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
        out.append(a[:p] + "." + a[p + 1:])
    return out
