"""The ``cpwords`` command: argument parsing and :func:`main`; every command calls the API.

The sub-commands come from the registry (:mod:`cpwords.puzzles`): ``solve`` and ``schema`` for
every kind, one shortcut per kind (``cpwords ladder cold warm``), and ``dict``. Only the invoked
command's kind is loaded. Options every solving command shares (``--engine``, ``--dict``,
``--json``, ``--seed``, ``--time-limit``, ``--workers``, and ``--svg`` where the kind draws) are
defined once here, with choices read from the capability tables. What a command does once
parsed lives in the rooms of :mod:`cpwords.commands`: solving and printing, the output files,
Ctrl-C, and ``dict``.

Exit codes: 0 solved, 1 infeasible or no answer within the limit, 2 bad input (one line on
stderr, never a traceback), 130 interrupted (Ctrl-C or SIGTERM).
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cpwords import puzzles
from cpwords.commands import EXIT_INTERRUPTED
from cpwords.errors import InputError


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line and exits with code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


#: ``--exclude`` values: a list ``exclude`` may name, or ``none`` (``exclude: []``).
EXCLUDE_CHOICES = ("offensive", "none")


def common_options(kind: puzzles.PuzzleKind | None = None, *, draws: bool = True) -> _Parser:
    """Options of every solving command; ``kind`` narrows ``--engine`` to its engines."""
    engines = kind.engines if kind else tuple(dict.fromkeys(e for k in puzzles.kinds().values() for e in k.engines))
    p = _Parser(add_help=False)
    g = p.add_argument_group("solving")
    g.add_argument("--engine", choices=engines, help="engine (default: the task's default engine)")
    g.add_argument("--dict", dest="dict_option", metavar="NAME|FILE",
                   help="dictionary: a built-in name (scowl-70, common-10k …) or a word-list file")
    g.add_argument("--exclude", choices=EXCLUDE_CHOICES,
                   help="leave the offensive words out of the dictionary, or keep every word ('none'); "
                        "default: out where cpwords chooses the words, kept for a puzzle you typed")
    g.add_argument("--json", action="store_true", help="print the result model as JSON")
    g.add_argument("--seed", type=int, help="seed for random choices (same seed, same answer)")
    g.add_argument("--time-limit", type=float, metavar="S", help="stop after S seconds with the best so far")
    g.add_argument("--workers", type=int, metavar="N", help="local worker processes for work that runs in parallel (default: one per core, at most 8, for board and grid counts; else one)")
    g.add_argument("--cluster", metavar="ADDRESS|local[:N]",
                   help="solve in shards on a Dask scheduler (tcp://host:8786) or on a LocalCluster of N "
                        "workers started here (default: $CPWORDS_CLUSTER, else this machine's processes)")
    g.add_argument("--checkpoint", metavar="FILE",
                   help="keep every finished shard in this SQLite file; the same command resumes from it")
    if draws:
        g.add_argument("--svg", metavar="FILE", help="also draw the answer as SVG into FILE")
        g.add_argument("--force", action="store_true", help="allow --svg and --out to replace an existing file")
    else:
        g.add_argument("--force", action="store_true", help="allow --out to replace an existing file")
    g.add_argument("--out", metavar="FILE", help="also write every answer into FILE (JSON when it ends in .json, "
                                               "else text): a terminal shows a screenful")
    return p


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1 (``--generate 0`` makes no puzzle, so it is
    refused, as ``--puzzles 0`` is, rather than taken as the default)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid whole number: {text[:40]!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 (got {value})")
    return value


def field_choices(spec_class: type, name: str) -> list[str]:
    """The values a spec field's ``Literal`` type allows (``None`` left out): CLI choices are read
    from the spec types, never repeated by hand."""
    import typing

    def values(annotation: Any) -> list[str]:
        if typing.get_origin(annotation) is typing.Literal:
            return [str(v) for v in typing.get_args(annotation)]
        return [v for arg in typing.get_args(annotation) for v in values(arg)]

    return values(spec_class.model_fields[name].annotation)  # type: ignore[attr-defined]


def json_option() -> _Parser:
    """``--json`` alone, for commands that do not solve (``dict``)."""
    p = _Parser(add_help=False)
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    return p


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command-line grammar of ``command`` (only that sub-command's parts are loaded); without a
    known command, the overview: every command's name and line, for ``--help``, ``--version`` and
    a mistyped command (nothing a command needs is loaded then, so it starts fast)."""
    from cpwords.commands import SCHEMA_HELP, SOLVE_HELP

    parser, sub = _main_parser()
    known = {"solve", "schema", "dict", "serve"} | {k.command for k in puzzles.kinds().values()}
    if command not in known:
        return _overview(parser, sub)
    if command == "solve":
        p = sub.add_parser("solve", parents=[common_options()], help=SOLVE_HELP)
        p.add_argument("file", metavar="PUZZLE.yaml", help="puzzle file (several --- documents make a batch); - reads stdin")
        p.set_defaults(func=_cmd_solve)
    elif command == "schema":
        p = sub.add_parser("schema", parents=[json_option()], help=SCHEMA_HELP)
        p.add_argument("kind", nargs="?", choices=list(puzzles.kinds()), help="only this kind")
        p.set_defaults(func=_cmd_schema)
    elif command == "dict":
        from cpwords.commands.dictionary import add_parser as add_dict

        add_dict(sub, [json_option()])
    elif command == "serve":
        from cpwords.server.cli import add_parser as add_serve

        add_serve(sub)
    else:
        kind = puzzles.by_command(command)
        assert kind is not None and kind.cli
        kind.load(kind.cli)(sub, [common_options(kind, draws=kind.draws)], command_tools())
    return parser


