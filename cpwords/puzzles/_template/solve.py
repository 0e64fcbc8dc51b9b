"""The template kind's two hooks of the registry's pipeline: ``prepare`` builds what the engines
take, ``result`` turns what an engine found into the one Result.

Fill in: ``prepare`` does the work every engine needs (load the dictionary through
``lexicon_for``, which leaves offensive words out of generating tasks; build tables, shapes), and
returns ``Prepared(problem, stats)``, or ``Prepared(None, stats, outcome=Found(...))`` when there
is nothing to search. ``result`` makes Solution objects with ``found.convert`` and the Result with
``Result.from_search``, which decides the status and the standard messages for every kind: say
in ``infeasible`` why nothing exists, in this kind's words. The registry runs the engine between
the two (``PuzzleKind.solve``); a kind needs no ``if task == …`` chain.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.lexicon import lexicon_for
from cpwords.puzzles import Prepared
from cpwords.puzzles._template.solution import TemplateSolution
from cpwords.puzzles._template.spec import TemplateSpec
from cpwords.results import Result


@dataclass
class Problem:
    """What the engines take: the letters and the dictionary's words that could fit (long
    enough, and not longer than the letters)."""

    letters: str
    candidates: Sequence[str]


def prepare(spec: TemplateSpec, budget: Budget | None = None) -> Prepared:
    """The words of the dictionary whose length fits the letters.

    Raises
    ------
    InputError for a bad dictionary (unknown name, unreadable file, no words).
    """
    lexicon = lexicon_for(spec)
    top = len(spec.letters)
    candidates = [w for w in lexicon if spec.min_length <= len(w) <= top]
    stats: dict[str, Any] = {"dictionary": spec.dictionary.label(), "candidates": len(candidates)}
    if spec.min_length > top:  # nothing to search: the engine is not run
        return Prepared(None, stats, outcome=Found(count=0))
    return Prepared(Problem(spec.letters, candidates), stats)


def result(spec: TemplateSpec, problem: Problem | None, found: Found, stats: dict[str, Any],
           budget: Budget) -> Result:
    """The Result of what the engine found."""
    solutions = found.convert(functools.partial(_solution, Counter(spec.letters)))
    infeasible = (f"no word of {spec.dictionary.label()} with {spec.min_length}+ letters is made of "
                  f"the letters {spec.letters!r}")
    return Result.from_search(spec, found, solutions, infeasible=infeasible, what="word", stats=stats)


def _solution(letters: Counter[str], word: str) -> TemplateSolution:
    """One engine answer as a Solution, made when it is read (``trusted``: built from the engine's
    own values, it skips pydantic's validation, which would cost as much as the search on long
    listings)."""
    return TemplateSolution.trusted({"words": [word], "left": "".join(sorted((letters - Counter(word)).elements()))})
