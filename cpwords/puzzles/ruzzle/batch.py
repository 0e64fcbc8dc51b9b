"""Many Ruzzle boards at once, for ``cpwords.solve_many``: scores without the words.

With ``scores_only``, the ``words`` boards of the default engine are grouped by what their
scores depend on (dictionary, scoring rule, shortest word, shape and, under Ruzzle scoring, the
bonus squares) and each group is searched by one
:class:`~cpwords.puzzles.ruzzle.scoring.BoardScorer`, :data:`CHUNK` boards per array search.
Each board's Result has the ``count`` of its words and its total score as ``objective`` (None
under ``scoring: none``), as ``cpwords.solve`` gives them, and no solutions: listing every word
with its path is what the trie walk does, a board at a time, and what the batch leaves out.
Other boards (other tasks or engines, or answers wanted) are left to ``cpwords.solve``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.lexicon import load_lexicon
from cpwords.puzzles.ruzzle.spec import RuzzleSpec
from cpwords.results import Result
from cpwords.wording import counted

#: Boards searched between two looks at the time limit.
CHUNK = 1024


def solve_batch(specs: Sequence[RuzzleSpec], budget: Budget, *, scores_only: bool) -> list[Result | None]:
    """Results of the boards this batch path scores, None for the others (see the module).

    Parameters
    ----------
    specs: ruzzle specs (validated, engine resolved).
    budget: the batch's budget; boards not reached when it ends get status ``unknown``.
    scores_only: only then does the batch path take any board.

    Raises
    ------
    InputError
        For an unknown dictionary.
    """
    out: list[Result | None] = [None] * len(specs)
    if not scores_only:
        return out
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, spec in enumerate(specs):
        if spec.task == "words" and spec.engine == "trie":
            groups.setdefault(_group_key(spec), []).append(i)
    for indexes in groups.values():
        _score_group(specs, indexes, budget, out)
    return out


def _group_key(spec: RuzzleSpec) -> tuple[Any, ...]:
    """What a board's score depends on besides its tiles."""
    bonus = tuple(sorted(spec.bonus_cells().items())) if spec.scoring == "ruzzle" else ()
    return spec.dictionary.model_dump_json(), spec.scoring, spec.min_letters(), spec.shape(), bonus


def _score_group(specs: Sequence[RuzzleSpec], indexes: list[int], budget: Budget, out: list[Result | None]) -> None:
    """Score the boards ``indexes`` (one group) into ``out``."""
    from cpwords.puzzles.ruzzle.scoring import scorer_for

    first = specs[indexes[0]]
    t0 = time.perf_counter()
    lexicon = load_lexicon(first.dictionary)
    rows, cols = first.shape()
    scorer = scorer_for(lexicon, scoring=first.scoring, min_letters=first.min_letters(), rows=rows, cols=cols,
                        bonus_cells=first.bonus_cells())
    label = first.dictionary.label()
    stats = {"prepare_s": round(time.perf_counter() - t0, 6), "dictionary": label,
             "dictionary_words": len(lexicon), "scores_only": True}
    infeasible = f"no word of {label} with at least {counted(first.min_letters(), 'letter')} can be traced on this board"
    for start in range(0, len(indexes), CHUNK):
        chunk = indexes[start:start + CHUNK]
        if budget.expired():
            for i in chunk:
                out[i] = Result.from_search(specs[i], Found(complete=False, stopped=budget.reason),
                                            infeasible=infeasible, what="word", stats=dict(stats))
            continue
        t1 = time.perf_counter()
        tallies = scorer.tally_many([specs[i].tiles() for i in chunk])
        search_s = round((time.perf_counter() - t1) / len(chunk), 6)
        for i, (value, words) in zip(chunk, tallies, strict=True):
            found = Found(count=words, objective=None if first.scoring == "none" else value,
                          stats={"search_s": search_s})
            out[i] = Result.from_search(specs[i], found, infeasible=infeasible, what="word", stats=dict(stats))
