"""Independent checker of Letter Boxed answers: the rules alone, no solver code."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cpwords.lexicon import load_lexicon
from cpwords.puzzles.letter_boxed.solution import LetterBoxedSolution
from cpwords.wording import counted

if TYPE_CHECKING:
    from cpwords.puzzles.letter_boxed.spec import LetterBoxedSpec


def check(spec: LetterBoxedSpec, solution: LetterBoxedSolution) -> list[str]:
    """Rule violations of one answer (empty: it is right).

    Every word is in the dictionary, long enough, made of box letters with no two consecutive
    letters on one side; words are distinct; each starts with the previous word's last letter;
    together they use every letter, and the words before the last do not already use them all.
    """
    sides = getattr(solution, "sides", None) or spec.sides or []
    words = list(solution.words)
    problems: list[str] = []
    side_of = {ch: i for i, side in enumerate(sides) for ch in side}
    if not words:
        return ["the answer has no words"]
    if getattr(solution, "sides", None) is None and len(words) > spec.max_words:
        problems.append(f"{counted(len(words), 'word')}, more than max_words={spec.max_words}")
    lexicon = load_lexicon(spec.dictionary)
    for w in words:
        if w not in lexicon:
            problems.append(f"{w!r} is not in the dictionary")
        if len(w) < spec.min_word_length:
            problems.append(f"{w!r} is shorter than {counted(spec.min_word_length, 'letter')}")
        for ch in w:
            if ch not in side_of:
                problems.append(f"{w!r} uses {ch!r}, which is not on the box")
        for a, b in zip(w, w[1:], strict=False):
            if a in side_of and side_of.get(a) == side_of.get(b):
                problems.append(f"{w!r} plays {a!r} then {b!r} from the same side")
                break
    if len(set(words)) != len(words):
        problems.append("a word is used twice")
    for a, b in zip(words, words[1:], strict=False):
        if a[-1] != b[0]:
            problems.append(f"{b!r} does not start with the last letter of {a!r}")
    letters = set(side_of)
    if set("".join(words)) != letters:
        missing = "".join(sorted(letters - set("".join(words))))
        problems.append(f"letters not used: {missing}")
    elif len(words) > 1 and set("".join(words[:-1])) >= letters:
        problems.append("the words before the last already use every letter")
    total = sum(len(w) for w in words)
    if getattr(solution, "letters", None) not in (None, total):
        problems.append(f"letters field says {solution.letters}, the words have {total}")
    if getattr(solution, "rareness", None) is not None and all(w in lexicon for w in words):
        rare = sum(lexicon.rareness(w) for w in words)
        if solution.rareness != rare:
            problems.append(f"rareness field says {solution.rareness}, the words total {rare}")
    return problems


def check_all(spec: LetterBoxedSpec, solutions: Sequence[LetterBoxedSolution]) -> dict[int, list[str]]:
    """Rule violations of every answer of one result, by the index of its answer (only the answers
    with problems are keys).

    The rules of :func:`check`, with the dictionary loaded once and each word's own rules
    (dictionary, length, letters, sides) looked at once: a listing of millions of answers uses a
    few thousand words, and an answer is then a few bit operations. An answer that breaks any
    rule here, and every generated puzzle (its box is its own), goes through :func:`check`, which
    says what is wrong.
    """
    lexicon = load_lexicon(spec.dictionary)
    side_of = {ch: i for i, side in enumerate(spec.sides or []) for ch in side}
    bit = {ch: 1 << i for i, ch in enumerate(side_of)}
    full = (1 << len(bit)) - 1
    known: dict[str, tuple[int, int, int] | None] = {}  # word -> (letter mask, length, rareness), None: breaks a rule

    def learn(w: str) -> tuple[int, int, int] | None:
        fine = (bool(w) and w in lexicon and len(w) >= spec.min_word_length and all(ch in side_of for ch in w)
                and all(side_of[a] != side_of[b] for a, b in zip(w, w[1:], strict=False)))
        known[w] = (sum(bit[ch] for ch in set(w)), len(w), lexicon.rareness(w)) if fine else None
        return known[w]

    problems: dict[int, list[str]] = {}
    for i, solution in enumerate(solutions):
        words = solution.words
        ok = 0 < len(words) <= spec.max_words and getattr(solution, "sides", None) is None
        covered = letters = rareness = 0
        last = ""
        for k, w in enumerate(words if ok else ()):
            facts = known[w] if w in known else learn(w)
            if facts is None or covered == full or (k and w[0] != last):  # a bad word, a letter-complete prefix, a broken chain
                ok = False
                break
            covered |= facts[0]
            letters += facts[1]
            rareness += facts[2]
            last = w[-1]
        if ok and (covered != full or len(set(words)) != len(words)
                   or getattr(solution, "letters", None) not in (None, letters)
                   or getattr(solution, "rareness", None) not in (None, rareness)):
            ok = False
        if not ok:
            found = check(spec, solution)
            if found:
                problems[i] = found
    return problems
