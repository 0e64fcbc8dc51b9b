"""cpwords: a constraint-programming solver suite for word puzzles.

>>> import cpwords
>>> spec = cpwords.loads("kind: letter_boxed\\nsides: [lme, iuf, wcb, oas]\\n")
>>> cpwords.solve(spec).solutions[0].words
['blowflies', 'sumac']

Heavy modules (OR-Tools, PySAT, the lexicon data) load only when a puzzle needs them.
"""

from __future__ import annotations

from typing import Any

from cpwords.version import __version__ as __version__

__all__ = ["load", "loads", "solve", "solve_many", "Options", "Lexicon", "load_lexicon", "Result", "Status",
           "InputError", "verify"]


def __getattr__(name: str) -> Any:
    if name in ("load", "loads", "solve", "solve_many"):
        from cpwords import api

        return getattr(api, name)
    if name == "Options":
        from cpwords.options import Options

        return Options
    if name in ("Lexicon", "load_lexicon"):
        from cpwords import lexicon

        return getattr(lexicon, name)
    if name in ("Result", "Status"):
        from cpwords import results

        return getattr(results, name)
    if name == "InputError":
        from cpwords.errors import InputError

        return InputError
    if name == "verify":
        import importlib

        return importlib.import_module("cpwords.verify")
    # Spec classes by name, e.g. cpwords.LadderSpec
    if name.endswith("Spec"):
        from cpwords.puzzles.loading import all_spec_classes

        for cls in all_spec_classes():
            if cls.__name__ == name:
                return cls
    raise AttributeError(f"module 'cpwords' has no attribute {name!r}")
