"""YAML documents in, the spec of each document's kind out: the registry's side of the specs.

:mod:`cpwords.specs` holds what every spec shares (fields, dictionary and shape references, the
YAML loader and its limits) and knows no kind; here a document's ``kind`` picks the spec class
from the registry, and errors come back as one line naming the file, line, field and value.

>>> spec = loads_spec("kind: ladder\\nstart: cold\\ntarget: warm\\n")
>>> spec.kind, spec.engine
('ladder', 'native')
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import Field, ValidationError
from pydantic.json_schema import DEFAULT_REF_TEMPLATE

from cpwords import puzzles
from cpwords.errors import InputError, yaml_input_error
from cpwords.files import read_text
from cpwords.specs import BaseSpec, SpecJsonSchema
from cpwords.specs.documents import (
    MAX_YAML_BYTES,
    MAX_YAML_NODES,
    _empty,
    _expanded_size,
    _line_of,
    _Loader,
    _validation_to_input_error,
)

__all__ = ["all_spec_classes", "json_schema", "load_documents", "load_spec", "load_specs", "loads_documents",
           "loads_spec", "loads_specs", "parse_spec", "spec_class"]


def spec_class(kind: str) -> type[BaseSpec]:
    """The spec class of a kind; raises InputError naming the known kinds."""
    return puzzles.get(kind).spec_class()


def all_spec_classes() -> list[type[BaseSpec]]:
    """Spec classes of every registered kind, in registry order."""
    return [k.spec_class() for k in puzzles.kinds().values()]


def parse_spec(
    data: Any,
    *,
    source: str | None = None,
    base_dir: Path | None = None,
    node: yaml.Node | None = None,
    allow_files: bool = True,
) -> BaseSpec:
    """Validate one YAML document (already parsed to Python data) into the spec of its kind.

    ``allow_files=False`` refuses every field that names a file (for specs from the web).
    """
    line = node.start_mark.line + 1 if node is not None else None
    if not isinstance(data, dict):
        raise InputError(
            "a puzzle must be a mapping of fields with a 'kind' field",
            source=source,
            line=line,
            value=data,
        )
    if "kind" not in data:
        raise InputError(
            f"field 'kind' is missing; known kinds: {', '.join(puzzles.kinds())}",
            source=source,
            line=line,
        )
    kind = data["kind"]
    try:
        cls = spec_class(str(kind))
    except InputError as exc:
        raise exc.located(source=source, line=_line_of(node, ["kind"])) from None
    try:
        spec = cls.model_validate(data, context={"base_dir": base_dir, "source": source,
                                                 "allow_files": allow_files})
    except ValidationError as exc:
        raise _validation_to_input_error(exc, cls, source, node) from None
    except InputError as exc:
        raise exc.located(source=source, line=line) from None
    except RecursionError:
        raise InputError("the puzzle is nested too deeply", source=source, line=line) from None
    spec._source = source
    spec._line = line
    if isinstance(node, yaml.MappingNode):  # the line of each field, for errors found while solving
        spec._lines = {k.value: v.start_mark.line + 1 for k, v in node.value if isinstance(k, yaml.ScalarNode)}
    return spec


def loads_specs(text: str, *, source: str = "<string>", base_dir: Path | None = None,
                allow_files: bool = True) -> list[BaseSpec]:
    """Every puzzle of a YAML text (documents separated by ``---`` form a batch); the first bad
    document raises its error."""
    specs = loads_documents(text, source=source, base_dir=base_dir, allow_files=allow_files)
    for spec in specs:
        if isinstance(spec, InputError):
            raise spec
    return specs  # type: ignore[return-value]


def loads_documents(text: str, *, source: str = "<string>", base_dir: Path | None = None,
                    allow_files: bool = True) -> list[BaseSpec | InputError]:
    """Every document of a YAML text as its spec, or as the error that document has (naming the
    file and line), so that a batch with one bad document still solves the others. A text that
    is not YAML at all, or too large, raises."""
    if len(text.encode("utf-8", "replace")) > MAX_YAML_BYTES:
        raise InputError(f"the YAML text is larger than {MAX_YAML_BYTES // (1024 * 1024)} MiB", source=source)
    text = text.removeprefix("\ufeff")
    try:
        # An empty document (a file ending in ``---``) holds no puzzle: skipped, not an error.
        nodes = [n for n in yaml.compose_all(text, Loader=_Loader) if n is not None and not _empty(n)]
    except RecursionError:
        raise InputError("the YAML document is nested too deeply", source=source) from None
    except yaml.YAMLError as exc:
        raise yaml_input_error(exc, source) from None
    if not nodes:
        raise InputError("the file holds no puzzle (it is empty); start with a 'kind:' line", source=source)
    specs: list[BaseSpec | InputError] = []
    for node in nodes:
        try:
            specs.append(_document(text, node, source=source, base_dir=base_dir, allow_files=allow_files))
        except InputError as exc:
            specs.append(exc.located(source=source, line=node.start_mark.line + 1))
    return specs


def _document(text: str, node: yaml.Node, *, source: str, base_dir: Path | None, allow_files: bool) -> BaseSpec:
    if _expanded_size(node, {}) > MAX_YAML_NODES:
        raise InputError(
            f"the YAML document expands to more than {MAX_YAML_NODES:,} values (alias bomb?)",
            source=source, line=node.start_mark.line + 1,
        )
    try:
        data = _Loader(text).construct_document(node)
    except InputError as exc:  # a number past Python's digit limit
        raise exc.located(source=source) from None
    except yaml.YAMLError as exc:
        raise yaml_input_error(exc, source) from None
    return parse_spec(data, source=source, base_dir=base_dir, node=node, allow_files=allow_files)


def loads_spec(text: str, *, source: str = "<string>", base_dir: Path | None = None,
               allow_files: bool = True) -> BaseSpec:
    """The single puzzle of a YAML text; a batch of several is an error here."""
    specs = loads_specs(text, source=source, base_dir=base_dir, allow_files=allow_files)
    if len(specs) != 1:
        raise InputError(f"expected one puzzle, found {len(specs)}", source=source)
    return specs[0]


def _read(path: str | Path) -> tuple[str, str, Path]:
    p = Path(path)
    text = read_text(p, what="puzzle file", max_bytes=MAX_YAML_BYTES)
    return text, str(p), p.resolve().parent


def load_specs(path: str | Path) -> list[BaseSpec]:
    """Every puzzle of a YAML file (a file may hold several documents: a batch)."""
    text, source, base = _read(path)
    return loads_specs(text, source=source, base_dir=base)


def load_documents(path: str | Path) -> list[BaseSpec | InputError]:
    """Every document of a YAML file, each as its spec or its error (see :func:`loads_documents`)."""
    text, source, base = _read(path)
    return loads_documents(text, source=source, base_dir=base)


def load_spec(path: str | Path) -> BaseSpec:
    """The single puzzle of a YAML file."""
    text, source, base = _read(path)
    return loads_spec(text, source=source, base_dir=base)


def json_schema(kind: str | None = None, *, ref_template: str = DEFAULT_REF_TEMPLATE) -> dict[str, Any]:
    """JSON Schema of one kind's spec, or of all kinds (one of them, selected by ``kind``: the
    discriminator; every spec lists ``kind`` as required). What ``cpwords schema`` prints and what
    the server's OpenAPI document gives as the body of ``/api/solve`` and ``/api/jobs``
    (``ref_template``: where the definitions go)."""
    from pydantic import TypeAdapter

    if kind is not None:
        return spec_class(kind).model_json_schema(ref_template=ref_template, schema_generator=SpecJsonSchema)
    classes = all_spec_classes()
    if not classes:
        return {"title": "cpwords puzzle", "oneOf": []}
    if len(classes) == 1:
        return classes[0].model_json_schema(ref_template=ref_template, schema_generator=SpecJsonSchema)
    import functools
    import operator
    from typing import Annotated

    union: Any = Annotated[functools.reduce(operator.or_, classes), Field(discriminator="kind")]
    schema = TypeAdapter(union).json_schema(ref_template=ref_template, schema_generator=SpecJsonSchema)
    schema["title"] = "cpwords puzzle"
    return schema
