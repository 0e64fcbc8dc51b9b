"""The ``cpwords letter-boxed`` shortcut: the sides on the command line."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from cpwords.puzzles.letter_boxed import KIND

if TYPE_CHECKING:
    from cpwords.puzzles import CommandTools


def add_parser(subparsers: Any, parents: list[argparse.ArgumentParser], tools: CommandTools) -> None:
    """Add ``letter-boxed SIDE SIDE SIDE ...`` to the ``cpwords`` command."""
    field_choices, positive_int = tools.field_choices, tools.positive_int
    from cpwords.puzzles.letter_boxed.spec import LetterBoxedSpec as Spec

    p = subparsers.add_parser(
        "letter-boxed", parents=parents, help=KIND.command_help,
        description="Solve (or count, list, generate) a Letter Boxed puzzle. Example: "
                    "cpwords letter-boxed paf uot mie xlr --task count --max-words 3",
    )
    p.add_argument("sides", nargs="*", metavar="SIDE", help="the letters of each side, e.g. paf uot mie xlr")
    p.add_argument("--task", choices=field_choices(Spec, "task"), help="what to do (default min_words)")
    p.add_argument("--max-words", type=int, metavar="K", help="most words an answer may have (default 5)")
    p.add_argument("--min-word-length", type=int, metavar="N", help="shortest playable word (default 3)")
    p.add_argument("--rank", choices=field_choices(Spec, "rank"), help="order of equally short answers")
    p.add_argument("--limit", type=int, metavar="N", help="enumerate: list at most N answers")
    p.add_argument("--par", type=int, help="generate: minimum number of words of the puzzles")
    p.add_argument("--puzzles", type=positive_int, metavar="N", help="generate: how many puzzles")
    p.add_argument("--max-memory-mb", type=int, metavar="MB",
                   help="memory budget of the search tables (default 1024)")
    p.add_argument("--blank", action="store_true",
                   help="with --svg: draw the puzzle without its answer, for a player")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the spec from the arguments and solve it."""
    solve_and_print = args.tools.solve_and_print
    from cpwords.puzzles.loading import parse_spec

    data: dict[str, Any] = {"kind": "letter_boxed"}
    if args.sides:
        data["sides"] = list(args.sides)
    for field in ("task", "max_words", "min_word_length", "rank", "limit", "par", "puzzles", "max_memory_mb"):
        value = getattr(args, field)
        if value is not None:
            data[field] = value
    if getattr(args, "dict_option", None):  # the spec's letters are checked in the dictionary's alphabet
        data["dictionary"] = args.tools.dictionary_option(args.dict_option).model_dump(mode="json", exclude_defaults=True)
    spec = parse_spec(data, source="command line")
    return solve_and_print([spec], args)
