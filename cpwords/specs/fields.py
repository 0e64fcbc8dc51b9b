"""Shared field types of specs: which words (:class:`DictionaryRef`), which letters
(:func:`letters`, checked against the alphabet of the spec's dictionary) and which files
(:data:`FileRef`, :data:`ShapeRef`, resolved against the puzzle file's folder at validation).
"""

from __future__ import annotations

from collections.abc import Iterable
from contextvars import ContextVar
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    GetJsonSchemaHandler,
    ValidationInfo,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

from cpwords.alphabet import ALPHABETS, ENGLISH, Alphabet, alphabet_of, language_name
from cpwords.specs.input_gate import StrictModel, field_error

#: The letters of English puzzles (a dictionary in another language brings its own alphabet).
ALPHABET = ENGLISH.letters


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


#: What ``generate`` tasks draw on when the spec names no dictionary (Letter Boxed, word grids,
#: Spelling Bee): the 20,000 most frequent words that are not names (docs/dictionaries.md).
PLAYER_DICTIONARY = "common-20k"


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

