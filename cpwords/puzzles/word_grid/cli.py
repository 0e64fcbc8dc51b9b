"""``cpwords grid``: the shortcut for word grids.

    cpwords grid --shape gridle-5x5 --generate 3 --seed 7
    cpwords grid --count --dict {path}
    cpwords grid --fill partial.txt
    cpwords grid --unscramble scrambled.txt
    cpwords grid --puzzle 3 --par 10 --seed 7 --svg board.svg --blank
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cpwords.errors import InputError
from cpwords.puzzles.word_grid import KIND

if TYPE_CHECKING:
    from cpwords.puzzles import CommandTools


def _rows_file(name: str, field: str) -> list[str]:
    """Rows of a grid file: a text file (one row a line) or YAML (a list, or a mapping with ``rows``)."""
    from cpwords.files import read_text
    from cpwords.geometry import load_yaml_text

    path = Path(name)
    text = read_text(path, what="grid file", field=field)
    if path.suffix.lower() in (".yaml", ".yml"):
        data = load_yaml_text(text, str(path))
        if isinstance(data, dict):
            data = data.get("rows", data.get("given", data.get("scrambled")))
        if not (isinstance(data, list) and all(isinstance(r, str) for r in data)):
            raise InputError("the YAML file must hold a list of row strings (or 'rows: [...]')",
                             source=str(path), field=field)
        rows = data
    else:
        rows = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith(";")]
    if not rows:
        raise InputError("the grid file holds no rows", source=str(path), field=field)
    return rows


def add_parser(subparsers: Any, parents: list[argparse.ArgumentParser], tools: CommandTools) -> None:
    """Add ``cpwords grid``."""
    positive_int = tools.positive_int

    p = subparsers.add_parser("grid", parents=parents, help=KIND.command_help,
                              description="Crossing-word grids: generate, fill, count, enumerate or unscramble.")
    p.add_argument("--shape", default="gridle-5x5", help="shipped grid name or grid YAML file (default gridle-5x5)")
    task = p.add_mutually_exclusive_group()
    task.add_argument("--generate", type=positive_int, metavar="N", help="generate N different grids (default 1)")
    task.add_argument("--count", action="store_true", help="count all grids (modulo symmetry; raw count in stats)")
    task.add_argument("--enumerate", type=positive_int, metavar="LIMIT", help="list up to LIMIT grids")
    task.add_argument("--fill", metavar="FILE", help="complete the partial grid in FILE (rows; '?' unknown, '#' black)")
    task.add_argument("--unscramble", metavar="FILE", help="solve the scrambled grid in FILE with the fewest swaps")
    task.add_argument("--puzzle", type=int, metavar="N",
                      help="make N scrambled boards for players, each with a proven unique answer and par")
    p.add_argument("--par", type=int, metavar="P", help="--puzzle: the fewest swaps of each board (default 10 on 5x5, "
                                                         "20 on 7x7)")
    p.add_argument("--answer", metavar="FILE", help="--puzzle: letters the answer grid must have (rows; '?' "
                                                     "unknown, '#' black; a full grid makes puzzles of that grid)")
    p.add_argument("--blank", action="store_true", help="--puzzle with --svg: draw the player's board only")
    p.add_argument("--common", action="store_true", help="prefer common words (least total rareness)")
    p.add_argument("--repeat-words", action="store_true", help="allow a word more than once")
    # spec fields filled from options of another name, for errors (the CLI blames the option typed)
    p.set_defaults(func=run, spec_options={"count": ("--generate", "--puzzle"), "limit": "--enumerate"})


def run(args: argparse.Namespace) -> int:
    """Build the spec from the options and solve it."""
    solve_and_print = args.tools.solve_and_print
    from cpwords.puzzles.loading import parse_spec

    shape = args.shape
    if "/" in shape or shape.endswith((".yaml", ".yml")):
        shape = os.path.abspath(shape)  # not resolve(): a loop of links is the reader's to report
    data: dict[str, Any] = {"kind": "word_grid", "shape": shape, "distinct_words": not args.repeat_words,
                            "objective": "common" if args.common else "none"}
    if args.count:
        data["task"] = "count"
    elif args.enumerate is not None:
        data["task"], data["limit"] = "enumerate", args.enumerate
    elif args.fill:
        data["task"], data["given"] = "fill", _rows_file(args.fill, "--fill")
    elif args.unscramble:
        data["task"], data["scrambled"] = "unscramble", _rows_file(args.unscramble, "--unscramble")
    elif args.puzzle is not None:
        data["task"], data["count"] = "puzzle", args.puzzle
        if args.answer:
            data["given"] = _rows_file(args.answer, "--answer")
    else:
        data["task"], data["count"] = "generate", 1 if args.generate is None else args.generate
    for option, value in (("--par", args.par), ("--answer", args.answer)):
        if value is not None and data["task"] != "puzzle":
            raise InputError("only goes with --puzzle", field=option, value=value)
    if args.par is not None:
        data["par"] = args.par
    if getattr(args, "dict_option", None):  # the spec's letters are checked in the dictionary's alphabet
        data["dictionary"] = args.tools.dictionary_option(args.dict_option).model_dump(mode="json", exclude_defaults=True)
    try:
        return solve_and_print([parse_spec(data, source="command line")], args)
    except InputError as exc:
        # Fields filled from an option of another name, or from a file: blame what the user wrote.
        top = (exc.field or "").split(".")[0].split("[")[0]
        files = {"given": ("--fill", args.fill) if args.fill else ("--answer", args.answer),
                 "scrambled": ("--unscramble", args.unscramble)}
        if top in files and files[top][1]:
            flag, name = files[top]
            raise InputError(exc.message, source=name, field=flag) from None
        raise
