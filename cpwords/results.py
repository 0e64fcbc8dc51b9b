"""The result model shared by every puzzle kind.

A :class:`Result` says how the solve ended (``status``), with which ``engine``, the
``solutions`` found (kind-specific :class:`Solution` subclasses, each listing the ``words`` it
uses), a ``count`` when counting, the ``objective`` value, engine ``stats`` and a ``message``
explaining an infeasible or failed solve. ``cpwords solve --json`` prints exactly this model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import StrEnum
from typing import Any, Literal, Protocol, Self, TypeVar, overload

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    SerializerFunctionWrapHandler,
    field_serializer,
)

from cpwords.wording import counted


class SearchOutcome(Protocol):
    """What :meth:`Result.from_search` reads of an engine's outcome
    (:class:`cpwords.engines.found.Found`; the results know no engine)."""

    @property
    def answers(self) -> Sequence[Any]: ...

    count: int | None
    complete: bool
    stopped: str | None
    objective: float | int | None
    message: str | None
    stats: dict[str, Any]

    @property
    def found(self) -> bool: ...

_set = object.__setattr__  # how pydantic's model_construct fills an instance


class Status(StrEnum):
    """How a solve ended."""

    OPTIMAL = "optimal"
    """The answer is proved best (or, for enumeration and counting, the search is complete)."""
    FEASIBLE = "feasible"
    """Answers were found, but the search stopped before proving optimality or completeness."""
    INFEASIBLE = "infeasible"
    """Proved: no answer exists."""
    UNKNOWN = "unknown"
    """A limit was reached before any answer was found or disproved."""
    ERROR = "error"
    """The solve failed; ``message`` says why."""

    @property
    def solved(self) -> bool:
        """True when the status carries an answer the user asked for."""
        return self in (Status.OPTIMAL, Status.FEASIBLE)

    @staticmethod
    def of_search(found: bool, complete: bool) -> Status:
        """The status of a search (enumeration, count) from whether it found anything and finished.

        >>> Status.of_search(found=True, complete=False)
        <Status.FEASIBLE: 'feasible'>
        """
        if complete:
            return Status.OPTIMAL if found else Status.INFEASIBLE
        return Status.FEASIBLE if found else Status.UNKNOWN


class Difficulty(BaseModel):
    """How hard a generated puzzle is for a player: one documented rule per kind (docs/<kind>.md).

    >>> Difficulty(level="easy", score=12.5, figures={"greens": 6}).level
    'easy'
    """

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    level: Literal["easy", "medium", "hard"]
    """The score's band (the kind's page gives its thresholds)."""
    score: float
    """0 (easiest) to 100 (hardest), from the figures by the kind's rule."""
    figures: dict[str, int | float] = Field(default_factory=dict)
    """The measured facts the score comes from (kind-specific names)."""


def difficulty_level(score: float, medium: float, hard: float) -> Literal["easy", "medium", "hard"]:
    """The band of ``score``: ``hard`` from ``hard`` up, ``medium`` from ``medium`` up, else ``easy``.

    >>> difficulty_level(40, 30, 60)
    'medium'
    """
    return "hard" if score >= hard else "medium" if score >= medium else "easy"


class Solution(BaseModel):
    """One answer. Each kind subclasses this with its own fields.

    Extra fields are kept, so that a result read back from ``--json`` keeps every kind's fields.
    """

    model_config = ConfigDict(extra="allow", use_attribute_docstrings=True)

    words: list[str] = Field(default_factory=list)
    """The dictionary words this answer uses, in order."""

    @classmethod
    def trusted(cls, fields: dict[str, Any]) -> Self:
        """An answer from values that already have their fields' types, without validation.

        What :meth:`~pydantic.BaseModel.model_construct` does, at a fraction of its cost, for
        kinds that turn many of their own engines' answers into Solution objects (see
        :meth:`trusted_many`). ``fields`` becomes the instance's own dictionary, so pass a fresh
        one naming every field; anything else goes through ``model_construct``.

        >>> Solution.trusted({"words": ["cat"]}).words
        ['cat']
        """
        if cls.__pydantic_post_init__ or fields.keys() != cls.__pydantic_fields__.keys():
            return cls.model_construct(**fields)
        answer = object.__new__(cls)  # what trusted_many does, without its list (a listing makes millions)
        _set(answer, "__dict__", fields)
        _set(answer, "__pydantic_fields_set__", set(fields))
        _set(answer, "__pydantic_extra__", {})
        _set(answer, "__pydantic_private__", None)
        return answer

    @classmethod
    def trusted_many(cls, rows: Iterable[dict[str, Any]]) -> list[Self]:
        """:meth:`trusted` for each of ``rows``, in one loop.

        A Ruzzle board has hundreds of words: validating their Solution objects, or even building
        them with ``model_construct``, cost as much as finding the words.

        >>> [s.words for s in Solution.trusted_many([{"words": ["cat"]}, {"words": ["dog"]}])]
        [['cat'], ['dog']]
        """
        names = cls.__pydantic_fields__.keys()
        if cls.__pydantic_post_init__:
            return [cls.model_construct(**row) for row in rows]
        new, out = object.__new__, []
        for row in rows:
            if row.keys() != names:
                out.append(cls.model_construct(**row))
                continue
            answer = new(cls)
            _set(answer, "__dict__", row)
            _set(answer, "__pydantic_fields_set__", set(row))
            _set(answer, "__pydantic_extra__", {})
            _set(answer, "__pydantic_private__", None)
            out.append(answer)
        return out

