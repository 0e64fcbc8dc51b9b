"""Independent checkers: re-check an answer from the puzzle's rules alone.

Each kind's descriptor names its checker (``cpwords/puzzles/<kind>/check.py``, which imports
nothing of that kind's solvers). A checker takes the spec and one solution and returns the list
of rule violations it finds (empty when the answer is right).

>>> import cpwords
>>> spec = cpwords.loads("kind: ladder\\nstart: cold\\ntarget: warm\\nseed: 3\\n")
>>> check(spec, cpwords.solve(spec, check=False))
[]
"""

from __future__ import annotations

from cpwords import puzzles
from cpwords.results import Result, Solution
from cpwords.specs import BaseSpec


class VerificationError(AssertionError):
    """An answer broke the puzzle's rules: a bug in the engine that produced it."""


def check_solution(spec: BaseSpec, solution: Solution) -> list[str]:
    """Rule violations of one solution (empty list: it is right)."""
    return puzzles.get(spec.kind).check(spec, solution)


def check(spec: BaseSpec, result: Result) -> list[str]:
    """Rule violations of every solution of a result, each prefixed with its index."""
    kind = puzzles.get(spec.kind)
    problems: list[str] = []
    for i, solution in enumerate(result.solutions):
        problems.extend(f"solution {i + 1}: {p}" for p in kind.check(spec, solution))
    return problems


def verify(spec: BaseSpec, result: Result) -> None:
    """Raise :class:`VerificationError` when any solution of ``result`` breaks the rules."""
    problems = check(spec, result)
    if problems:
        raise VerificationError("; ".join(problems[:5]) + (f" (+{len(problems) - 5} more)" if len(problems) > 5 else ""))
