"""YAML documents of specs, in and out: the safe loader and its guards against oversized, deeply
nested and alias-bomb documents, and the translation of a validation error into one line naming
the file, the line, the field path and the value; :func:`dump_spec` writes a spec back as YAML.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel, ValidationError

from cpwords.errors import InputError
from cpwords.files import MAX_FILE_BYTES
from cpwords.specs.input_gate import error_value

if TYPE_CHECKING:
    from cpwords.specs.base import BaseSpec

MAX_YAML_BYTES = MAX_FILE_BYTES
MAX_YAML_NODES = 500_000
MAX_YAML_DEPTH = 100


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
