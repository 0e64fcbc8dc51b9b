"""Solve the specs a command built and print their results: ``cpwords solve`` and every kind's
shortcut command (``args.tools.solve_and_print``) end here.

:func:`solve_and_print` checks the options and claims the output files before anything is
solved, then streams the results (:func:`cpwords.api.solve_stream`): rich text on a terminal or
JSON, ``--out FILE`` and the ``--svg`` pictures as they come.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from cpwords import puzzles
from cpwords.commands import EXIT_INTERRUPTED
from cpwords.commands.output_files import claim_outputs, picture_option, write_pictures
from cpwords.commands.signals import stop_on_signals
from cpwords.engines.budget import Budget
from cpwords.errors import InputError

#: How the shared options are called on the command line, for error messages.
FLAG_LABELS = {"engine": "--engine", "seed": "--seed", "time_limit": "--time-limit", "workers": "--workers",
               "dictionary": "--dict", "cluster": "--cluster", "checkpoint": "--checkpoint"}


def solve_and_print(specs: Sequence[Any], args: argparse.Namespace, inputs: Sequence[Path] = ()) -> int:
    """Solve each spec, print the results (rich text or JSON), write SVG on request.

    Used by ``solve`` and by every kind's shortcut command. Returns the exit code.
    In a batch, a document that is bad (an :class:`InputError` among ``specs``, or one its solve
    raises) is reported in its place, with its file and line, and the others are solved: the
    exit code is then 2.

    Raises
    ------
    InputError
        For an option a spec or the run refuses, or an output file that may not be written, before
        anything is solved; for a lone spec's solve; for a picture not written (after the results).
    """
    from cpwords import api, display
    from cpwords.engines.budget import no_progress
    from cpwords.options import Options

    json_mode = getattr(args, "json", False)
    svg_name = picture_option(args)
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
    outputs = claim_outputs(specs, kinds, args, inputs)
    # One deadline for the whole command: a batch's documents share --time-limit, each getting what
    # is left, and those the limit does not reach say so (a document's own time_limit still bounds it).
    command_limit = getattr(args, "time_limit", None)
    run = Budget(command_limit, progress=no_progress if json_mode else display.terminal_progress)
    return _solve_and_show(specs, kinds, options, run, args, outputs)


def _dictionary_option(spec: Any, dictionary: Any, exclude: str | None) -> Any:
    """The ``dictionary`` a spec gets from ``--dict`` and ``--exclude`` (None: the spec's own)."""
    if exclude is None:
        return dictionary
    ref = dictionary if dictionary is not None else getattr(spec, "dictionary", None)
    if ref is None:
        return None
    return ref.model_copy(update={"exclude": [] if exclude == "none" else [exclude]})


@dataclass
class _Shown:
    """What a run has shown so far: its results (printed at the end with ``--json``), its exit
    code, the pictures that could not be written, and the ``--out`` file being filled."""

    out_file: Any
    results: list[Any] = field(default_factory=list)
    code: int = 0
    svg_errors: list[InputError] = field(default_factory=list)


def _solve_and_show(specs: list[Any], kinds: list[Any], options: Any, run: Budget, args: argparse.Namespace,
                    outputs: Any) -> int:
    """Solve and show the checked specs under ``run``, which Ctrl-C and a closed output stop;
    finish ``--out`` and the JSON; returns the exit code."""
    from cpwords import output

    json_mode = getattr(args, "json", False)
    out_target = next((c for c in outputs.claims if c.option == "--out"), None)
    shown = _Shown(output.OutFile(out_target, batch=len(specs) > 1) if out_target is not None else None)
    try:
        with stop_on_signals(run), output.stop_when_output_closed(run):
            _solve_each(specs, kinds, options, run, args, outputs, shown)
        if run.reason == output.OUTPUT_CLOSED:
            raise BrokenPipeError  # ends quietly with exit code 0 (see main)
        if json_mode:
            with output.JsonWriter(sys.stdout, batch=len(specs) > 1) as writer:
                for result in shown.results:
                    writer.write(_error_entry(result) if isinstance(result, InputError) else result)
        if shown.out_file is not None and run.reason != "interrupted":
            finishing, shown.out_file = shown.out_file, None
            finishing.finish()
    finally:
        if shown.out_file is not None:
            shown.out_file.abandon()
    if run.reason == "interrupted":
        print("cpwords: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    if shown.svg_errors:
        sys.stdout.flush()
        raise shown.svg_errors[0]
    return shown.code


def _solve_each(specs: list[Any], kinds: list[Any], options: Any, run: Budget, args: argparse.Namespace,
                outputs: Any, shown: _Shown) -> None:
    """Each spec's result as it comes: shown (or its error), its pictures written."""
    from cpwords import api, output
    from cpwords.route import together

    json_mode = getattr(args, "json", False)
    svg_target = next((c for c in outputs.claims if c.option == "--svg"), None)
    stream = api.solve_stream(specs, options, budget=run)
    shards_shown = together([s for s in specs if not isinstance(s, InputError)], options)
    for i, (spec, kind, result) in enumerate(zip(specs, kinds, stream, strict=False)):  # a stop ends the stream
        if not isinstance(spec, InputError):
            result = _after_solve(spec, result, run, args, batch=len(specs) > 1)
        if run.reason == output.OUTPUT_CLOSED:
            break
        shown.results.append(result)
        if isinstance(result, InputError) or kind is None:
            shown.code = 2
            _show_error(cast(InputError, result), json_mode=json_mode, out_file=shown.out_file)
            continue
        shown.code = max(shown.code, result.exit_code())
        _show(i, kind, spec, result, json_mode=json_mode, shards=shards_shown, out_file=shown.out_file)
        if svg_target is not None and result.solved:
            # A picture that cannot be written is reported after the results: never lost.
            shown.svg_errors += write_pictures(kind, spec, result, svg_target, batch=(i + 1, len(specs)),
                                               args=args, outputs=outputs)


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