S = TypeVar("S", bound=Solution)


class Rows(Protocol):
    """What :class:`Solutions` keeps: a sequence of a kind's plain answers (a list, an array)."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: Any, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class Solutions(Sequence[S]):
    """The answers of a result, kept as the kind's plain data (word indexes, letter vectors …) and
    made into Solution objects one at a time, when read.

    A listing of millions of answers then takes a few bytes an answer instead of a Solution
    object each, and the check and the writers stream through it: every answer found is listed,
    however many there are. Reading an answer twice makes two equal objects. Pickled (sent to
    another process), it becomes a plain list.

    >>> answers = Solutions([["cat"], ["dog"]], lambda words: Solution.trusted({"words": words}))
    >>> len(answers), answers[1].words, [s.words for s in answers[:1]]
    (2, ['dog'], [['cat']])
    >>> answers == [Solution(words=["cat"]), Solution(words=["dog"])]
    True
    """

    __slots__ = ("_make", "_rows")

    def __init__(self, rows: Rows, make: Callable[[Any], S]) -> None:
        self._rows, self._make = rows, make

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> S: ...

    @overload
    def __getitem__(self, index: slice) -> Solutions[S]: ...

    def __getitem__(self, index: int | slice) -> S | Solutions[S]:
        if isinstance(index, slice):
            return Solutions(self._rows[index], self._make)
        return self._make(self._rows[index])

    def __iter__(self) -> Iterator[S]:
        return map(self._make, self._rows)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # a sequence that compares by value

    def __repr__(self) -> str:
        return f"Solutions({len(self):,} answers)"

    def __reduce__(self) -> tuple[Any, ...]:
        return list, (list(self),)


class Result(BaseModel):
    """The outcome of solving one puzzle, the same shape for every kind."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    kind: str
    """The puzzle kind that was solved."""
    status: Status
    """How the solve ended."""
    engine: str
    """The engine that produced this result (``cpsat``, ``sat`` or ``native``)."""
    task: str | None = None
    """The task performed (kind-specific: ``min_words``, ``count``, ``shortest`` ...)."""
    title: str | None = None
    """The puzzle's title, when it has one."""
    solutions: list[SerializeAsAny[Solution]] = Field(default_factory=list)
    """The answers found, best first when there is an order: every answer the search found (a
    kind's solve gives a :class:`Solutions`, which makes each Solution object when it is read)."""
    count: int | None = None
    """The number of answers, for counting tasks."""
    count_exact: bool | None = None
    """True when ``count`` is exact, False when it is a lower bound (a limit was reached)."""
    objective: float | int | None = None
    """Value of the optimised quantity (number of words, total rareness ...), when there is one."""
    stats: dict[str, Any] = Field(default_factory=dict)
    """Figures about the solve, named the same in every kind (see :data:`STATS`): ``solve_s`` and
    ``wall_s`` always, ``seed`` when random, engine figures."""
    message: str | None = None
    """Why, when the status is infeasible, unknown or error."""

    @field_serializer("solutions", mode="wrap")
    def _every_solution(self, solutions: Sequence[Solution], handler: SerializerFunctionWrapHandler) -> Any:
        return handler(solutions if isinstance(solutions, list) else list(solutions))

    @property
    def solved(self) -> bool:
        """True when the result carries what was asked for."""
        return self.status.solved

    def exit_code(self) -> int:
        """The CLI's exit code for this result: 0 solved, 1 otherwise."""
        return 0 if self.solved else 1

    @classmethod
    def from_search(
        cls,
        spec: Any,
        found: SearchOutcome,
        solutions: Sequence[Solution] = (),
        *,
        infeasible: str,
        what: str = "answer",
        asked: int | None = None,
        stats: dict[str, Any] | None = None,
        objective: float | int | None = None,
    ) -> Result:
        """The Result of one engine task: status and standard messages from one place.

        Parameters
        ----------
        spec: the solved spec (gives ``kind``, ``engine``, ``task``).
        found: what the engine returned.
        solutions: the answers as Solution objects (the kind converts ``found.answers``, see
            :meth:`cpwords.engines.found.Found.convert`): every one of them is kept.
        infeasible: why nothing exists, said in the kind's words (used when the search finished
            without an answer and ``found.message`` says nothing more precise).
        what: the noun for one answer in messages (``grid``, ``board`` …).
        asked: how many answers the task asked for (``generate``): when fewer come, the message
            starts "N of the M ...s asked for: " and says why (the kind's ``found.message``, else
            the limit, else that the search was complete).
        stats: figures the kind adds before the engine's own.
        objective: the objective value (default ``found.objective``).

        >>> from cpwords.engines.found import Found
        >>> class S: kind, engine, task = "demo", "native", "count"
        >>> r = Result.from_search(S, Found(count=7, complete=False, stopped="time_limit"), infeasible="none")
        >>> r.status.value, r.count, r.count_exact, r.message
        ('feasible', 7, False, 'the time limit was reached: the count is a lower bound')
        """
        status = Status.of_search(found=bool(solutions) or found.found, complete=found.complete)
        message = found.message
        if message is None:
            message = _standard_message(status, found, what, infeasible, asked, shown=len(solutions))
        if asked is not None and 0 < len(solutions) < asked:  # every generator says it gave fewer, and why
            message = (f"{len(solutions):,} of the {asked:,} {what}s asked for: "
                       + (message or "there are no more (the search was complete)"))
        return cls.trusted({
            "kind": spec.kind, "status": status, "engine": spec.engine, "task": spec.task, "title": None,
            "solutions": solutions if isinstance(solutions, Solutions) else list(solutions), "count": found.count,
            "count_exact": None if found.count is None else found.complete,
            "objective": found.objective if objective is None else objective,
            "stats": {**(stats or {}), **found.stats}, "message": message,
        })

    @classmethod
    def trusted(cls, fields: dict[str, Any]) -> Self:
        """A Result from values that already have their fields' types, without validation (what
        :meth:`Solution.trusted` does for answers): every kind's solve ends here, and validating
        a result built from its own engine's output costs as much as a short search.

        >>> Result.trusted({"kind": "demo", "status": Status.OPTIMAL, "engine": "native", "task": None,
        ...                 "title": None, "solutions": [], "count": None, "count_exact": None,
        ...                 "objective": 3, "stats": {}, "message": None}).objective
        3
        """
        if fields.keys() != cls.__pydantic_fields__.keys():
            return cls(**fields)
        result = object.__new__(cls)
        _set(result, "__dict__", fields)
        _set(result, "__pydantic_fields_set__", set(fields))
        _set(result, "__pydantic_extra__", None)
        _set(result, "__pydantic_private__", None)
        return result


