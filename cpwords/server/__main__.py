"""``python -m cpwords.server [options]``: the same as ``cpwords serve [options]``."""

from __future__ import annotations

import argparse
import sys

from cpwords.errors import InputError
from cpwords.server.cli import add_parser


def main(argv: list[str] | None = None) -> int:
    """Parse ``serve``'s options and run the server; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m cpwords.server")
    add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", *(sys.argv[1:] if argv is None else argv)])
    try:
        return int(args.func(args))
    except InputError as exc:
        print(f"cpwords serve: error: {exc.one_line()}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
