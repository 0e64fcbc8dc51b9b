"""What a request may bring: a spec as JSON or as YAML text, read with the server's limits.

Every check that protects the server happens here, before a job is queued: the body cap, the
text encoding, the spec's own validation with files refused (``allow_files=False``: no
dictionary, shape or layout is ever read from the server's disk on a request's behalf), and the
size of inline word lists. Each failure is a :class:`RequestError` carrying the HTTP status and
the JSON body (the CLI's one-line message with field and value).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel
from starlette.requests import Request

from cpwords.errors import InputError
from cpwords.server import config as limits
from cpwords.server.config import size_text
from cpwords.server.wire import shown
from cpwords.server.worker import error_body

#: Media types read as YAML text (anything else but JSON is refused).
YAML_TYPES = frozenset({"application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "text/plain"})


class RequestError(Exception):
    """A request the server refuses: ``status`` and the JSON ``body`` to answer with."""

    def __init__(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        super().__init__(body.get("error"))
        self.status = status
        self.body = body
        self.headers = headers or {}

    @classmethod
    def of(cls, status: int, message: str, *, field: str | None = None, value: Any = None) -> RequestError:
        """A refusal with a plain message (no InputError behind it)."""
        head = f"field '{field}': " if field else ""
        return cls(status, {"error": head + message, "message": message, "field": field, "value": shown(value),
                            "line": None})

    @classmethod
    def bad_input(cls, exc: InputError) -> RequestError:
        """A spec the user can fix: 422 with the CLI's one line, field and value."""
        return cls(422, error_body(exc))


async def read_body(request: Request, cap: int = limits.MAX_BODY_BYTES) -> bytes:
    """The request body, refused past ``cap`` bytes whatever ``Content-Length`` said."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise RequestError.of(413, f"the request body is larger than {size_text(cap)}")
        chunks.append(chunk)
    return b"".join(chunks)


def media_type(request: Request) -> str:
    """The request's media type, lowercased, without parameters (``application/json``)."""
    return request.headers.get("content-type", "application/json").split(";")[0].strip().lower()


def spec_input(body: bytes, media: str) -> dict[str, Any] | str:
    """The body as what the worker validates: a mapping (JSON) or the YAML text.

    Raises
    ------
    RequestError
        400 for an empty body, invalid JSON or text that is not UTF-8; 415 for another media type.
    """
    if media not in YAML_TYPES and media != "application/json":
        raise RequestError.of(415, f"send the spec as application/json or as YAML text (application/yaml), "
                                   f"not {media[:60]}")
    if not body.strip():
        raise RequestError.of(400, "the request body is empty; send a puzzle spec as JSON or YAML")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RequestError.of(400, f"the request body is not UTF-8 text (byte {exc.start + 1})") from None
    if media in YAML_TYPES:
        return text
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except _DuplicateKey as exc:
        raise RequestError.of(400, "the key is given twice; give each key once", field=exc.key) from None
    except RecursionError:
        raise RequestError.of(400, "the JSON body is nested too deeply") from None
    except ValueError as exc:
        raise RequestError.of(400, f"the body is not valid JSON: {str(exc).splitlines()[0][:120]}") from None
    if not isinstance(data, dict):
        raise RequestError.of(422, "a puzzle must be a JSON object of fields with a 'kind' field",
                              value=type(data).__name__)
    return data


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict, refusing a key given twice (``json`` would keep the last)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def validate(spec_in: dict[str, Any] | str) -> Any:
    """Validate a spec as the worker will (files refused) and check the server's own limits;
    returns the spec object. Run it off the event loop: a large YAML text takes a while.

    Raises
    ------
    RequestError
        422 with field and value for anything wrong with the spec.
    """
    from cpwords.puzzles.loading import loads_spec, parse_spec

    try:
        if isinstance(spec_in, str):
            spec = loads_spec(spec_in, source="spec", allow_files=False)
        else:
            spec = parse_spec(spec_in, source="spec", allow_files=False)
        check_inline_words(spec)
    except InputError as exc:
        raise RequestError.bad_input(exc) from None
    except RecursionError:
        raise RequestError.of(422, "the spec is nested too deeply") from None
    return spec


def check_inline_words(model: BaseModel, path: str = "") -> None:
    """Refuse an inline word list (``{words: [...]}``) longer than the server's cap, wherever it sits.

    Raises
    ------
    InputError
        Naming the field (``dictionary.words``) and how many words it holds.
    """
    from cpwords.specs import DictionaryRef

    if isinstance(model, DictionaryRef) and model.words is not None and len(model.words) > limits.MAX_INLINE_WORDS:
        raise InputError(f"inline word lists sent to the server may hold at most {limits.MAX_INLINE_WORDS:,} words; "
                         "use a built-in dictionary name", field=f"{path}words".lstrip("."),
                         value=f"{len(model.words):,} words")
    for name in type(model).model_fields:
        value = getattr(model, name, None)
        items = value if isinstance(value, list) else list(value.values()) if isinstance(value, dict) else [value]
        for item in items:
            if isinstance(item, BaseModel):
                check_inline_words(item, f"{path}{name}.")
