"""The ``cpwords spelling-bee`` shortcut: the hive's letters on the command line."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from cpwords.puzzles.spelling_bee import KIND

if TYPE_CHECKING:
    from cpwords.puzzles import CommandTools


def add_parser(subparsers: Any, parents: list[argparse.ArgumentParser], tools: CommandTools) -> None:
    """Add ``spelling-bee LETTERS [--center C]`` to the ``cpwords`` command."""
    field_choices, positive_int = tools.field_choices, tools.positive_int
    from cpwords.puzzles.spelling_bee.spec import SpellingBeeSpec as Spec

    p = subparsers.add_parser(
        "spelling-bee", parents=parents, help=KIND.command_help,
        description="List every word of a Spelling Bee hive with its score, or generate hives. Examples: "
                    "cpwords spelling-bee cejoprt --center c; "
                    "cpwords spelling-bee --task generate --min-words 20 --max-words 40",
    )
    p.add_argument("letters", nargs="?", metavar="LETTERS", help="the seven letters, e.g. cejoprt")
    p.add_argument("--center", metavar="C", help="the centre letter (default: the first of LETTERS)")
    p.add_argument("--task", choices=field_choices(Spec, "task"), help="what to do (default words)")
    p.add_argument("--min-word-length", type=int, metavar="N", help="shortest word that counts (default 4)")
    p.add_argument("--puzzles", type=positive_int, metavar="N", help="generate: how many hives")
    for name in ("min-words", "max-words", "min-points", "max-points"):
        p.add_argument(f"--{name}", type=int, metavar="N", help=f"generate: {name.replace('-', ' ')} of a hive")
    p.add_argument("--maximize", choices=field_choices(Spec, "maximize"),
                   help="generate: the hives with the most words (or points) first")
    p.add_argument("--avoid", metavar="LETTERS", help="generate: letters no hive uses (default s)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the spec from the arguments and solve it."""
    solve_and_print = args.tools.solve_and_print
    from cpwords.puzzles.loading import parse_spec

    data: dict[str, Any] = {"kind": "spelling_bee"}
    for field in ("letters", "center", "task", "min_word_length", "puzzles", "min_words", "max_words",
                  "min_points", "max_points", "maximize", "avoid"):
        value = getattr(args, field)
        if value is not None:
            data[field] = value
    if getattr(args, "dict_option", None):  # the spec's letters are checked in the dictionary's alphabet
        data["dictionary"] = args.tools.dictionary_option(args.dict_option).model_dump(mode="json", exclude_defaults=True)
    spec = parse_spec(data, source="command line")
    return solve_and_print([spec], args)
