"""Printing results without holding the output: streamed text, streamed JSON, ``--out FILE``,
and a closed pipe that ends the work.

A list of answers can be millions long. Piped, its rows go out as plain lines while they are
formatted (:class:`cpwords.display.PlainTable`); on a terminal a screenful is shown with the
number left out; ``--json`` writes one answer at a time (the same JSON ``json.dumps(...,
indent=2)`` of the whole model would give, without building it); ``--out FILE`` keeps everything
in a file. When the reader of a pipe goes away (``| head -1``), the run is stopped at once and the
command ends quietly with exit code 0, as ``head`` asked.
"""

from __future__ import annotations

import json
import os
import select
import stat
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any

from rich.console import Console, Group
from rich.text import Text

from cpwords import display, writer

#: The reason a run's budget is stopped with when stdout's reader has gone.
OUTPUT_CLOSED = "output_closed"


def emit(renderable: Any, file: IO[str] | None = None) -> None:
    """Print a kind's rendering: each part of a :class:`~rich.console.Group` in turn, a
    :class:`~cpwords.display.PlainTable` line by line (rich would first render every row), and
    piped text as it is (what rich writes for it, without rich's cost: ten thousand grids)."""
    if isinstance(renderable, Group):
        for part in renderable.renderables:
            emit(part, file)
        return
    console = display.console()
    out = file or console.file
    if isinstance(renderable, Text) and not console.is_terminal:
        out.write(renderable.plain + "\n")
        return
    if isinstance(renderable, (display.PlainTable, display.PlainLines)):
        batch: list[str] = []
        for line in renderable.lines():
            batch.append(line)
            if len(batch) >= 4096:
                out.write("\n".join(batch) + "\n")
                batch.clear()
        if batch:
            out.write("\n".join(batch) + "\n")
        return
    display.console().print(renderable)


class JsonWriter:
    """Writes results as ``json.dumps(payload, indent=2)`` would (one result: the object; a
    batch: a list), one answer at a time, as the results come; ``compact``: as
    ``json.dumps(payload, separators=(",", ":"))`` would (the server's answers).

    >>> import io
    >>> from cpwords.results import Result
    >>> out = io.StringIO()
    >>> with JsonWriter(out, batch=False) as w:
    ...     w.write(Result(kind="demo", status="optimal", engine="native"))
    >>> json.loads(out.getvalue())["status"]
    'optimal'
    """

    def __init__(self, file: IO[str], *, batch: bool, compact: bool = False) -> None:
        self.file, self.batch, self.written, self.compact = file, batch, 0, compact

    def __enter__(self) -> JsonWriter:
        if self.batch:
            self.file.write("[")
        return self

    def write(self, result: Any) -> None:
        """Write one result (after the ones before it); a plain mapping (a bad document's error
        in a batch) as it is."""
        if self.compact:
            self._compact(result)
            return
        indent = "  " if self.batch else ""
        if self.batch:
            self.file.write(",\n" if self.written else "\n")
            self.file.write(indent)
        if isinstance(result, dict):
            self.file.write(_indented(json.dumps(result, indent=2), indent))
            self.written += 1
            return
        fields = result.model_dump(mode="json", exclude={"solutions"})
        names = list(type(result).model_fields)
        self.file.write("{")
        for k, name in enumerate(names):
            self.file.write(",\n" if k else "\n")
            self.file.write(f'{indent}  {json.dumps(name)}: ')
            if name == "solutions":
                self._solutions(result.solutions, indent + "  ")
            else:
                self.file.write(_indented(json.dumps(fields[name], indent=2), indent + "  "))
        self.file.write(f"\n{indent}}}")
        self.written += 1

    def _compact(self, result: Any) -> None:
        if self.batch and self.written:
            self.file.write(",")
        self.written += 1
        if isinstance(result, dict):
            self.file.write(json.dumps(result, separators=(",", ":"), allow_nan=False))
            return
        fields = result.model_dump(mode="json", exclude={"solutions"})
        self.file.write("{")
        for k, name in enumerate(type(result).model_fields):
            self.file.write(f'{"," if k else ""}{json.dumps(name)}:')
            if name == "solutions":
                self.file.write("[")
                for j, solution in enumerate(result.solutions):
                    self.file.write(("," if j else "") + solution.model_dump_json())
                self.file.write("]")
            else:
                self.file.write(json.dumps(fields[name], separators=(",", ":"), allow_nan=False))
        self.file.write("}")

    def _solutions(self, solutions: Sequence[Any], indent: str) -> None:
        if not solutions:
            self.file.write("[]")
            return
        self.file.write("[")
        inner = indent + "  "
        for k, solution in enumerate(solutions):
            self.file.write(",\n" if k else "\n")
            self.file.write(inner + _indented(solution.model_dump_json(indent=2), inner))
        self.file.write(f"\n{indent}]")

    def __exit__(self, *exc: object) -> None:
        if self.batch:
            self.file.write("\n]" if self.written and not self.compact else "]")
        if not self.compact:
            self.file.write("\n")
        self.file.flush()


