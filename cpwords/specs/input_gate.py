"""The input gate of specs: what every field passes before anything else looks at it.

:func:`gate` refuses what no field means (a boolean for a number, an integer beyond
:data:`MAX_INT`, a number that is not finite, half of a UTF-16 surrogate pair) and
:class:`StrictModel`, the base of every spec model, runs it on every field, refuses unknown fields
and brings text to Unicode NFC. :func:`field_error` lets a model-level check blame one field.
"""

from __future__ import annotations

import functools
import math
import operator
import re
import types
import typing
import unicodedata
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator
from pydantic_core import PydanticCustomError


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

