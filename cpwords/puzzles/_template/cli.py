"""The ``cpwords _template`` shortcut: the letters on the command line.

Fill in: ``add_parser(subparsers, parents, tools)`` adds the command (``parents`` brings the
options every solving command shares: --engine, --dict, --json, --time-limit …); ``run`` builds
the same spec a YAML file would, through ``parse_spec``, and hands it to ``tools.solve_and_print``.
Kinds never import the CLI: what they need comes in ``tools`` (``args.tools`` when run).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from cpwords.puzzles._template import KIND

if TYPE_CHECKING:
    from cpwords.puzzles import CommandTools


def add_parser(subparsers: Any, parents: list[argparse.ArgumentParser], tools: CommandTools) -> None:
    """Add ``_template LETTERS [--task T] [--min-length N]`` to the ``cpwords`` command."""
    from cpwords.puzzles._template.spec import TemplateSpec

    p = subparsers.add_parser("_template", parents=parents, help=KIND.command_help,
                              description="List (or count) every word made of some letters. "
                                          "Example: cpwords _template listen")
    p.add_argument("letters", metavar="LETTERS", help="the letters, e.g. listen")
    p.add_argument("--task", choices=tools.field_choices(TemplateSpec, "task"), help="what to do (default enumerate)")
    p.add_argument("--min-length", type=tools.positive_int, metavar="N", help="shortest word that counts (default 3)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the spec from the arguments and solve it."""
    from cpwords.puzzles.loading import parse_spec

    data: dict[str, Any] = {"kind": "_template", "letters": args.letters}
    for field in ("task", "min_length"):
        if getattr(args, field) is not None:
            data[field] = getattr(args, field)
    if getattr(args, "dict_option", None):
        data["dictionary"] = args.tools.dictionary_option(args.dict_option).model_dump(mode="json", exclude_defaults=True)
    return args.tools.solve_and_print([parse_spec(data, source="command line")], args)
