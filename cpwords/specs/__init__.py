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

The rooms, each importable on its own; every name below is importable from here too:

- :mod:`.input_gate`: :func:`gate`, :class:`StrictModel` and :func:`field_error`, what every field passes;
- :mod:`.fields`: :class:`DictionaryRef`, :func:`letters`, :data:`FileRef`, :data:`ShapeRef`;
- :mod:`.base`: :class:`BaseSpec` and the JSON Schema of specs;
- :mod:`.documents`: YAML in (the guarded loader, errors with their lines) and out (:func:`dump_spec`).

Example
-------
>>> DictionaryRef.model_validate("common-5k").label()
'common-5k'
>>> letters("Cat")
'cat'
"""

from __future__ import annotations

from cpwords.specs.base import BaseSpec, KindTable, SpecJsonSchema
from cpwords.specs.documents import MAX_YAML_BYTES, MAX_YAML_DEPTH, MAX_YAML_NODES, dump_spec
from cpwords.specs.fields import (
    ALPHABET,
    PLAYER_DICTIONARY,
    DictionaryRef,
    FileRef,
    ShapeRef,
    letters,
    spec_alphabet,
)
from cpwords.specs.input_gate import MAX_INT, MAX_NFC_ITEMS, StrictModel, error_value, field_error, gate

__all__ = [
    "ALPHABET", "MAX_INT", "MAX_NFC_ITEMS", "MAX_YAML_BYTES", "MAX_YAML_DEPTH", "MAX_YAML_NODES",
    "PLAYER_DICTIONARY", "BaseSpec", "DictionaryRef", "FileRef", "KindTable", "ShapeRef", "SpecJsonSchema",
    "StrictModel", "dump_spec", "error_value", "field_error", "gate", "letters", "spec_alphabet",
]
