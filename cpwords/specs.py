"""Puzzle specifications: pydantic models read from YAML.

Every puzzle kind defines one spec class (in ``cpwords/puzzles/<kind>/spec.py``) deriving from
:class:`BaseSpec`, with ``kind`` as a ``Literal``. The kind selects the class through the registry
(:mod:`cpwords.puzzles`); unknown fields are errors; the engine is checked against the kind's
capability table for the task. YAML is read with the safe loader, guarded against oversized,
deeply nested and alias-bomb documents, and every error names the file, the line when known, the
field path and the value, in one line.

Shared field types: :class:`DictionaryRef` (which words), :data:`FileRef` and :data:`ShapeRef`
(a file, or a shipped name or a file, resolved against the puzzle file's folder at validation)
and :func:`letters` (one validator for letters in every kind: those of the puzzle's dictionary's
alphabet, English a-z unless the dictionary's language says otherwise).

Example
-------
>>> DictionaryRef.model_validate("common-5k").label()
'common-5k'
>>> letters("Cat")
'cat'
"""

from __future__ import annotations

import functools
import math
import operator
import re
import types
import typing
import unicodedata
from collections.abc import Iterable
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Protocol

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    ModelWrapValidatorHandler,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

from cpwords.alphabet import ALPHABETS, ENGLISH, Alphabet, alphabet_of, language_name
from cpwords.errors import InputError
from cpwords.files import MAX_FILE_BYTES

MAX_YAML_BYTES = MAX_FILE_BYTES
MAX_YAML_NODES = 500_000
MAX_YAML_DEPTH = 100

#: The letters of English puzzles (a dictionary in another language brings its own alphabet).
ALPHABET = ENGLISH.letters


def field_error(field: str, message: str, value: Any = None) -> PydanticCustomError:
    """A validation error raised by a model-level check that belongs to one field.

    The error is reported as if the field itself had failed (its path, its YAML line, its value),
    so that model validators can blame ``engine`` or ``sides`` and not the whole puzzle.
    """
    # The value rides in a holder: pydantic's errors() cannot render text with a lone surrogate.
    return PydanticCustomError("field_error", message, {"field": field, "value": _Held(value)})


class _Held:
    """A value carried through a pydantic error as it is (see :func:`field_error`)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return repr(self.value)


def error_value(ctx: dict[str, Any], default: Any = None) -> Any:
    """The value a :func:`field_error` blames, from its pydantic error's ``ctx``."""
    held = ctx.get("value", default)
    return held.value if isinstance(held, _Held) else held


#: The alphabet of the spec being validated (set from its ``dictionary`` by :class:`BaseSpec`), so
#: that :func:`letters` checks a kind's letters against the dictionary's language.
_SPEC_ALPHABET: ContextVar[Alphabet] = ContextVar("cpwords_spec_alphabet", default=ENGLISH)


def letters(value: str, *, what: str = "a word", allow: str = "", alphabet: Alphabet | None = None) -> str:
    """``value`` lowercased, stripped and folded onto the alphabet, or a ValueError saying which
    character is not a letter of it.

    The alphabet is ``alphabet``, else that of the dictionary of the spec being validated (English
    ``a``-``z`` by default).

    >>> letters(" Cat ")
    'cat'
    >>> letters("ca7", what="side 2")
    Traceback (most recent call last):
    ...
    ValueError: side 2 'ca7' holds '7'; use letters a-z only
    >>> from cpwords.alphabet import SPANISH
    >>> letters("Niño", alphabet=SPANISH), letters("PINGÜINO", alphabet=SPANISH)
    ('niño', 'pinguino')
    """
    alphabet = alphabet or _SPEC_ALPHABET.get()
    text = alphabet.fold(value)
    for ch in text:
        if ch not in alphabet.index and ch not in allow:
            extra = f" and {', '.join(repr(c) for c in allow)}" if allow else ""
            where = "" if alphabet is ENGLISH else f" ({alphabet.language})"
            raise ValueError(f"{what} {text!r} holds {ch!r}; use letters {alphabet.describe()}{extra}{where} only")
    return text


