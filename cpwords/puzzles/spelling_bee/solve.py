"""A Spelling Bee spec's two hooks of the registry's pipeline: build the word table; turn what the
engine found into the one Result."""

from __future__ import annotations

import functools
from typing import Any

from cpwords.engines.budget import Budget, build_checkpoint
from cpwords.engines.found import Found
from cpwords.lexicon import Lexicon, lexicon_for
from cpwords.puzzles import Prepared
from cpwords.puzzles.spelling_bee.solution import SpellingBeeSolution
from cpwords.puzzles.spelling_bee.spec import SpellingBeeSpec
from cpwords.puzzles.spelling_bee.words import WordTable
from cpwords.results import Difficulty, Result, difficulty_level

#: The game's ranks and the share of the hive's points each needs.
RANKS: tuple[tuple[str, int], ...] = (
    ("Beginner", 0), ("Good Start", 2), ("Moving Up", 5), ("Good", 8), ("Solid", 15), ("Nice", 25),
    ("Great", 40), ("Amazing", 50), ("Genius", 70), ("Queen Bee", 100),
)


def ranks(total: int) -> dict[str, int]:
    """The points each rank needs for a hive worth ``total`` points: ``total × share / 100``
    rounded to the nearest whole point, halves up.

    >>> ranks(100)["Genius"], ranks(37)["Good Start"], ranks(37)["Queen Bee"]
    (70, 1, 37)
    """
    return {name: (total * share + 50) // 100 for name, share in RANKS}


def prepare(spec: SpellingBeeSpec, budget: Budget | None = None) -> Prepared:
    """The dictionary's words grouped by letter set; nothing to search when the time limit came first.

    Raises
    ------
    InputError for a bad dictionary (unknown name, unreadable file, no words).
    """
    lexicon = lexicon_for(spec)  # generate: no offensive words unless the spec says
    stats: dict[str, Any] = {"dictionary": spec.dictionary.label()}
    table = word_table(lexicon, spec.min_word_length)
    stats["letter_sets"] = len(table.words)
    return Prepared(table, stats)


def word_table(lexicon: Lexicon, min_length: int) -> WordTable:
    """The dictionary's words grouped by letter set: a one-time build, kept in the disk cache
    (two million words take a second or two to group; the cache reads them back in a fraction).

    Raises
    ------
    BuildStopped when the run's time limit (and its grace) ends the build.
    """
    from cpwords.lexicon.cache import cached

    stage = functools.partial(build_checkpoint, f"the Spelling Bee word table of {lexicon.label}")
    name = f"spelling-bee-table-{lexicon.alphabet.code}-{min_length}"
    return cached(lexicon, name, lambda: WordTable.build(lexicon, min_length, tick=stage), version=TABLE_VERSION)


#: The disk cache's format version of :class:`WordTable` (bump it when the class changes).
TABLE_VERSION = 2


def result(spec: SpellingBeeSpec, table: WordTable | None, found: Found, stats: dict[str, Any],
           budget: Budget) -> Result:
    """The Result of what the engine found."""
    if table is None:  # stopped while preparing
        return Result.from_search(spec, found, infeasible="", stats=stats)
    solutions = found.convert(_solution)
    if spec.task == "words":
        infeasible = (f"no word of {spec.dictionary.label()} with {spec.min_word_length}+ letters uses only "
                      f"{spec.letters!r} and the centre {spec.center!r}")
        if solutions and not solutions[0].words:  # a hive without words: nothing to show (exit 1)
            solutions, found.answers, found.count = solutions[:0], [], 0
        what = "word"
    else:
        infeasible = "no hive with a pangram meets the bounds with this dictionary"
        what = "hive"
        if found.complete and 0 < len(solutions) < spec.puzzles and found.message is None:
            found.message = "no other hive with a pangram meets the bounds"
        if found.count is not None:
            stats["hives_in_range"] = found.count
            found.count = None  # the answers are hives; how many meet the bounds is a figure, not the count
    return Result.from_search(spec, found, solutions, infeasible=infeasible, what=what, stats=stats,
                              asked=spec.puzzles if spec.task == "generate" else None)


def _solution(answer: tuple[str, list[tuple[str, int, bool]]], *, rated: bool = False) -> SpellingBeeSolution:
    """One hive and its words as a Solution: pangrams first, then by points, then alphabetically
    (``rated``: with its difficulty, for generated hives)."""
    letters, found = answer
    ordered = sorted(found, key=lambda f: (not f[2], -f[1], f[0]))
    total = sum(p for _, p, _ in ordered)
    pangrams = [w for w, _, pan in ordered if pan]
    return SpellingBeeSolution(words=[w for w, _, _ in ordered], letters=letters, center=letters[0],
                               points=[p for _, p, _ in ordered], pangrams=pangrams, total=total, ranks=ranks(total),
                               difficulty=hive_difficulty(len(ordered), total, len(pangrams)) if rated else None)


#: Difficulty bands of a hive's score: medium from 40, hard from 70.
DIFFICULTY_BANDS = (40.0, 70.0)


def hive_difficulty(words: int, points: int, pangrams: int) -> Difficulty:
    """How hard a hive is: ``score = min(100, points / (2 × pangrams))``: the points a Queen Bee must
    collect (many words to find), eased by each pangram (a pangram is the hive's key word).

    >>> hive_difficulty(40, 180, 1).level, hive_difficulty(20, 80, 2).level
    ('hard', 'easy')
    """
    score = round(min(100.0, points / (2 * max(1, pangrams))), 1)
    return Difficulty(level=difficulty_level(score, *DIFFICULTY_BANDS), score=score,
                      figures={"words": words, "points": points, "pangrams": pangrams})