#: The stats vocabulary: the same key means the same thing in every kind (docs/design.md lists it).
STATS: dict[str, str] = {
    "wall_s": "seconds of the whole cpwords.solve call (solve and check)",
    "solve_s": "seconds of the solve: preparing, searching and building the result",
    "check_s": "seconds of the independent re-check of the answers",
    "unchecked": "answers the time limit kept the re-check from reaching (listed after the checked ones)",
    "unchecked_from": "0-based index of the first answer not re-checked (answers before it are checked)",
    "prepare_s": "seconds spent preparing the problem (dictionary, word tables, shapes, indexes)",
    "index_s": "seconds spent loading (or building) a dictionary index: ladder links, a trie",
    "search_s": "seconds spent in the engine's search",
    "solver_s": "seconds reported by the external solver (CP-SAT or PySAT) itself",
    "solver_calls": "number of external solver calls",
    "conflicts": "CP-SAT / SAT conflicts",
    "branches": "CP-SAT branches",
    "nodes": "nodes of a native search tree",
    "seed": "the seed of every random choice",
    "seed_fresh": "True when the seed was drawn because none was given",
    "dictionary": "the dictionary, as the spec names it",
    "raw_count": "answers counted without symmetry breaking (counting tasks)",
    "method": "how a count was obtained (sum-product, inclusion-exclusion, enumeration …)",
    "workers": "worker processes of the execution layer used",
    "stopped": "why the search stopped early (time_limit, interrupted, limit, memory, solver)",
}


def _standard_message(status: Status, found: SearchOutcome, what: str, infeasible: str, asked: int | None,
                      shown: int = 1) -> str | None:
    if status is Status.INFEASIBLE:
        return infeasible
    if status is Status.OPTIMAL:
        return None
    reason = found.stopped or "time_limit"
    cause = {"time_limit": "the time limit was reached", "interrupted": "the search was interrupted",
             "memory": "the memory budget was reached",
             "solver": "the solver ended its run before the time limit"}.get(reason)
    if status is Status.UNKNOWN:
        return f"{cause or 'the search stopped'} before any {what} was found"
    if asked is not None and shown < asked:
        return cause or "the search stopped"  # :meth:`Result.from_search` says how many of those asked for
    if reason == "limit":
        return f"listing stopped at the limit of {counted(len(found.answers), what)}"
    if found.count is not None:
        return f"{cause}: the count is a lower bound"
    if not shown:
        return cause
    return f"{cause}: the {what} shown is the best found, not proved best"