def spec_alphabet() -> Alphabet:
    """The alphabet of the spec being validated (English outside a spec's validation)."""
    return _SPEC_ALPHABET.get()


def _raw_alphabet(data: Any) -> Alphabet:
    """The alphabet a spec's raw ``dictionary`` value names (English when unset or unclear;
    the dictionary's own validation reports a bad value)."""
    ref = data.get("dictionary") if isinstance(data, dict) else getattr(data, "dictionary", None)
    if isinstance(ref, DictionaryRef):
        return ref.alphabet()
    name = ref if isinstance(ref, str) else ref.get("name") or ref.get("language") if isinstance(ref, dict) else None
    try:
        return alphabet_of(language_name(name) if isinstance(name, str) else None)
    except KeyError:
        return ENGLISH


# ---------------------------------------------------------------- files named in specs


def _looks_like_file(text: str) -> bool:
    return "/" in text or "\\" in text or text.endswith((".yaml", ".yml", ".txt"))


def _resolve_file(value: Path, info: ValidationInfo, instead: str = "a built-in name or inline data") -> Path:
    context = info.context or {}
    if context.get("allow_files") is False:
        raise PydanticCustomError("file_refused", f"files cannot be named here; use {instead}")
    value = value.expanduser()
    base = context.get("base_dir")
    if not value.is_absolute() and base is not None:
        value = Path(base) / value
    return value


def _file_or_name(value: Any) -> Any:
    if isinstance(value, str) and _looks_like_file(value):
        return Path(value)
    return value


#: A file a spec names: resolved against the folder of the YAML file that names it, at validation.
#: Refused when validation runs with ``context={"allow_files": False}`` (the web server).
FileRef = Annotated[Path, AfterValidator(_resolve_file)]

def _resolve_shape_file(value: Path, info: ValidationInfo) -> Path:
    return _resolve_file(value, info, instead="the name of a shipped shape")


#: A shipped shape by name (a ``str``) or a shape file (resolved as a :data:`FileRef` is; where files
#: are refused, the name of a shipped shape is what remains): a value with a ``/`` or ending in
#: ``.yaml`` / ``.yml`` is a file.
ShapeRef = Annotated[str | Annotated[Path, AfterValidator(_resolve_shape_file)], BeforeValidator(_file_or_name)]


#: Largest integer a spec field takes: the largest a JSON number carries exactly, and far inside
#: the 64-bit sums the engines build from it (OR-Tools refuses bounds near 2**63).
MAX_INT = 2**53 - 1

#: Half of a UTF-16 surrogate pair: not a character. JSON.stringify writes one when a string is cut
#: inside an emoji, and YAML's "\\ud83d\\ude00" escapes give the two halves of one.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _admits(annotation: Any, kind: type) -> bool:
    """Whether a field's type takes values of type ``kind`` as they are (``bool`` in a
    ``bool | None`` field, not in an ``int`` one)."""
    if annotation is Any or annotation is kind:
        return True
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return any(type(a) is kind for a in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType, Annotated):
        return any(_admits(a, kind) for a in typing.get_args(annotation))
    return False


def _items_type(annotation: Any) -> Any:
    """The type of the items of the list, tuple or mapping a field's type allows (their union;
    ``Any`` when it says nothing)."""
    found: list[Any] = []

    def walk(a: Any) -> None:
        origin = typing.get_origin(a)
        if origin in (typing.Union, types.UnionType, Annotated):
            for arg in typing.get_args(a)[: 1 if origin is Annotated else None]:
                walk(arg)
        elif origin in (list, tuple, dict):
            args = [t for t in typing.get_args(a) if t is not Ellipsis]
            found.extend(args[1:] if origin is dict else args)

    walk(annotation)
    return functools.reduce(operator.or_, found) if found and all(isinstance(t, type) or typing.get_origin(t)
                                                                 for t in found) else Any


