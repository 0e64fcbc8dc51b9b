"""``cpwords ladder START TARGET``: the shortcut that builds a ladder spec from the command line;
``cpwords ladder --groups L``: the word groups (connected components) of one word length."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from cpwords.puzzles.ladder import KIND

if TYPE_CHECKING:
    from cpwords.puzzles import CommandTools


def add_parser(subparsers: Any, parents: list[argparse.ArgumentParser], tools: CommandTools) -> None:
    """Add the ``ladder`` command."""
    field_choices = tools.field_choices
    from cpwords.puzzles.ladder.spec import LadderSpec

    p = subparsers.add_parser(
        "ladder", parents=parents, help=KIND.command_help,
        description="Shortest ladder and least-rare (common words) ladder from START to TARGET; "
                    "with --groups L, the word groups of L-letter words instead.",
    )
    p.add_argument("start", metavar="START", nargs="?", help="first word")
    p.add_argument("target", metavar="TARGET", nargs="?", help="last word (same length)")
    p.add_argument("--mode", choices=field_choices(LadderSpec, "mode"), help="which ladder(s) to find (default both)")
    p.add_argument("--pick", dest="shortest_pick", choices=field_choices(LadderSpec, "shortest_pick"),
                   help="which shortest ladder to show: the least rare of them (default) or any, at random")
    p.add_argument("--all", dest="all_shortest", action="store_true",
                   help="list every shortest ladder (up to --limit) and count them")
    p.add_argument("--limit", type=int, metavar="N", help="list at most N ladders with --all (default 100)")
    p.add_argument("--define", action="store_true", help="show the definitions of the words")
    p.add_argument("--generate", type=int, metavar="N",
                   help="make N ladder puzzles (start and target) whose shortest ladder is exactly --par steps")
    p.add_argument("--par", type=int, metavar="P", help="--generate: steps of the shortest ladder (default 5)")
    p.add_argument("--length", type=int, metavar="L", help="--generate: letters of the words (default 4)")
    p.add_argument("--groups", type=int, metavar="L",
                   help="instead of a ladder: the word groups of L-letter words (sizes, largest groups)")
    p.set_defaults(func=run, spec_options={"count": "--generate"})


def run(args: argparse.Namespace) -> int:
    """Build the spec from the arguments and solve it (or report the groups)."""
    solve_and_print = args.tools.solve_and_print
    from cpwords.errors import InputError
    from cpwords.puzzles.loading import parse_spec

    if args.groups is not None:
        if args.start or args.target:
            raise InputError("give either START TARGET or --groups L, not both", field="--groups", value=args.groups)
        return _groups(args)
    data: dict[str, Any] = {"kind": "ladder"}
    if args.generate is not None:
        if args.target:
            raise InputError("--generate chooses the targets; give at most a START word", field="TARGET",
                             value=args.target)
        if args.mode is not None:  # the spec's mode is generate: another one would be ignored
            raise InputError("--generate makes puzzles; --mode is for a ladder from START to TARGET", field="--mode",
                             value=args.mode)
        data |= {"mode": "generate", "count": args.generate}
        if args.start:
            data["start"] = args.start
    else:
        for name in ("par", "length"):
            if getattr(args, name) is not None:
                raise InputError("only goes with --generate", field=f"--{name}", value=getattr(args, name))
        if not (args.start and args.target):
            raise InputError("give the two words: cpwords ladder START TARGET", field="START TARGET")
        data |= {"start": args.start, "target": args.target}
    # every option given goes into the spec, which refuses the ones its mode does not take
    for name in ("mode", "limit", "shortest_pick", "par", "length"):
        if getattr(args, name) is not None:
            data[name] = getattr(args, name)
    if args.all_shortest:
        data["all_shortest"] = True
    if args.define:
        data["define"] = True
    if getattr(args, "dict_option", None):  # the spec's letters are checked in the dictionary's alphabet
        data["dictionary"] = args.tools.dictionary_option(args.dict_option).model_dump(mode="json", exclude_defaults=True)
    spec = parse_spec(data, source="command line")
    return solve_and_print([spec], args)


def _groups(args: argparse.Namespace) -> int:
    import json

    ref_from_option = args.tools.dictionary_option
    from cpwords.puzzles.ladder.dictinfo import groups_data, groups_report

    ref = ref_from_option(args.dict_option)
    if args.json:
        print(json.dumps(groups_data(ref, args.groups), indent=2))
        return 0
    from cpwords.display import console

    for item in groups_report(ref, args.groups):
        console().print(item)
    return 0