def _main_parser() -> tuple[argparse.ArgumentParser, Any]:
    parser = _Parser(prog="cpwords", description="Constraint-programming solver suite for word puzzles.")
    parser.add_argument("--version", action="version", version=_version())
    return parser, parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)


def _overview(parser: argparse.ArgumentParser, sub: Any) -> argparse.ArgumentParser:
    """Every command by name with its line, in the order ``--help`` shows them."""
    from cpwords.commands import DICT_HELP, SCHEMA_HELP, SERVE_HELP, SOLVE_HELP

    lines = [("solve", SOLVE_HELP), ("schema", SCHEMA_HELP), ("dict", DICT_HELP), ("serve", SERVE_HELP)]
    lines += [(k.command, k.command_help) for k in puzzles.kinds().values() if k.cli]
    for name, line in lines:
        sub.add_parser(name, help=line, add_help=False)
    return parser


def command_tools() -> puzzles.CommandTools:
    """What every kind's shortcut command is handed (the kinds never import the CLI)."""
    from cpwords.commands.dictionary import ref_from_option

    return puzzles.CommandTools(solve_and_print=solve_and_print, field_choices=field_choices,
                                dictionary_option=ref_from_option, positive_int=positive_int)


def solve_and_print(specs: Sequence[Any], args: argparse.Namespace, inputs: Sequence[Path] = ()) -> int:
    """Solve the specs a command built and print their results; the exit code (see
    :func:`cpwords.commands.solving.solve_and_print`, loaded only when a command solves)."""
    from cpwords.commands.solving import solve_and_print

    return solve_and_print(specs, args, inputs)


def _version() -> str:
    from cpwords.version import __version__

    return f"cpwords {__version__}"