def _is_model(annotation: Any) -> bool:
    """Whether a field's type is a model (alone or beside None), whose own fields pass the gate."""
    args = typing.get_args(annotation) if typing.get_origin(annotation) in (typing.Union, types.UnionType) else ()
    return all(a is type(None) or isinstance(a, type) and issubclass(a, BaseModel) for a in args or (annotation,))


def _plain_items(values: list[Any] | tuple[Any, ...], items: Any) -> bool:
    """Whether every item of a list passes the gate at once: all text without a surrogate (a word
    list of 20,000), or all integers in range (checked without a call per item)."""
    if all(type(v) is str for v in values):
        return not (_SURROGATE.search("".join(values)) or _admits(items, int) and not _admits(items, str))
    return all(type(v) is int for v in values) and (not values or max(map(abs, values)) <= MAX_INT)


def _whole_text(name: str, text: str) -> str:
    """``text`` with its escaped surrogate pairs joined into the characters they spell; a lone
    half of a pair is refused."""
    try:
        return text.encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeDecodeError:
        half = _SURROGATE.search(text)
        assert half is not None
        raise field_error(name, f"the text holds {half.group()!r}, half of a UTF-16 surrogate pair and no "
                                "character (a string cut inside an emoji?); send whole characters", text) from None


def gate(name: str, annotation: Any, value: Any) -> Any:
    """The input gate: what every spec field (from YAML, JSON, the server or the Python API) and
    every argument of :mod:`cpwords.api` passes before anything else looks at it, in one place.

    Refused, naming ``name``: a boolean where no boolean is meant (``min_word_length: true`` is
    not 1); an integer beyond :data:`MAX_INT` (as a number or as digits); a number that is not
    finite (NaN, infinity, and ``1e400``, which JSON and YAML read as infinity); text holding
    half of a UTF-16 surrogate pair. The items of a list, tuple or mapping are checked too.
    Returns the value, with escaped surrogate pairs joined into their characters.

    >>> gate("title", str, "\\ud83d\\ude00") == "\\U0001F600"
    True
    >>> gate("par", int, float("nan"))
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.PydanticCustomError: the number is not finite (NaN or infinity; a number beyond 1.8e308 reads as infinity)
    """
    if isinstance(value, bool):
        if not _admits(annotation, bool):
            raise field_error(name, "a yes/no value where a number or text is expected", value)
    elif isinstance(value, int):
        if abs(value) > MAX_INT:
            raise field_error(name, f"the number is too large (at most {MAX_INT:,} in size)", value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise field_error(name, "the number is not finite (NaN or infinity; a number beyond 1.8e308 reads "
                                    "as infinity)", value)
    elif isinstance(value, str):
        if _SURROGATE.search(value):
            return _whole_text(name, value)
        digits = value.strip().lstrip("+-").lstrip("0")
        if (len(digits) > 16 and digits.isascii() and digits.isdigit() and _admits(annotation, int)
                and not _admits(annotation, str)):  # 17 digits: at least 10**16, past MAX_INT
            raise field_error(name, f"the number is too large (at most {MAX_INT:,} in size)", value)
    elif isinstance(value, (list, tuple)):
        items = _items_type(annotation)
        if _plain_items(value, items):
            return value
        checked = [gate(f"{name}[{i}]", items, item) for i, item in enumerate(value)]
        if any(new is not old for new, old in zip(checked, value, strict=True)):
            return type(value)(checked)
    elif isinstance(value, dict) and not _is_model(annotation):  # a model's fields pass its own gate
        items = _items_type(annotation)
        out: dict[Any, Any] = {}
        changed = False
        for key, item in value.items():
            where = f"{name}.{key}" if isinstance(key, str) and not _SURROGATE.search(key) else name
            new_key = gate(where, str, key) if isinstance(key, str) else key
            out[new_key] = gate(where, items, item)
            changed = changed or new_key is not key or out[new_key] is not item
        if changed:
            return out
    return value


#: What ``generate`` tasks draw on when the spec names no dictionary (Letter Boxed, word grids,
#: Spelling Bee): the 20,000 most frequent words that are not names (docs/dictionaries.md).
PLAYER_DICTIONARY = "common-20k"


class StrictModel(BaseModel):
    """A model that rejects unknown fields and documents fields from their docstrings."""

    # allow_inf_nan: "nan" and "inf" written as text are no numbers either (see :func:`gate`)
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True, allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _input_gate(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        out = data
        for name, value in data.items():
            field = cls.model_fields.get(name) if isinstance(name, str) else None
            half = _SURROGATE.search(name) if field is None and isinstance(name, str) else None
            if half is not None:  # the name is shown escaped: no error message can hold it
                raise field_error(name.encode("utf-8", "backslashreplace").decode("utf-8"),
                                  f"unknown field; its name holds {half.group()!r}, half of a UTF-16 surrogate "
                                  "pair and no character", value)
            if field is not None:
                checked = gate(name, field.annotation, value)
                if checked is not value:  # an escaped surrogate pair joined: the caller's data is left as it is
                    out = {**out, name: checked}
        return cls._composed_text(out)

    @classmethod
    def _composed_text(cls, data: Any) -> Any:
        # The one gate for text that enters a spec (YAML, the API, the server, the shortcuts):
        # Unicode NFC, so a decomposed accent (``n`` + U+0303, as macOS keyboards type it) is
        # the letter ``ñ`` in every kind. Fields naming files keep their text as written; a
        # nested model (the dictionary) brings its own fields to NFC.
        if not isinstance(data, dict):
            return data
        composed = {name: _nfc(value) for name, value in data.items()
                    if isinstance(name, str) and name in cls.model_fields
                    and not _keeps_text(cls.model_fields[name].annotation)}
        changed = {name: value for name, value in composed.items() if value is not data[name]}
        return {**data, **changed} if changed else data


def _nfc(value: Any) -> Any:
    """``value`` with its text in Unicode NFC (in lists and mapping values too); the same object
    when nothing changes.

    >>> _nfc("nin\u0303o") == "ni\u00f1o", _nfc(["cafe\u0301"]), _nfc(3)
    (True, ['café'], 3)
    """
    if isinstance(value, str):
        return value if unicodedata.is_normalized("NFC", value) else unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        items = [_nfc(v) for v in value[:MAX_NFC_ITEMS]]
        if all(a is b for a, b in zip(items, value, strict=False)):
            return value
        return items + value[MAX_NFC_ITEMS:]
    if isinstance(value, dict):
        out = {k: _nfc(v) for k, v in value.items()}
        return value if all(out[k] is v for k, v in value.items()) else out
    return value


#: List items brought to NFC (a longer list is refused by the field's own limits).
MAX_NFC_ITEMS = 1_000_000


def _keeps_text(annotation: Any) -> bool:
    """Whether a field's type takes a file (:data:`FileRef`, :data:`ShapeRef`) or a model (which
    composes its own text): :meth:`StrictModel._composed_text` leaves such a field as written."""
    if annotation is Path or (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
        return True
    return any(_keeps_text(a) for a in typing.get_args(annotation))


class DictionaryRef(StrictModel):
    """Which words a puzzle may use: a built-in dictionary, a word-list file or inline words.

    In YAML a plain string is a built-in name (``dictionary: scowl-70``); a mapping names exactly
    one of ``name``, ``path`` or ``words`` and may add filters.
    """

    name: str | None = None
    """Built-in dictionary name, e.g. ``scowl-70``, ``scowl-british-50``, ``common-10k``, or a language:
    ``italian``, ``spanish``, ``german``, ``french`` (``it``, ``es``, ``de``, ``fr``)."""
    path: FileRef | None = None
    """A word-list file: one word a line, ``#`` starts a comment. Relative to the YAML file's folder."""
    words: list[str] | None = None
    """Inline words (any case)."""
    min_length: int | None = Field(default=None, ge=1)
    """Keep only words of at least this many letters."""
    max_length: int | None = Field(default=None, ge=1)
    """Keep only words of at most this many letters."""
    max_level: int | None = Field(default=None, ge=1)
    """Keep only words whose SCOWL level is at most this (lower levels are more common words)."""
    drop_plurals: bool = False
    """Drop words that are another word of the list plus ``s`` or ``es``."""
    language: str | None = None
    """The language of a ``path`` or ``words`` list (``italian``, ``es`` …; default English): its
    alphabet decides which letters are words and how accents fold (docs/dictionaries.md). A
    built-in language dictionary brings its own."""
    exclude: list[Literal["offensive"]] | None = None
    """Word lists to leave out: ``[offensive]`` drops slurs, obscenities and swear words (see
    docs/dictionaries.md). Default (unset): left out where cpwords chooses the words (every
    ``generate`` task, the examples, the web pages), kept when solving a puzzle you typed;
    ``[]`` keeps every word everywhere."""

    @model_validator(mode="before")
    @classmethod
    def _from_name(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"name": data}
        return data

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
                                     ) -> JsonSchemaValue:
        # The schema says what _from_name takes: a plain string is a built-in name.
        mapping = handler(schema)
        return {"anyOf": [{"type": "string", "description": "a built-in dictionary name (e.g. scowl-70)"},
                          handler.resolve_ref_schema(mapping)],
                "title": "DictionaryRef", "description": mapping.get("description") or cls.__doc__}

    @model_validator(mode="after")
    def _exactly_one_source(self) -> DictionaryRef:
        given = [k for k in ("name", "path", "words") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                "a dictionary needs exactly one of 'name', 'path' or 'words'"
                + (f" (got {', '.join(given)})" if given else "")
            )
        if self.min_length and self.max_length and self.min_length > self.max_length:
            raise ValueError("min_length is larger than max_length")
        if self.language is not None:
            known = language_name(self.language)
            if known is None:
                raise field_error("language", f"unknown language; known: {', '.join(ALPHABETS)} "
                                              "(or it, es, de, fr)", self.language)
            named = language_name(self.name) if self.name is not None else None
            if self.name is not None and known != (named or "english"):
                raise field_error("language", f"the built-in dictionary {self.name!r} is "
                                              f"{named or 'english'}", self.language)
            object.__setattr__(self, "language", known)
        return self

    def alphabet(self) -> Alphabet:
        """The alphabet of this dictionary's language (English ``a``-``z`` unless it says otherwise).

        >>> DictionaryRef(name="it").alphabet().language, DictionaryRef(words=["x"]).alphabet().size
        ('italian', 26)
        """
        if self.name is not None:
            return alphabet_of(language_name(self.name))
        return alphabet_of(self.language)

    def label(self) -> str:
        """A short human name for this dictionary, for messages and tables."""
        if self.name is not None:
            base = self.name
        elif self.path is not None:
            base = str(self.path)
        else:
            base = f"{len(self.words or [])} inline words"
        filters = [
            f"{k}={getattr(self, k)}"
            for k in ("min_length", "max_length", "max_level")
            if getattr(self, k) is not None
        ]
        if self.drop_plurals:
            filters.append("drop_plurals")
        if self.language is not None and self.name is None:
            filters.append(f"language={self.language}")
        if self.exclude:
            filters.append("exclude=" + "+".join(self.exclude))
        return base + (f" ({', '.join(filters)})" if filters else "")

    def with_default_exclude(self, exclude: Iterable[str]) -> DictionaryRef:
        """This reference with ``exclude`` filled in when the user left it unset (an explicit
        ``exclude``, even ``[]``, is kept): how generators and the web pages leave offensive
        words out by default.

        >>> DictionaryRef(name="scowl-70").with_default_exclude(["offensive"]).exclude
        ['offensive']
        >>> DictionaryRef(name="scowl-70", exclude=[]).with_default_exclude(["offensive"]).exclude
        []
        """
        if self.exclude is not None:
            return self
        return self.model_copy(update={"exclude": list(exclude)})


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
    """Local worker processes of the execution layer for work that runs in parallel (counts, shards,
    chains), capped at the machine's cores. Default: one per core, at most 8. A CP-SAT solve is one
    worker: its search threads are the engine's own choice."""

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


# ---------------------------------------------------------------- YAML in


class _Loader(yaml.SafeLoader):
    """Safe loader that reads dates as text (``title: 2024-13-45`` is a title, not a bad date)
    and refuses a key given twice in one mapping (YAML would keep the last one silently); a
    separate class so that nothing we change leaks into PyYAML's."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        first_line: dict[str, int] = {}
        for key, _ in node.value:
            if not isinstance(key, yaml.ScalarNode) or key.tag == "tag:yaml.org,2002:merge":
                continue
            if key.value in first_line:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key '{key.value}' is given twice (first on line {first_line[key.value]}); "
                                "give each key once", key.start_mark)
            first_line[key.value] = key.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)


def _construct_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    """An integer, or one line for one past Python's digit limit (a 5,000-digit number)."""
    try:
        return yaml.SafeLoader.construct_yaml_int(loader, node)
    except ValueError:
        raise InputError(f"a number of {len(node.value):,} characters is too large",
                         line=node.start_mark.line + 1) from None


_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _empty(node: yaml.Node) -> bool:
    """True for a document with nothing in it (what follows a last ``---``)."""
    return isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null" and node.value == ""


def _expanded_size(node: yaml.Node, memo: dict[int, int], depth: int = 0) -> int:
    """Number of nodes the document has once aliases are expanded (a bomb has billions)."""
    key = id(node)
    if key in memo:
        return memo[key]
    if depth > MAX_YAML_DEPTH:
        raise InputError(f"the YAML document is nested more than {MAX_YAML_DEPTH} levels deep")
    size = 1
    if isinstance(node, yaml.SequenceNode):
        size += sum(_expanded_size(child, memo, depth + 1) for child in node.value)
    elif isinstance(node, yaml.MappingNode):
        size += sum(
            _expanded_size(k, memo, depth + 1) + _expanded_size(v, memo, depth + 1)
            for k, v in node.value
        )
    memo[key] = min(size, MAX_YAML_NODES + 1)
    return memo[key]


def _line_of(node: yaml.Node | None, loc: Iterable[Any]) -> int | None:
    """1-based line of the node at ``loc`` inside ``node``, or of the deepest node found."""
    if node is None:
        return None
    line = node.start_mark.line + 1
    for step in loc:
        child = None
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == str(step):
                    child = v
                    break
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            if 0 <= step < len(node.value):
                child = node.value[step]
        if child is None:
            break
        node = child
        line = node.start_mark.line + 1
    return line


def _field_path(loc: Iterable[Any]) -> str:
    out = ""
    for step in loc:
        if isinstance(step, int):
            out += f"[{step}]"
        else:
            out += ("." if out else "") + str(step)
    return out


def _validation_to_input_error(
    err: ValidationError, cls: type[BaseModel], source: str | None, node: yaml.Node | None
) -> InputError:
    errors = err.errors(include_url=False)
    first = _first_error(errors)
    # Pydantic adds the names of wrapper validators (e.g. 'function-after[...]') to loc.
    # and, for a union, the name of the member type that failed ('bonuses.str').
    loc = [s for s in first["loc"] if not (isinstance(s, str) and ("[" in s and "]" in s or s in _TYPE_TAGS))]
    message = first["msg"]
    if first["type"] == "field_error":
        ctx = first.get("ctx") or {}
        loc = [*loc, *_split_field(ctx.get("field", ""))]
        first = {**first, "input": error_value(ctx)}
    if first["type"] == "value_error":
        message = message.removeprefix("Value error, ")
    elif first["type"] == "extra_forbidden":
        allowed = _allowed_fields(cls, loc[:-1])
        message = "unknown field" + (f"; allowed fields: {', '.join(allowed)}" if allowed else "")
    elif first["type"] == "missing":
        message = "required field is missing"
    value = first.get("input")
    message += _yaml_reading(node, loc, value)
    kwargs: dict[str, Any] = {}
    if first["type"] not in ("missing",) and not isinstance(value, dict):
        kwargs["value"] = value
    return InputError(
        message, source=source, field=_field_path(loc) or None, line=_line_of(node, loc), **kwargs
    )


def _yaml_reading(node: yaml.Node | None, loc: Iterable[Any], value: Any) -> str:
    """What to add to an error about a value YAML read differently than written: ``yes``,
    ``no``, ``on``, ``off`` are booleans and ``null`` or ``~`` is nothing, unless quoted."""
    if node is None or not (isinstance(value, bool) or value is None):
        return ""
    target = _node_at(node, loc)
    if not isinstance(target, yaml.ScalarNode) or target.style or target.value in ("", "true", "false"):
        return ""
    return (f" (YAML reads {target.value} as {'nothing' if value is None else str(value).lower()}; "
            f"write '{target.value}' in quotes for the text)")


def _node_at(node: yaml.Node, loc: Iterable[Any]) -> yaml.Node | None:
    """The node at ``loc`` inside ``node``, or None."""
    for step in loc:
        child = None
        if isinstance(node, yaml.MappingNode):
            child = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(step)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
            child = node.value[step]
        if child is None:
            return None
        node = child
    return node


def _first_error(errors: list[Any]) -> Any:
    """The error to report. For a field of several types (``str | file``, ``str | mapping``),
    pydantic reports one error per type, the first type's first: the error of a type's own check
    ("files cannot be named here") says more than "Input should be a valid string", and when
    every type only failed to match, the message names them all."""
    first = errors[0]
    same = [e for e in errors if e["loc"][:1] == first["loc"][:1]]
    if len(same) < 2 or not first["type"].endswith("_type"):
        return first
    own = next((e for e in same if not e["type"].endswith("_type")), None)
    if own is not None:
        return own
    kinds = list(dict.fromkeys(e["msg"].removeprefix("Input should be ") for e in same
                               if e["msg"].startswith("Input should be ")))
    return {**first, "msg": "Input should be " + " or ".join(kinds)} if len(kinds) > 1 else first


#: Names pydantic gives union members in an error's location: not fields.
_TYPE_TAGS = frozenset({"str", "int", "float", "bool", "bytes", "tuple", "frozenset", "none", "literal", "union",
                        "is-instance", "json-or-python", "lax-or-strict"})


def _split_field(path: str) -> list[Any]:
    """``"suffixes.c1"`` / ``"sides[2]"`` -> loc steps."""
    out: list[Any] = []
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        out.append(int(part[1:-1]) if part.startswith("[") else part)
    return out


def _allowed_fields(cls: type[BaseModel], parent: list[Any]) -> list[str]:
    model: Any = cls
    for step in parent:
        if isinstance(step, int):
            continue
        field = getattr(model, "model_fields", {}).get(step)
        if field is None:
            return []
        annotation = field.annotation
        candidates = [annotation, *getattr(annotation, "__args__", ())]
        model = next((c for c in candidates if isinstance(c, type) and issubclass(c, BaseModel)), None)
        if model is None:
            return []
    return sorted(model.model_fields)


def dump_spec(spec: BaseSpec) -> str:
    """The spec as YAML (fields left at their default are omitted)."""
    data = spec.model_dump(mode="json", exclude_defaults=True)
    data = {"kind": spec.kind, **{k: v for k, v in data.items() if k != "kind"}}
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
