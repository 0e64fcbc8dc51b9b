"""The native engine of the template kind: one scan of the dictionary.

Fill in: one function a task of the capability table, ``task(problem, spec, budget) -> Found``.
``problem`` is what ``solve.prepare`` built; return the answers in the kind's plain data (here
the words; never Solution objects or a Result: ``solve.result`` makes
those). Long loops call a ticker of the budget, which raises ``SearchTimeout`` at the time limit
or on Ctrl-C; catch it and return what was found with ``found.stop(...)`` (the registry turns
an uncaught one into an empty, stopped outcome). Work done after the stop is work past the
deadline: keep it small (here a sort), and leave the rest to the Solutions, made when read.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found, HeldList
from cpwords.puzzles._template.solve import Problem

#: Processor seconds to write out one answer after the search (made into its Solution, checked and
#: written as text or JSON; measured: 324,605 words of scowl-95 in about 21 s either way). Fill in:
#: measure your kind's own. A listing holds this much of its budget an answer found
#: (:class:`~cpwords.engines.found.HeldList`), so that every answer found is written within the
#: time limit: a search that finds answers faster than they are written stops in time.
WRITE_S = 6.5e-5


def fits(word: str, have: Counter[str]) -> bool:
    """Whether ``word`` uses each letter at most as often as ``have`` holds it.

    >>> fits("silent", Counter("listen")), fits("tennis", Counter("listen"))
    (True, False)
    """
    need = Counter(word)
    return all(have[ch] >= n for ch, n in need.items())


def _scan(problem: Problem, budget: Budget, found: Found, keep: bool) -> None:
    tick = budget.ticker(4096)
    have = Counter(problem.letters)
    matches: list[str] = HeldList(budget, WRITE_S) if keep else []
    try:
        for word in problem.candidates:
            tick()
            if fits(word, have):
                matches.append(word)
    except SearchTimeout as exc:
        found.stop(exc.args[0] if exc.args else None)
    found.count = len(matches)
    if keep:  # longest first, then alphabetically: the order users read
        matches.sort(key=lambda w: (-len(w), w))
        found.answers = matches  # the letters each leaves are worked out when its Solution is read


def enumerate_(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Every word of the letters."""
    found = Found()
    _scan(problem, budget, found, keep=True)
    return found


def count(problem: Problem, spec: Any, budget: Budget) -> Found:
    """How many words the letters make (no answers listed)."""
    found = Found()
    _scan(problem, budget, found, keep=False)
    return found
