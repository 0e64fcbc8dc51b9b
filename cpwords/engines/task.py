"""The contract of an engine's task function, as one typed interface (CPMpy's
``solver_interface.py`` does the same for its solvers).

Every engine module of a kind offers one function per task of its capability table, named after
the task (``enumerate_`` where the name is a Python builtin), and the registry calls it as
``task(problem, spec, budget)``:

* ``problem``: what the kind's ``prepare`` hook built (a table of words, a board, a grid problem),
  the same for every engine of the kind;
* ``spec``: the kind's validated spec, read for the task's options (``max_words``, ``limit``,
  ``seed`` …);
* ``budget``: the run's one :class:`~cpwords.engines.budget.Budget`; the task ends within it and
  says why it stopped early in what it returns;
* returns :class:`~cpwords.engines.found.Found`, neutral data (answers in the kind's own plain
  form, a count, whether the search finished), never a Result: the kind's ``result`` hook makes
  that.

A task may raise :class:`~cpwords.engines.budget.SearchTimeout` or ``MemoryBudgetExceeded`` when
its budget ends inside code that cannot return a Found; the registry turns those into a Found
that says why. :class:`TaskFunction` is generic in the problem and the spec, so that a kind's
tasks are checked against their own types (``TaskFunction[BoxProblem, LetterBoxedSpec]``) and the
registry, which knows no kind, holds any of them (``TaskFunction[Any, Any]``).

>>> from cpwords.engines.budget import Budget
>>> from cpwords.engines.found import Found
>>> def count(problem: list[str], spec: object, budget: Budget) -> Found:
...     return Found(count=len(problem))
>>> task: TaskFunction[list[str], object] = count
>>> task(["ab", "ba"], None, Budget()).count
2
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from cpwords.engines.budget import Budget
    from cpwords.engines.found import Found

#: The problem a task takes (contravariant: a task that takes any problem serves where one kind's is given).
P_contra = TypeVar("P_contra", contravariant=True)
#: The spec a task takes (contravariant, as the problem).
S_contra = TypeVar("S_contra", contravariant=True)


class TaskFunction(Protocol[P_contra, S_contra]):
    """``task(problem, spec, budget) -> Found``: one task of one engine (see the module)."""

    def __call__(self, problem: P_contra, spec: S_contra, budget: Budget, /) -> Found: ...
