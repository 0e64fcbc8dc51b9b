"""``cpwords ladder START TARGET``: the shortcut that builds a ladder spec from the command line."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    """Add the ``ladder`` command."""
    p = subparsers.add_parser(
        "ladder", parents=parents, help="word ladder: change START into TARGET one letter at a time",
        description="Shortest ladder and least-rare (common words) ladder from START to TARGET.",
    )
    p.add_argument("start", metavar="START", help="first word")
    p.add_argument("target", metavar="TARGET", help="last word (same length)")
    p.add_argument("--dict", dest="dictionary", metavar="NAME",
                   help="dictionary: a built-in name (scowl-70, common-20k ...) or a word-list file (default scowl-70)")
    p.add_argument("--mode", choices=["shortest", "common", "both"], help="which ladder(s) to find (default both)")
    p.add_argument("--all", dest="all_shortest", action="store_true",
                   help="list every shortest ladder (up to --limit) and count them")
    p.add_argument("--limit", type=int, metavar="N", help="list at most N ladders with --all (default 100)")
    p.add_argument("--define", action="store_true", help="show the definitions of the words")
    p.set_defaults(func=run)


def dictionary_ref(value: str) -> dict[str, Any]:
    """A ``--dict`` value as a dictionary reference: a file when it names one, else a built-in name."""
    from pathlib import Path

    path = Path(value).expanduser()
    if path.exists() or "/" in value or path.suffix in (".txt", ".lst", ".dic"):
        return {"path": str(path)}
    return {"name": value}


def run(args: argparse.Namespace) -> int:
    """Build the spec from the arguments and solve it."""
    from cpwords.cli import solve_and_print
    from cpwords.specs import parse_spec

    data: dict[str, Any] = {"kind": "ladder", "start": args.start, "target": args.target}
    if args.dictionary:
        data["dictionary"] = dictionary_ref(args.dictionary)
    for name in ("mode", "limit"):
        if getattr(args, name) is not None:
            data[name] = getattr(args, name)
    if args.all_shortest:
        data["all_shortest"] = True
    if args.define:
        data["define"] = True
    spec = parse_spec(data, source="command line")
    return solve_and_print([spec], args)
