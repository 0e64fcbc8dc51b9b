"""``cpwords board``: the shortcut for prefix/suffix boards."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from cpwords.errors import InputError
from cpwords.puzzles.prefix_suffix_board import KIND

if TYPE_CHECKING:
    from cpwords.puzzles import CommandTools


def add_parser(subparsers: Any, parents: list[argparse.ArgumentParser], tools: CommandTools) -> None:
    """Add ``cpwords board`` to the command line."""
    positive_int = tools.positive_int

    p = subparsers.add_parser(
        "board", parents=parents, help=KIND.command_help,
        description="Prefix/suffix boards: every edge joins a prefix and a suffix into a word.",
    )
    p.add_argument("--board", default=None, help="board name or YAML file (default okwddm)")
    p.add_argument("--prefix-length", metavar="MIN-MAX", help="prefix token lengths, e.g. 2-4")
    p.add_argument("--suffix-length", metavar="MIN-MAX", help="suffix token lengths, e.g. 2-3")
    p.add_argument("--no-distinct-tokens", action="store_true", help="allow a token twice on a board")
    task = p.add_mutually_exclusive_group()
    task.add_argument("--count", action="store_true", help="count boards modulo symmetry")
    task.add_argument("--count-suffix-sets", action="store_true",
                      help="count suffix placements (modulo symmetry) that admit a board")
    task.add_argument("--generate", type=positive_int, metavar="N", help="draw N random boards (default: 1)")
    task.add_argument("--solve", metavar="SLOT=SUF,…", help="fill the prefixes for these suffixes, "
                      "e.g. s_n=er,s_e=ed,s_s=ing,s_w=ly")
    task.add_argument("--enumerate", type=positive_int, metavar="N", help="list N boards modulo symmetry")
    p.add_argument("--limit", type=int, help="most answers to list for --solve (default 10)")
    p.add_argument("--unique", action="store_true",
                   help="--generate: only boards whose suffixes have exactly one completion (modulo symmetry)")
    p.add_argument("--max-completions", type=int, metavar="K",
                   help="--generate: only boards whose suffixes have at most K completions (modulo symmetry)")
    p.add_argument("--blank", action="store_true",
                   help="with --svg: draw the puzzle without its answer, for a player")
    # spec fields filled from options of another name, for errors (the CLI blames the option typed)
    p.set_defaults(func=run, spec_options={"count": "--generate", "limit": ("--limit", "--enumerate")})


def parse_suffixes(text: str) -> dict[str, str]:
    """``s_n=er,s_e=ed`` -> {'s_n': 'er', 's_e': 'ed'}.

    >>> parse_suffixes("s_n=er, s_e=ed")
    {'s_n': 'er', 's_e': 'ed'}
    """
    out = {}
    for item in text.split(","):
        slot, eq, token = item.partition("=")
        if not eq or not slot.strip() or not token.strip():
            raise InputError("write suffixes as SLOT=SUFFIX pairs separated by commas", field="--solve",
                             value=text)
        out[slot.strip()] = token.strip()
    return out


def run(args: argparse.Namespace) -> int:
    """Build the spec from the options and solve it."""
    solve_and_print = args.tools.solve_and_print
    from cpwords.puzzles.loading import parse_spec

    data: dict[str, Any] = {"kind": "prefix_suffix_board"}
    if args.board:
        data["board"] = args.board
    for name in ("prefix_length", "suffix_length"):
        if getattr(args, name):
            data[name] = getattr(args, name)
    if args.no_distinct_tokens:
        data["distinct_tokens"] = False
    if args.count:
        data["task"] = "count_boards"
    elif args.count_suffix_sets:
        data["task"] = "count_suffix_sets"
    elif args.solve:
        data["task"] = "solve"
        data["suffixes"] = parse_suffixes(args.solve)
    elif args.enumerate is not None:
        data["task"] = "enumerate"
        data["limit"] = args.enumerate
    else:
        data["task"] = "generate"
        data["count"] = 1 if args.generate is None else args.generate
    if args.limit is not None:
        data["limit"] = args.limit
    if args.unique:
        data["unique"] = True
    if args.max_completions is not None:
        data["max_completions"] = args.max_completions
    if getattr(args, "dict_option", None):  # the spec's letters are checked in the dictionary's alphabet
        data["dictionary"] = args.tools.dictionary_option(args.dict_option).model_dump(mode="json", exclude_defaults=True)
    spec = parse_spec(data, source="command line")
    return solve_and_print([spec], args)
