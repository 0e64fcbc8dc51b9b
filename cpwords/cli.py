"""The ``cpwords`` command: argument parsing and printing only; every command calls the API.

Exit codes: 0 solved, 1 infeasible or no answer within the limit, 2 bad input (one line on
stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cpwords.errors import InputError

#: command name -> module that adds it with ``add_parser(subparsers, parents)``. Only the
#: invoked command's module is imported, so a ladder never pays for the other kinds.
COMMAND_MODULES = {
    "dict": "cpwords.lexicon.cli",
    "ladder": "cpwords.puzzles.ladder.cli",
    "letter-boxed": "cpwords.puzzles.letter_boxed.cli",
    "grid": "cpwords.puzzles.word_grid.cli",
    "board": "cpwords.puzzles.prefix_suffix_board.cli",
    "ruzzle": "cpwords.puzzles.ruzzle.cli",
}


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line and exits with code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def common_options() -> argparse.ArgumentParser:
    """Options every solving command takes (``solve`` and the kind shortcuts)."""
    p = argparse.ArgumentParser(add_help=False)
    g = p.add_argument_group("solving")
    g.add_argument("--engine", help="engine: cpsat, sat or native (what the kind supports)")
    g.add_argument("--json", action="store_true", help="print the result model as JSON")
    g.add_argument("--seed", type=int, help="seed for random choices (same seed, same answer)")
    g.add_argument("--time-limit", type=float, metavar="S", help="stop after S seconds with the best so far")
    g.add_argument("--workers", type=int, metavar="N", help="parallel workers (CP-SAT)")
    g.add_argument("--svg", metavar="FILE", help="also draw the answer as SVG into FILE (kinds that can)")
    g.add_argument("--force", action="store_true", help="allow --svg to replace an existing file")
    return p


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command-line grammar; with ``command``, only that sub-command's module is loaded."""
    parser = _Parser(prog="cpwords", description="Constraint-programming solver suite for word puzzles.")
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    common = common_options()

    p = sub.add_parser("solve", parents=[common], help="solve the puzzle(s) of a YAML file")
    p.add_argument("file", metavar="PUZZLE.yaml", help="puzzle file (several --- documents make a batch)")
    p.set_defaults(func=_cmd_solve)

    p = sub.add_parser("schema", help="print the JSON Schema of the puzzle specs")
    p.add_argument("kind", nargs="?", help="only this kind")
    p.set_defaults(func=_cmd_schema)

    if command in COMMAND_MODULES:
        wanted = [command]
    elif command in ("solve", "schema"):
        wanted = []
    else:  # help, or a mistyped command: list every command
        wanted = list(COMMAND_MODULES)
    for name in wanted:
        importlib.import_module(COMMAND_MODULES[name]).add_parser(sub, [common])
    return parser


def _version() -> str:
    from cpwords import __version__

    return f"cpwords {__version__}"


def _cmd_schema(args: argparse.Namespace) -> int:
    from cpwords.specs import json_schema

    print(json.dumps(json_schema(args.kind), indent=2))
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    from cpwords.specs import load_specs

    specs = load_specs(args.file)
    return solve_and_print(specs, args, inputs=[Path(args.file)])


def solve_and_print(specs: Sequence[Any], args: argparse.Namespace, inputs: Sequence[Path] = ()) -> int:
    """Solve each spec, print the results (rich text or JSON), write SVG on request.

    Used by ``solve`` and by every kind's shortcut command. Returns the exit code.
    """
    from cpwords import api, display

    json_mode = getattr(args, "json", False)
    display.set_progress(not json_mode)
    svg_target = _svg_target(args, inputs, len(specs))
    results = []
    code = 0
    for i, spec in enumerate(specs):
        result = api.solve(
            spec,
            engine=getattr(args, "engine", None),
            seed=getattr(args, "seed", None),
            time_limit=getattr(args, "time_limit", None),
            workers=getattr(args, "workers", None),
        )
        results.append(result)
        code = max(code, result.exit_code())
        module = api.kind_module(spec.kind)
        render = _render_module(module)
        if not json_mode:
            if i:
                display.console().print()
            renderable = render.render(spec, result) if render else display.render_generic(result)
            display.console().print(renderable)
        if svg_target is not None and result.solved:
            if render is None or not hasattr(render, "svg"):
                raise InputError(f"--svg is not available for {spec.kind}", field="--svg")
            target = svg_target if len(specs) == 1 else svg_target.with_name(
                f"{svg_target.stem}-{i + 1}{svg_target.suffix}")
            _write_new(target, render.svg(spec, result), force=args.force, inputs=inputs)
    if json_mode:
        payload = [r.model_dump(mode="json") for r in results]
        print(json.dumps(payload[0] if len(payload) == 1 else payload, indent=2))
    return code


def _render_module(module: Any) -> Any:
    try:
        return importlib.import_module(module.__name__ + ".render")
    except ModuleNotFoundError as exc:
        if exc.name != module.__name__ + ".render":
            raise
        return None


def _svg_target(args: argparse.Namespace, inputs: Sequence[Path], n: int) -> Path | None:
    name = getattr(args, "svg", None)
    if not name:
        return None
    target = Path(name)
    if target.suffix.lower() != ".svg":
        raise InputError("the SVG output file must end in .svg", field="--svg", value=name)
    return target


def _write_new(target: Path, text: str, *, force: bool, inputs: Sequence[Path]) -> None:
    """Write an output file, never over an input and never over an existing file without --force."""
    resolved = target.resolve()
    if any(resolved == p.resolve() for p in inputs):
        raise InputError("refusing to write over an input file", field="--svg", value=str(target))
    if target.exists() and not force:
        raise InputError("file exists; pass --force to replace it", field="--svg", value=str(target))
    if not target.parent.exists():
        raise InputError("folder does not exist", field="--svg", value=str(target))
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cpwords`` command; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(command)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        print(f"cpwords: error: {exc.one_line()}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cpwords: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
