"""Independent checkers: re-check an answer from the puzzle's rules alone.

Each kind registers one checker (in ``cpwords/puzzles/<kind>/check.py``, which must not import
that kind's solvers). A checker takes the spec and one solution and returns the list of rule
violations it finds (empty when the answer is right).

>>> problems = check(spec, result)  # doctest: +SKIP
>>> assert not problems, problems
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from cpwords.results import Result, Solution
from cpwords.specs import BaseSpec

Checker = Callable[[BaseSpec, Solution], list[str]]

_CHECKERS: dict[str, Checker] = {}


class VerificationError(AssertionError):
    """An answer broke the puzzle's rules: a bug in the engine that produced it."""


def register(kind: str) -> Callable[[Checker], Checker]:
    """Decorator: make ``fn`` the checker of ``kind``."""

    def decorate(fn: Checker) -> Checker:
        _CHECKERS[kind] = fn
        return fn

    return decorate


def checker(kind: str) -> Checker | None:
    """The checker of ``kind`` (importing the kind's ``check`` module on first use)."""
    if kind not in _CHECKERS:
        from cpwords.puzzles import KINDS

        if kind in KINDS:
            try:
                importlib.import_module(KINDS[kind] + ".check")
            except ModuleNotFoundError:
                return None
    return _CHECKERS.get(kind)


def check_solution(spec: BaseSpec, solution: Solution) -> list[str]:
    """Rule violations of one solution (empty list: it is right)."""
    fn = checker(spec.kind)
    if fn is None:
        raise VerificationError(f"no checker registered for kind {spec.kind!r}")
    return fn(spec, solution)


def check(spec: BaseSpec, result: Result) -> list[str]:
    """Rule violations of every solution of a result, each prefixed with its index."""
    problems = []
    for i, solution in enumerate(result.solutions):
        problems.extend(f"solution {i + 1}: {p}" for p in check_solution(spec, solution))
    return problems


def verify(spec: BaseSpec, result: Result) -> None:
    """Raise :class:`VerificationError` when any solution of ``result`` breaks the rules."""
    problems = check(spec, result)
    if problems:
        raise VerificationError("; ".join(problems[:5]) + (f" (+{len(problems) - 5} more)" if len(problems) > 5 else ""))
