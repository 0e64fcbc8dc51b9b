"""What identifies a sharded run, so that a checkpoint resumes only the run it was made for.

A run is identified by :func:`fingerprint`: the spec's fields (without the ones that cannot
change an answer: ``time_limit``, ``workers``, ``title``; and ``seed`` unless the sharding uses
it), the content hash of every dictionary and file the spec names, and the sharding's version.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from cpwords.engines.shards import Sharding
    from cpwords.specs import BaseSpec


# ---------------------------------------------------------------- identity of a run

#: Spec fields that cannot change an answer (a resumed run may change them freely).
NEUTRAL_FIELDS = frozenset({"time_limit", "workers", "title"})


def fingerprint(spec: BaseSpec, sharding: Sharding) -> dict[str, Any]:
    """What identifies the answer of ``spec``: its fields, the content of its data, the scheme.

    Returns
    -------
    ``{"kind", "fields", "data", "scheme"}``: ``data`` maps each field path that names a
    dictionary or a file to the SHA-256 of its content (a dictionary's words and values).

    Raises
    ------
    InputError
        When a dictionary or a file the spec names cannot be read.
    """
    exclude = set(NEUTRAL_FIELDS) | (set() if sharding.uses_seed else {"seed"})
    fields = spec.model_dump(mode="json", exclude=exclude)
    return {"kind": spec.kind, "fields": fields, "data": dict(_data_hashes(spec, "")),
            "scheme": f"{type(sharding).__module__}.{type(sharding).__name__}:{sharding.version}"}


def digest(value: Any) -> str:
    """SHA-256 of JSON data (keys sorted)."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def _data_hashes(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """(field path, content hash) of every dictionary and file reachable from ``value``."""
    from cpwords.specs import DictionaryRef

    if isinstance(value, DictionaryRef):
        from cpwords.lexicon import load_lexicon

        yield path, load_lexicon(value).content_hash
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _data_hashes(getattr(value, name), f"{path}.{name}" if path else name)
    elif isinstance(value, Path):
        yield path, _file_hash(value)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _data_hashes(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _data_hashes(item, f"{path}.{key}")


def _file_hash(path: Path) -> str:
    from cpwords.errors import InputError

    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", value=str(path)) from None


def changes(old: dict[str, Any], new: dict[str, Any]) -> str:
    """In words, how fingerprint ``new`` differs from ``old`` (for the refusal message).

    >>> a = {"kind": "k", "fields": {"x": 1, "seed": 2}, "data": {"dictionary": "aa"}, "scheme": "s:1"}
    >>> changes(a, {**a, "data": {"dictionary": "bb"}})
    'the content of dictionary changed'
    >>> changes(a, {**a, "fields": {"x": 3, "seed": 2}})
    'field x changed (1 -> 3)'
    """
    if old.get("kind") != new.get("kind"):
        return f"the puzzle kind changed ({old.get('kind')} -> {new.get('kind')})"
    if old.get("scheme") != new.get("scheme"):
        return "cpwords' shard scheme changed (a newer cpwords)"
    said = []
    old_fields, new_fields = old.get("fields", {}), new.get("fields", {})
    for name in sorted(set(old_fields) | set(new_fields)):
        a, b = old_fields.get(name), new_fields.get(name)
        if a != b:
            if name == "seed":
                said.append(f"the seed changed (the checkpoint used seed {a}; pass --seed {a} to resume it)")
            else:
                shown = f" ({_short(a)} -> {_short(b)})" if len(str(a)) + len(str(b)) < 60 else ""
                said.append(f"field {name} changed{shown}")
    old_data, new_data = old.get("data", {}), new.get("data", {})
    for name in sorted(set(old_data) | set(new_data)):
        if old_data.get(name) != new_data.get(name) and old_fields.get(name) == new_fields.get(name):
            said.append(f"the content of {name} changed")
    return "; ".join(said) or "the run changed"


def _short(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str | int | float) else str(value)
