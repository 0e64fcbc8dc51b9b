"""The spec of the template kind: what a user writes in YAML, validated.

Fill in: one field per thing the user chooses, each with a type, a default where one makes sense
and a docstring under it (the docstring is the field's description in ``cpwords schema`` and the
web form: a test fails on a field without one). Unknown fields are refused by ``BaseSpec``
(``extra="forbid"``); ``seed``, ``time_limit``, ``workers`` and ``title`` come from it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from cpwords.specs import BaseSpec, DictionaryRef, letters

if TYPE_CHECKING:
    from cpwords.puzzles import PuzzleKind

#: The tasks: exactly those of the descriptor's capability table (a test compares them).
Task = Literal["enumerate", "count"]


class TemplateSpec(BaseSpec):
    """Some letters: find every dictionary word made of them, each letter used at most as often
    as it is given (``listen`` makes ``silent``, ``tinsel`` and ``inlets``).

    Example (YAML)::

        kind: _template
        letters: listen
    """

    @classmethod
    def descriptor(cls) -> PuzzleKind:
        """This kind's entry in the registry (imported here, not at the top: the specs sit a
        floor below the kinds)."""
        from cpwords.puzzles._template import KIND

        return KIND

    kind: Literal["_template"] = "_template"
    """The puzzle kind."""
    letters: str
    """The letters to use, as one string (``listen``); a letter given twice may be used twice."""
    min_length: int = Field(default=3, ge=1, le=30)
    """Shortest word that counts."""
    dictionary: DictionaryRef = Field(default_factory=lambda: DictionaryRef(name="scowl-50"))
    """The words that count (default ``scowl-50``)."""
    task: Task = "enumerate"
    """``enumerate``: list every word, longest first; ``count``: only how many there are."""
    engine: Literal["native"] | None = None
    """``native`` (a scan of the dictionary), the only engine. None: the task's default engine,
    set at validation from the capability table (an engine that cannot do the task is refused)."""

    @field_validator("letters")
    @classmethod
    def _letters(cls, value: str) -> str:
        # ``letters`` lowercases and checks against the dictionary's alphabet; raise a
        # PydanticCustomError so the user reads the message as it is, without pydantic's prefix.
        try:
            text = letters(value, what="letters")
        except ValueError as exc:
            raise PydanticCustomError("template", str(exc)) from None
        if not text:
            raise PydanticCustomError("template", "give at least one letter")
        return text