def _cmd_schema(args: argparse.Namespace) -> int:
    from cpwords.puzzles.loading import json_schema

    print(json.dumps(json_schema(args.kind), indent=2))
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    from cpwords.puzzles.loading import load_documents, loads_documents

    if args.file == "-":  # the puzzle on stdin; relative paths in it are read from the current folder
        from cpwords.files import read_stdin

        specs = loads_documents(read_stdin(), source="<stdin>", base_dir=Path.cwd())
        if len(specs) == 1 and isinstance(specs[0], InputError):
            raise specs[0]
        return solve_and_print(specs, args)
    specs = load_documents(args.file)
    if len(specs) == 1 and isinstance(specs[0], InputError):
        raise specs[0]
    return solve_and_print(specs, args, inputs=[Path(args.file)])


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """Warnings as one readable line on stderr (a deprecated field, skipped dictionary lines)."""
    print(f"cpwords: warning: {' '.join(str(message).split())}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cpwords`` command; returns the exit code.

    Every failure the user can act on ends as one line on stderr and its exit code (see the
    module's docstring), never a traceback.
    """
    import warnings

    warnings.showwarning = _show_warning
    argv = [_composed(a) for a in (sys.argv[1:] if argv is None else argv)]
    command = next((a for a in argv if not a.startswith("-")), None)
    if _closed_streams(command):
        return 2
    _escape_unencodable()
    if "cpwords.display" in sys.modules:  # a console an earlier command in this process left (quiet after a closed pipe)
        sys.modules["cpwords.display"].forget_console()
    try:
        parser = build_parser(command)
        return _run(parser, argv)
    except InputError as exc:
        if exc.source == "command line" and command is not None:
            exc = _blame_flag(exc, parser, command, argv)
        _tell(f"cpwords: error: {exc.one_line()}")
        return 2
    except KeyboardInterrupt:
        _tell("cpwords: interrupted")
        return EXIT_INTERRUPTED
    except (ValueError, RuntimeError, MemoryError, OSError) as exc:
        code = _failure_code(exc)
        if code is None:
            raise
        return code


def _run(parser: argparse.ArgumentParser, argv: list[str]) -> int:
    """Parse ``argv`` and run the command it names, noting the files it reads; the exit code."""
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # a usage mistake (already printed in one line) or --help
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    args.tools = command_tools()
    from cpwords.files import recording

    with recording():  # the files the command reads: its outputs never write over them
        code = int(args.func(args) or 0)
    sys.stdout.flush()
    return code


def _failure_code(exc: BaseException) -> int | None:
    """The exit code of a failure that is the user's input or the machine's (one line said on
    stderr), or None for a failure that is cpwords' own (its traceback is wanted)."""
    if isinstance(exc, (ValueError, RuntimeError)):
        # A file name the system cannot take (a NUL byte) or a loop of links, from a path check
        # that does not expect them: the user's input, one line.
        if "null byte" not in str(exc) and "Symlink loop" not in str(exc):
            return None
        print(f"cpwords: error: a file name the system cannot use: {' '.join(str(exc).split())[:200]}",
              file=sys.stderr)
        return 2
    if isinstance(exc, MemoryError):
        # The memory is given back by now: one line, not a traceback that may itself fail.
        print("cpwords: error: out of memory: this puzzle needs more memory than the process may use; "
              "make it smaller (shape, dictionary, limit) or give it a time limit", file=sys.stderr)
        return 2
    if isinstance(exc, BrokenPipeError):
        _quiet_stdout()
        return 0
    if isinstance(exc, OSError):
        # Files a user names are read through cpwords.files (InputError); an OSError without a
        # file name escaping here is the output failing (stdout on /dev/full, a closed pipe).
        if exc.errno in _OUTPUT_ERRNOS and getattr(exc, "filename", None) is None:
            _quiet_stdout()
            _tell(f"cpwords: error: cannot write the output: {exc.strerror}")
            return 2
        if getattr(exc, "filename", None) is not None:  # a name the system refuses (too long …)
            name = str(exc.filename)
            shown = name if len(name) <= 60 else name[:57] + "..."
            print(f"cpwords: error: {shown}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    return None


def _composed(arg: str) -> str:
    """A command-line word in Unicode NFC (``n`` + U+0303, as macOS keyboards type it, is ``ñ``):
    the CLI's one gate for typed text. A file that exists under the name as typed keeps it (a
    Linux file system tells the two spellings apart)."""
    import unicodedata

    if unicodedata.is_normalized("NFC", arg):
        return arg
    try:
        if os.path.lexists(arg):
            return arg
    except (OSError, ValueError):
        pass
    return unicodedata.normalize("NFC", arg)


def _tell(line: str) -> None:
    """One line on stderr; a stderr that cannot be written (``2>/dev/full``) changes nothing,
    above all not the exit code."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stderr.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass


def _closed_streams(command: str | None) -> bool:
    """With stderr closed, errors go nowhere (not into a traceback); with stdout closed there
    is nowhere to put an answer: one line and exit 2 before any work (``serve`` logs to stderr
    and runs on). True when the command must end."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")
    if sys.stdout is not None:
        return False
    sys.stdout = open(os.devnull, "w")
    if command == "serve":
        return False
    print("cpwords: error: cannot write the output: standard output is closed", file=sys.stderr)
    return True


def _escape_unencodable() -> None:
    """Text the output's encoding cannot hold (a title in another script on an ASCII or Latin-1
    terminal or pipe, a file name with bytes that are not UTF-8) is printed escaped (``\\xe9``),
    never a traceback that loses the answer."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            try:
                reconfigure(errors="backslashreplace")
            except (OSError, ValueError):  # a stream that cannot change now: left as it is
                pass


def _blame_flag(exc: InputError, parser: argparse.ArgumentParser, command: str, argv: list[str]) -> InputError:
    """An error in a spec a shortcut built from its flags, blamed on the flag the user typed
    (``--generate``), not on the spec field (``count``) they never wrote.

    A shortcut names the options that fill a field of another name in its parser's
    ``spec_options`` default (``{"count": "--generate"}``, or several options for one field:
    the one typed is blamed); any other field is blamed on the option of the same ``dest``."""
    field = (exc.field or "").split(".")[0].split("[")[0]
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    sub = subs[0].choices.get(command) if subs else None
    if not field or sub is None:
        return exc
    named = (sub.get_default("spec_options") or {}).get(field)
    flags = ([named] if isinstance(named, str) else list(named or ())) or [
        max(a.option_strings, key=len) for a in sub._actions if a.dest == field and a.option_strings]
    if not flags:
        return exc
    typed = [f for f in flags if any(a == f or a.startswith(f + "=") for a in argv)]
    return InputError(exc.message, field=(typed or flags)[0] + exc.field[len(field):],  # type: ignore[index]
                      value=exc.value)


_OUTPUT_ERRNOS = frozenset(getattr(errno, name) for name in ("ENOSPC", "EIO", "EFBIG", "EDQUOT", "EBADF", "EPIPE",
                                                              "EINVAL") if hasattr(errno, name))


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
