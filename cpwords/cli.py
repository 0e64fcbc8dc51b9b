"""The ``cpwords`` command: argument parsing and printing only; every command calls the API.

The sub-commands come from the registry (:mod:`cpwords.puzzles`): ``solve`` and ``schema`` for
every kind, one shortcut per kind (``cpwords ladder cold warm``), and ``dict``. Only the invoked
command's kind is loaded. Options every solving command shares (``--engine``, ``--dict``,
``--json``, ``--seed``, ``--time-limit``, ``--workers``, and ``--svg`` where the kind draws) are
defined once here, with choices read from the capability tables.

Exit codes: 0 solved, 1 infeasible or no answer within the limit, 2 bad input (one line on
stderr, never a traceback), 130 interrupted (Ctrl-C or SIGTERM).
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cpwords import puzzles
from cpwords.engines.budget import Budget
from cpwords.errors import InputError

#: How the shared options are called on the command line, for error messages.
FLAG_LABELS = {"engine": "--engine", "seed": "--seed", "time_limit": "--time-limit", "workers": "--workers",
               "dictionary": "--dict", "cluster": "--cluster", "checkpoint": "--checkpoint"}

EXIT_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line and exits with code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


#: ``--exclude`` values: a list ``exclude`` may name, or ``none`` (``exclude: []``).
EXCLUDE_CHOICES = ("offensive", "none")


def _dictionary_option(spec: Any, dictionary: Any, exclude: str | None) -> Any:
    """The ``dictionary`` a spec gets from ``--dict`` and ``--exclude`` (None: the spec's own)."""
    if exclude is None:
        return dictionary
    ref = dictionary if dictionary is not None else getattr(spec, "dictionary", None)
    if ref is None:
        return None
    return ref.model_copy(update={"exclude": [] if exclude == "none" else [exclude]})


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
    g.add_argument("--workers", type=int, metavar="N", help="local worker processes for work that runs in parallel (default: one per core, at most 8)")
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
    """The command-line grammar; with ``command``, only that sub-command's kind is loaded."""
    parser = _Parser(prog="cpwords", description="Constraint-programming solver suite for word puzzles.")
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("solve", parents=[common_options()], help="solve the puzzle(s) of a YAML file")
    p.add_argument("file", metavar="PUZZLE.yaml", help="puzzle file (several --- documents make a batch); - reads stdin")
    p.set_defaults(func=_cmd_solve)

    p = sub.add_parser("schema", parents=[json_option()], help="print the JSON Schema of the puzzle specs")
    p.add_argument("kind", nargs="?", choices=list(puzzles.kinds()), help="only this kind")
    p.set_defaults(func=_cmd_schema)

    if command in ("dict", None) or command not in {"solve", "schema"} | {k.command for k in puzzles.kinds().values()}:
        from cpwords.commands.dictionary import add_parser as add_dict

        add_dict(sub, [json_option()])
    if command in ("serve", None) or command not in {"solve", "schema", "dict"} | {k.command for k in puzzles.kinds().values()}:
        from cpwords.server.cli import add_parser as add_serve

        add_serve(sub)
    chosen = puzzles.by_command(command) if command else None
    shortcuts = [chosen] if chosen else ([] if command in ("solve", "schema", "dict", "serve") else list(puzzles.kinds().values()))
    for kind in shortcuts:
        if kind.cli:
            kind.load(kind.cli)(sub, [common_options(kind, draws=kind.draws)], command_tools())
    return parser


def command_tools() -> puzzles.CommandTools:
    """What every kind's shortcut command is handed (the kinds never import the CLI)."""
    from cpwords.commands.dictionary import ref_from_option

    return puzzles.CommandTools(solve_and_print=solve_and_print, field_choices=field_choices,
                                dictionary_option=ref_from_option, positive_int=positive_int)


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


def solve_and_print(specs: Sequence[Any], args: argparse.Namespace, inputs: Sequence[Path] = ()) -> int:
    """Solve each spec, print the results (rich text or JSON), write SVG on request.

    Used by ``solve`` and by every kind's shortcut command. Returns the exit code.
    In a batch, a document that is bad (an :class:`InputError` among ``specs``, or one its solve
    raises) is reported in its place, with its file and line, and the others are solved: the
    exit code is then 2.
    """
    from cpwords import api, display, output
    from cpwords.engines.budget import no_progress
    from cpwords.options import Options
    from cpwords.route import together

    json_mode = getattr(args, "json", False)
    svg_name = _picture_option(args)
    dictionary = None
    if getattr(args, "dict_option", None):
        from cpwords.commands.dictionary import ref_from_option

        dictionary = ref_from_option(args.dict_option)
    options = Options(engine=getattr(args, "engine", None), seed=getattr(args, "seed", None),
                      time_limit=getattr(args, "time_limit", None), workers=getattr(args, "workers", None),
                      cluster=getattr(args, "cluster", None), checkpoint=getattr(args, "checkpoint", None),
                      labels=FLAG_LABELS)
    specs = [spec if isinstance(spec, InputError) else
             api.with_options(spec, labels=FLAG_LABELS, engine=options.engine, seed=options.seed,
                              time_limit=options.time_limit,
                              dictionary=_dictionary_option(spec, dictionary, getattr(args, "exclude", None)))
             for spec in specs]
    kinds = [None if isinstance(spec, InputError) else puzzles.get(spec.kind) for spec in specs]
    if svg_name:
        cannot = [k.name for k in kinds if k is not None and not k.draws]
        if cannot:
            raise InputError(f"{cannot[0]} answers cannot be drawn", field="--svg", value=svg_name)
    outputs = _claim_outputs(specs, kinds, args, inputs)
    svg_target = next((c for c in outputs.claims if c.option == "--svg"), None)
    out_target = next((c for c in outputs.claims if c.option == "--out"), None)
    # One deadline for the whole command: a batch's documents share --time-limit, each getting what
    # is left, and those the limit does not reach say so (a document's own time_limit still bounds it).
    command_limit = getattr(args, "time_limit", None)
    run = Budget(command_limit, progress=no_progress if json_mode else display.terminal_progress)
    results = []
    code = 0
    svg_errors: list[InputError] = []
    out_file = output.OutFile(out_target, batch=len(specs) > 1) if out_target is not None else None
    try:
        with stop_on_signals(run), output.stop_when_output_closed(run):
            stream = api.solve_stream(specs, options, budget=run)
            shards_shown = together([s for s in specs if not isinstance(s, InputError)], options)
            for i, (spec, kind, result) in enumerate(zip(specs, kinds, stream, strict=False)):  # a stop ends the stream
                if not isinstance(spec, InputError):
                    result = _after_solve(spec, result, run, args, batch=len(specs) > 1)
                if run.reason == output.OUTPUT_CLOSED:
                    break
                results.append(result)
                if isinstance(result, InputError) or kind is None:
                    code = 2
                    _show_error(result, json_mode=json_mode, out_file=out_file)
                    continue
                code = max(code, result.exit_code())
                _show(i, kind, spec, result, json_mode=json_mode, shards=shards_shown, out_file=out_file)
                if svg_target is not None and result.solved:
                    # A picture that cannot be written is reported after the results: never lost.
                    svg_errors += _write_pictures(kind, spec, result, svg_target, batch=(i + 1, len(specs)),
                                                  args=args, outputs=outputs)
        if run.reason == output.OUTPUT_CLOSED:
            raise BrokenPipeError  # ends quietly with exit code 0 (see main)
        if json_mode:
            with output.JsonWriter(sys.stdout, batch=len(specs) > 1) as writer:
                for result in results:
                    writer.write(_error_entry(result) if isinstance(result, InputError) else result)
        if out_file is not None and run.reason != "interrupted":
            finishing, out_file = out_file, None
            finishing.finish()
    finally:
        if out_file is not None:
            out_file.abandon()
    if run.reason == "interrupted":
        print("cpwords: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    if svg_errors:
        sys.stdout.flush()
        raise svg_errors[0]
    return code


def _picture_option(args: argparse.Namespace) -> str | None:
    """``--svg``'s file name, refused unless it ends in .svg; ``--blank`` needs it."""
    svg_name = getattr(args, "svg", None)
    if svg_name and not svg_name.lower().endswith(".svg"):
        raise InputError("the SVG output file must end in .svg", source=svg_name, field="--svg")
    if getattr(args, "blank", False) and svg_name is None:
        raise InputError("draws the puzzle without its answer into the --svg file: give --svg FILE too",
                         field="--blank")
    return svg_name


def _show(i: int, kind: puzzles.PuzzleKind, spec: Any, result: Any, *, json_mode: bool, shards: bool,
          out_file: Any) -> None:
    """One result into ``--out FILE`` and, unless ``--json``, onto stdout (streamed, see :mod:`cpwords.output`)."""
    from cpwords import display, output

    if out_file is not None:
        out_file.add(kind, spec, result)
    if json_mode:
        return
    if i:
        display.console().print()
    output.emit(kind.render_module().render(spec, result))
    if shards:  # asked for (a cluster, a checkpoint): the line says how the shards went
        display.console().print(_shards_line(result.stats), style="dim")


def _show_error(error: InputError, *, json_mode: bool, out_file: Any) -> None:
    """A bad document of a batch, in its place: one line on stderr (and in ``--out FILE``)."""
    if out_file is not None:
        out_file.add_error(error, _error_entry(error))
    if not json_mode:
        print(f"cpwords: error: {error.one_line()}", file=sys.stderr)


def _after_solve(spec: Any, result: Any, run: Budget, args: argparse.Namespace, *, batch: bool) -> Any:
    """One spec's result as the command shows it. An InputError its solve raised (a word not in the
    dictionary) is raised alone, and in a batch kept in the result's place, naming the document's
    file and line; a dictionary error is blamed on ``--dict`` when the dictionary came from there.
    One-time work the run went without goes on in the background."""
    if isinstance(result, InputError):
        exc = result
        named_here = exc.source in (None, "command line")  # not an error inside the word-list file
        if getattr(args, "dict_option", None) and named_here and (exc.field or "").split(".")[0] == "dictionary":
            exc = InputError(exc.message, field="--dict", value=args.dict_option)
        if not batch:
            raise exc
        return exc.located(source=spec.source, line=spec.line)
    if result.stats.get("build_stopped") and not run.stopped:
        _build_in_background(spec, result)
    elif result.stats.get("build_deferred") and not run.stopped:
        # one-time work this run went on without (a compiled search): done for the next run
        from cpwords import background

        pid = background.start(spec, result.stats["build_deferred"])
        if pid is not None:
            result.stats["background_build_pid"] = pid
    return result


def _build_in_background(spec: Any, result: Any) -> None:
    """The time limit ended a one-time build: finish it in a detached process, so that the next
    run finds it in the cache (:mod:`cpwords.background`), and say so."""
    from cpwords import background
    from cpwords.engines.budget import CAUSES

    pid = background.start(spec, result.stats["build_stopped"])
    if pid is not None:
        result.stats["background_build_pid"] = pid
        cause = CAUSES.get(result.stats.get("stopped", ""), "the run stopped")
        result.message = (f"{cause} while {result.stats['build_stopped']} was being built; the build goes on "
                          f"in the background (process {pid}) and is kept in the cache for the next run")


def _error_entry(exc: InputError) -> dict[str, Any]:
    """A bad document of a batch in ``--json`` output: its error in place of its result."""
    from cpwords.errors import _MISSING

    return {"status": "error", "error": exc.one_line(), "source": exc.source, "line": exc.line,
            "field": exc.field, "value": None if exc.value is _MISSING else repr(exc.value)}


def _shards_line(stats: dict[str, Any]) -> str:
    """One line on the shards of a sharded run: done/total, resumed, where they ran."""
    line = f"shards {stats.get('shards_done', 0)}/{stats.get('shards_total', 0)}"
    if stats.get("shards_resumed"):
        line += f" ({stats['shards_resumed']} from the checkpoint)"
    if stats.get("shards_split"):
        line += f", {stats['shards_split']} split"
    if stats.get("cluster"):
        line += f" · {stats['cluster']}"
    if stats.get("workers_note"):
        line += f" ({stats['workers_note']})"
    return line


def _write_pictures(kind: puzzles.PuzzleKind, spec: Any, result: Any, target: Any, *, batch: tuple[int, int],
                    args: argparse.Namespace, outputs: Any) -> list[InputError]:
    """Write a result's pictures (one file each: ``box.svg``, or ``box-1.svg``, ``box-2.svg`` … for
    several puzzles or a batch) through the one writer; returns the errors instead of raising them."""
    from cpwords import writer

    module = kind.render_module()
    answer = not getattr(args, "blank", False)
    pictures = module.svgs(spec, result, answer=answer) if hasattr(module, "svgs") else [module.svg(spec, result)]
    number, of = batch
    claims = []
    for j in range(1, len(pictures) + 1):
        tags = ([str(number)] if of > 1 else []) + ([str(j)] if len(pictures) > 1 else [])
        if not tags:
            claims.append(target)
            continue
        path = target.path.with_name(f"{target.path.stem}-{'-'.join(tags)}{target.path.suffix}")
        try:  # all of a result's pictures or none
            claims.append(outputs.claim(str(path), "--svg", parent=target))
        except InputError as exc:
            return [exc]
    errors = []
    for claim, picture in zip(claims, pictures, strict=True):
        try:
            writer.write_text(claim, picture)
        except InputError as exc:
            errors.append(exc)
        else:
            print(f"wrote {claim.path}", file=sys.stderr)
    return errors


#: Seconds a run has, after Ctrl-C or SIGTERM, to stop through its solvers' own interruption
#: before the process ends anyway (a solver deep in presolve can take seconds to notice).
STOP_GRACE_S = 1.0


@contextmanager
def stop_on_signals(budget: Budget) -> Iterator[None]:
    """While inside, Ctrl-C (SIGINT) and SIGTERM stop ``budget``: every solver of the run is told
    to stop through its own interruption and the command ends with exit code 130 and one line.

    The signal is seen by a watcher thread through ``signal.set_wakeup_fd``: a solver running in
    C++ holds the main thread, where Python signal handlers would wait until it returns. Each
    signal is counted once, there (the Python handler only keeps the default action away). If
    the run has not stopped :data:`STOP_GRACE_S` seconds after the first signal, or at a second
    one, the watcher ends the process itself: worker processes first (no orphans), then one line,
    exit 130.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    old_fd = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    backstop: list[threading.Timer] = []

    def handler(signum: int, frame: Any) -> None:
        budget.stop("interrupted")  # the watcher has done it already; harmless twice

    def watch() -> None:
        seen = 0
        while True:
            try:
                data = os.read(read_fd, 64)
            except OSError:
                return
            if not data:
                return
            seen += sum(1 for b in data if b in (signal.SIGINT, signal.SIGTERM))
            if not seen:
                continue
            budget.stop("interrupted")
            if seen > 1:
                _end_now()
            elif not backstop:
                timer = threading.Timer(STOP_GRACE_S, _end_now)
                timer.daemon = True
                backstop.append(timer)
                timer.start()

    watcher = threading.Thread(target=watch, name="cpwords-signals", daemon=True)
    watcher.start()
    for sig in previous:
        signal.signal(sig, handler)
    try:
        yield
    except Exception as exc:
        # PySAT's C code catches SIGINT itself and raises "Caught keyboard interrupt".
        if budget.reason == "interrupted" or "keyboard interrupt" in str(exc).lower():
            raise KeyboardInterrupt from None
        raise
    finally:
        for timer in backstop:
            timer.cancel()
        signal.set_wakeup_fd(old_fd)
        for sig, h in previous.items():
            signal.signal(sig, h)
        os.close(write_fd)  # the watcher reads end-of-file and returns
        watcher.join(timeout=1.0)
        os.close(read_fd)


def _end_now() -> None:
    """End the process at once after Ctrl-C: worker processes, one line, exit 130."""
    import multiprocessing

    from cpwords.engines.workers import kill_all

    try:
        sys.stderr.write("cpwords: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    # No thread switch from here on: a thread could start new workers in place of the killed
    # ones, and they would outlive us.
    sys.setswitchinterval(1e6)
    kill_all()
    for child in multiprocessing.active_children():
        try:
            child.kill()
        except (OSError, ValueError):
            pass
    os._exit(EXIT_INTERRUPTED)


def _claim_outputs(specs: Sequence[Any], kinds: Sequence[Any], args: argparse.Namespace,
                   inputs: Sequence[Path]) -> Any:
    """Every file the run writes (``--checkpoint``, ``--svg`` and the names derived from it,
    ``--out``), checked together by the one writer before anything is solved: never an input of
    the run (the puzzle file, every file a spec names, every file the command read), never two
    options on one file (see :class:`cpwords.writer.Outputs`)."""
    from cpwords import files, writer

    good = [spec for spec in specs if not isinstance(spec, InputError)]
    read = [*inputs, *files.recorded(), *(p for spec in good for p in files.named_in(spec))]
    outputs = writer.Outputs(force=getattr(args, "force", False), inputs=read)
    outputs.claim(getattr(args, "checkpoint", None), "--checkpoint", resumable=True)
    svg = getattr(args, "svg", None)
    if svg is not None:
        per = [_most_pictures(kind, spec) for spec, kind in zip(specs, kinds, strict=True) if kind is not None]
        outputs.claim(svg, "--svg", pictures=(len(specs), max(per, default=1)))
    outputs.claim(getattr(args, "out", None), "--out")
    return outputs


def _most_pictures(kind: Any, spec: Any) -> int:
    """The most pictures one result of ``spec`` is drawn as (``box.svg``, or ``box-1.svg`` …)."""
    module = kind.render_module()
    if not hasattr(module, "svgs"):
        return 1
    return int(module.most_pictures(spec)) if hasattr(module, "most_pictures") else 10**9


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """Warnings as one readable line on stderr (a deprecated field, skipped dictionary lines)."""
    print(f"cpwords: warning: {' '.join(str(message).split())}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cpwords`` command; returns the exit code."""
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
    except InputError as exc:
        if exc.source == "command line" and command is not None:
            exc = _blame_flag(exc, parser, command, argv)
        _tell(f"cpwords: error: {exc.one_line()}")
        return 2
    except KeyboardInterrupt:
        _tell("cpwords: interrupted")
        return EXIT_INTERRUPTED
    except (ValueError, RuntimeError) as exc:
        # A file name the system cannot take (a NUL byte) or a loop of links, from a path check
        # that does not expect them: the user's input, one line.
        if "null byte" not in str(exc) and "Symlink loop" not in str(exc):
            raise
        print(f"cpwords: error: a file name the system cannot use: {' '.join(str(exc).split())[:200]}",
              file=sys.stderr)
        return 2
    except MemoryError:
        # The memory is given back by now: one line, not a traceback that may itself fail.
        print("cpwords: error: out of memory: this puzzle needs more memory than the process may use; "
              "make it smaller (shape, dictionary, limit) or give it a time limit", file=sys.stderr)
        return 2
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except OSError as exc:
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
        raise


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
