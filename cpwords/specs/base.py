"""The base of every kind's spec (:class:`BaseSpec`): the fields all kinds share, the engine
checked against the kind's capability table, the letters checked against the dictionary's
alphabet, and the file and line a spec was read from; and the JSON Schema of specs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from pydantic import (
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    model_validator,
)
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from cpwords.alphabet import ENGLISH, Alphabet
from cpwords.errors import InputError
from cpwords.specs.fields import _SPEC_ALPHABET, DictionaryRef, _raw_alphabet
from cpwords.specs.input_gate import MAX_INT, StrictModel, field_error


class KindTable(Protocol):
    """What a spec needs of its kind's registry entry (:class:`cpwords.puzzles.PuzzleKind`)."""

    def default_engine(self, task: str) -> str: ...

    def supports(self, engine: str, task: str) -> bool: ...

    def engines_for(self, task: str) -> tuple[str, ...]: ...


def _kind_required(schema: dict[str, Any]) -> None:
    """``kind`` is a required field of every spec's JSON Schema: it selects the spec (the
    discriminator of ``cpwords schema`` and of the server's OpenAPI document), so a client built
    from the schema sends it. (In Python, a spec class knows its kind without it.)"""
    if "kind" in schema.get("properties", {}):
        schema["required"] = ["kind", *(r for r in schema.get("required", []) if r != "kind")]


class SpecJsonSchema(GenerateJsonSchema):
    """The JSON Schema of specs: every integer within the gate's bounds (:data:`MAX_INT`)."""

    def int_schema(self, schema: core_schema.IntSchema) -> JsonSchemaValue:
        out = super().int_schema(schema)
        out["maximum"] = min(out.get("maximum", MAX_INT), MAX_INT)
        out["minimum"] = max(out.get("minimum", -MAX_INT), -MAX_INT)
        return out


class BaseSpec(StrictModel):
    """Fields every puzzle kind shares. Each kind adds its own, narrows ``kind`` and declares
    ``engine`` (``None``: the default engine of the task) and ``task``."""

    model_config = ConfigDict(json_schema_extra=_kind_required)

    kind: str
    """The puzzle kind; selects the model (see ``cpwords schema``)."""
    title: str | None = None
    """Optional name of this puzzle, shown in output."""
    seed: int | None = None
    """Seed for every random choice; the same seed gives the same answer. None: a fresh seed, reported in stats."""
    time_limit: float | None = Field(default=None, gt=0)
    """Stop after this many seconds and report the best answer found so far."""
    workers: int | None = Field(default=None, ge=1)
    """Local worker processes of the execution layer for work that runs in parallel (the shards of a
    count, the chains of ``best_board``), capped at the machine's cores. Default: one per core (at
    most 8) for the native board and grid counts, else one process (``best_board``: one chain, in
    this process). A CP-SAT solve is one worker: its search threads are a field of their own where
    a kind offers them."""

    _source: str | None = PrivateAttr(default=None)
    _line: int | None = PrivateAttr(default=None)
    _lines: dict[str, int] = PrivateAttr(default_factory=dict)

    #: The dictionary of a ``generate`` task whose spec names none: the words players will meet come
    #: from a common list (docs/dictionaries.md). ``None`` for kinds without a generator.
    player_dictionary: ClassVar[str | None] = None

    @model_validator(mode="wrap")
    @classmethod
    def _letters_of_the_dictionary(cls, data: Any, handler: ModelWrapValidatorHandler[BaseSpec]) -> BaseSpec:
        # Field validators run inside: letters() checks against the dictionary's alphabet.
        token = _SPEC_ALPHABET.set(_raw_alphabet(data))
        try:
            return handler(data)
        finally:
            _SPEC_ALPHABET.reset(token)

    def alphabet(self) -> Alphabet:
        """The alphabet of this puzzle's dictionary (English a-z for a kind without one)."""
        ref = getattr(self, "dictionary", None)
        return ref.alphabet() if isinstance(ref, DictionaryRef) else ENGLISH

    if TYPE_CHECKING:
        engine: str | None

        @property
        def task(self) -> str: ...

    @classmethod
    def descriptor(cls) -> KindTable | None:
        """The kind's entry in the registry (its engines and tasks): each kind's spec class names
        it, so that the specs never import the kinds."""
        return None

    @model_validator(mode="after")
    def _engine_performs_task(self) -> BaseSpec:
        kind = type(self).descriptor()
        if kind is None:
            return self
        task = self.task
        engine = getattr(self, "engine", None)
        if engine is None:
            object.__setattr__(self, "engine", kind.default_engine(task))
        elif not kind.supports(engine, task):
            able = kind.engines_for(task)
            raise field_error(
                "engine", f"engine {engine!r} cannot do task {task!r}; "
                          f"engine{'s' if len(able) > 1 else ''} that can: {', '.join(able)}", engine)
        return self

    @model_validator(mode="after")
    def _players_meet_common_words(self) -> BaseSpec:
        # Only when the user named no dictionary: theirs always wins. Set like ``engine`` above
        # (not marked as given), so the spec's YAML still reads as the user wrote it.
        if (self.player_dictionary and getattr(self, "task", None) == "generate"
                and "dictionary" not in self.model_fields_set):
            object.__setattr__(self, "dictionary", DictionaryRef(name=self.player_dictionary))
        return self

    @property
    def source(self) -> str | None:
        """The file (or ``command line``, ``<string>``) this spec was read from."""
        return self._source

    @property
    def line(self) -> int | None:
        """The line of its file where this spec's YAML document starts, when read from YAML."""
        return self._line

    def locate(self, exc: InputError) -> InputError:
        """``exc`` (found while solving: a word not in the dictionary, an unknown shape) with the
        file and the line of the field it names, when this spec was read from a file."""
        if exc.source is not None or self._source is None:
            return exc
        top = (exc.field or "").split(".")[0].split("[")[0]
        return exc.located(source=self._source, line=self._lines.get(top))
