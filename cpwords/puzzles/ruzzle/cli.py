"""``cpwords ruzzle ROW ROW …``: the shortcut that builds a ``kind: ruzzle`` spec."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cpwords.errors import InputError
from cpwords.puzzles.ruzzle import KIND

if TYPE_CHECKING:
    from cpwords.puzzles import CommandTools

_BONUS = re.compile(r"(DL|TL|DW|TW):(\d+),(\d+)", re.IGNORECASE)


def add_parser(subparsers: argparse._SubParsersAction, parents: Sequence[argparse.ArgumentParser],
               tools: CommandTools) -> None:
    """Add the ``ruzzle`` command."""
    field_choices = tools.field_choices
    from cpwords.puzzles.ruzzle.spec import RuzzleSpec as Spec

    p = subparsers.add_parser(
        "ruzzle", parents=list(parents), help=KIND.command_help,
        description="Find every word on a board of letters (king moves, no cell twice). "
                    "Example: cpwords ruzzle ABCD EFGH IJKL MNOP --bonus TW:1,1 --bonus DL:2,3",
    )
    p.add_argument("rows", nargs="*", metavar="ROW",
                   help="one argument a row, top first; 'qu' is one tile; quote a row with spaces to "
                        "give multi-letter tiles ('a b th e'); none with --dice")
    p.add_argument("--dice", metavar="SET",
                   help="roll the board from letter dice by --seed: boggle-new (Boggle since 1987), "
                        "boggle-classic, big-boggle (5x5) or a dice .yaml file")
    p.add_argument("--boggle", action="store_true", help="Boggle scoring (by length; words of 3+ letters)")
    p.add_argument("--scoring", choices=field_choices(Spec, "scoring"), help="scoring rule (default ruzzle)")
    p.add_argument("--bonus", action="append", default=[], metavar="KIND:ROW,COL",
                   help="a bonus square, e.g. DL:1,2 (DL, TL, DW, TW; 1-based row and column); repeatable")
    p.add_argument("--bonuses", metavar="LAYOUT", help="a bonus layout: shipped name (ruzzle-4x4) or .yaml file")
    p.add_argument("--task", choices=field_choices(Spec, "task"), help="what to do (default words)")
    p.add_argument("--min-length", type=int, metavar="N", help="shortest word in letters (default 2, Boggle 3)")
    p.add_argument("--iterations", type=int, metavar="N", help="best_board: most boards a search scores (annealing: moves, default 1000)")
    p.add_argument("--search", choices=field_choices(Spec, "search"), help="best_board: climb (default) or anneal")
    p.add_argument("--pool", type=int, metavar="N", help="best_board climb: boards kept in the pool (default 100)")
    p.add_argument("--climbs", type=int, metavar="N", help="best_board climb: climbs (default: until the time limit)")
    p.add_argument("--target", type=int, metavar="POINTS", help="best_board: stop at a board worth this much")
    p.set_defaults(func=run, spec_options={"min_word_length": "--min-length"})  # for errors: the option typed


def build_spec(args: argparse.Namespace) -> Any:
    """The spec the command line describes (validated like a YAML file)."""
    from cpwords.puzzles.loading import parse_spec

    if args.boggle and args.scoring not in (None, "boggle"):
        raise InputError("--boggle contradicts --scoring", field="--scoring", value=args.scoring)
    if args.rows and args.dice:
        raise InputError("give the board's rows or --dice to roll one, not both", field="--dice", value=args.dice)
    if not args.rows and not args.dice:
        raise InputError("give the board's rows (one argument a row), or --dice to roll a board", field="ROW")
    data: dict[str, Any] = {"kind": "ruzzle", "grid": list(args.rows)} if args.rows else {"kind": "ruzzle"}
    if args.dice:
        data["dice"] = args.dice
        if getattr(args, "seed", None) is not None:  # the roll happens when the spec is read
            data["seed"] = args.seed
    if args.boggle or args.scoring:
        data["scoring"] = "boggle" if args.boggle else args.scoring
    if args.bonus and args.bonuses:
        raise InputError("give either --bonus squares or a --bonuses layout, not both", field="--bonus")
    if args.bonus:
        table: dict[str, list[list[int]]] = {}
        for text in args.bonus:
            match = _BONUS.fullmatch(text.strip())
            if not match:
                raise InputError("a bonus is KIND:ROW,COL with KIND one of DL, TL, DW, TW (e.g. DL:1,2)",
                                 field="--bonus", value=text)
            table.setdefault(match[1].upper(), []).append([int(match[2]), int(match[3])])
        data["bonuses"] = table
    elif args.bonuses:
        data["bonuses"] = args.bonuses
    for option, field in (("task", "task"), ("min_length", "min_word_length"), ("iterations", "iterations"),
                          ("search", "search"), ("pool", "pool"), ("climbs", "climbs"), ("target", "target")):
        if getattr(args, option) is not None:
            data[field] = getattr(args, option)
    if getattr(args, "dict_option", None):  # the spec's letters are checked in the dictionary's alphabet
        data["dictionary"] = args.tools.dictionary_option(args.dict_option).model_dump(mode="json", exclude_defaults=True)
    return parse_spec(data, source="command line")


def run(args: argparse.Namespace) -> int:
    """Build the spec, solve it and print the result."""
    solve_and_print = args.tools.solve_and_print

    return solve_and_print([build_spec(args)], args)