def _indented(text: str, indent: str) -> str:
    return text.replace("\n", "\n" + indent) if indent else text


class OutFile:
    """``--out FILE``: every result in full, JSON when FILE ends in ``.json``, else the text a
    pipe gets. Written through the one writer (:class:`cpwords.writer.NewFile`): into a fresh
    temporary beside FILE, renamed at the end, so that an interrupted run never leaves half a file
    under the name asked for, and a second run on the same FILE never shares this run's file."""

    def __init__(self, claim: writer.Claim, *, batch: bool) -> None:
        self.target, self.batch = claim.path, batch
        self.json = self.target.suffix.lower() == ".json"
        self.new = writer.NewFile(claim)  # closed in finish or abandon
        self.file: IO[str] = self.new.file
        self.console = Console(file=self.file, force_terminal=False, highlight=False, soft_wrap=True, width=200)
        self.writer = JsonWriter(self.file, batch=batch).__enter__() if self.json else None
        self.count = 0

    def add(self, kind: Any, spec: Any, result: Any) -> None:
        """Write one result."""
        if self.writer is not None:
            self.writer.write(result)
        else:
            with display.using_console(self.console):
                if self.count:
                    self.file.write("\n")
                emit(kind.render_module().render(spec, result), self.file)
        self.count += 1

    def add_error(self, error: Any, entry: dict[str, Any]) -> None:
        """Write a bad document's error in its place (``entry`` in JSON, its one line in text)."""
        if self.writer is not None:
            self.writer.write(entry)
        else:
            self.file.write(("\n" if self.count else "") + f"cpwords: error: {error.one_line()}\n")
        self.count += 1

    def finish(self) -> None:
        """Close the file and give it its name."""
        if self.writer is not None:
            self.writer.__exit__(None, None, None)
        self.new.commit()
        print(f"wrote {self.target}", file=sys.stderr)

    def abandon(self) -> None:
        """Close and remove the partial file (the run failed or was interrupted)."""
        self.new.discard()


@contextmanager
def stop_when_output_closed(budget: Any) -> Iterator[None]:
    """While inside, a watcher thread stops ``budget`` (reason :data:`OUTPUT_CLOSED`) as soon as
    stdout is a pipe whose reader has gone (``| head -1`` after its line): the work ends at
    once instead of running to its end for nobody. Only on POSIX, only for pipes."""
    try:
        fd = sys.stdout.fileno()
        piped = stat.S_ISFIFO(os.fstat(fd).st_mode)
    except (OSError, ValueError, AttributeError):
        piped = False
    if not piped or not hasattr(select, "poll"):
        yield
        return
    done = threading.Event()

    def watch() -> None:
        poller = select.poll()
        poller.register(fd, 0)  # only the events always reported: POLLERR, POLLHUP
        while not done.is_set():
            try:
                events = poller.poll(200)
            except OSError:
                return
            if any(ev & (select.POLLERR | select.POLLHUP) for _, ev in events):
                budget.stop(OUTPUT_CLOSED)
                return

    watcher = threading.Thread(target=watch, name="cpwords-stdout", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join(timeout=1.0)
