"""Terminal output helpers: rich on a terminal, plain text when piped.

Every renderer builds its output with these, so that all kinds look alike and piped output
stays free of colour codes and box-drawing clutter.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cpwords.wording import plural

_console: Console | None = None


class _Console(Console):
    """rich's console, except that a closed pipe is an ordinary :class:`BrokenPipeError` (the
    command then ends quietly with exit code 0) where rich would exit with code 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


def console() -> Console:
    """The shared stdout console (colour and boxes only on a terminal)."""
    global _console
    if _console is None:
        _console = _Console(highlight=False, soft_wrap=True)
    return _console


def forget_console() -> None:
    """Drop the shared console, so that the next command makes its own (one that a closed pipe
    made quiet stays with the command it ended, when commands run in one process)."""
    global _console
    _console = None


def is_terminal() -> bool:
    """True when stdout is an interactive terminal."""
    return console().is_terminal


#: Rows a table shows on a terminal when the console cannot tell its height.
SCREEN_ROWS = 40
#: The hint printed under a list cut to a screenful.
ALL_HINT = "--json or --out FILE for all"


def screen_rows() -> int:
    """How many rows of a list fit on the terminal with the lines around them (at least 10)."""
    try:
        height = console().size.height
    except (OSError, ValueError):
        return SCREEN_ROWS
    return max(10, height - 12) if height else SCREEN_ROWS


def more_line(hidden: int, what: str = "") -> Text:
    """The line under a list cut to a screenful: ``… and 245,000 more (--json or --out FILE for all)``;
    ``what`` is the noun of one row.

    >>> more_line(245000, "answer").plain, more_line(1, "answer").plain
    ('… and 245,000 more answers (--json or --out FILE for all)', '… and 1 more answer (--json or --out FILE for all)')
    """
    return Text(f"… and {hidden:,} more{' ' + plural(hidden, what) if what else ''} ({ALL_HINT})", style="dim")


def screenful(items: Sequence[Any], lines_each: int = 1) -> tuple[Sequence[Any], int]:
    """The head of ``items`` to show and how many are left out: a screenful on a terminal
    (items of ``lines_each`` lines), everything when piped (piped output is for programs).

    >>> screenful(list(range(5)))
    ([0, 1, 2, 3, 4], 0)
    """
    if not is_terminal():
        return items, 0
    keep = max(1, screen_rows() // max(1, lines_each))
    return items[:keep], max(0, len(items) - keep)


def safe(text: str) -> str:
    r"""``text`` with control characters (ANSI escapes, carriage returns) shown escaped instead
    of reaching the terminal: a title or a word list is input, not terminal commands.

    >>> print(safe("red\x1b[31m"))
    red\x1b[31m
    """
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def make_table(
    columns: Sequence[str], rows: Iterable[Sequence[Any]], *, title: str | None = None,
    justify: Sequence[str] | None = None, what: str = "",
) -> Any:
    """A table: boxed on a terminal and cut to a screenful (with :func:`more_line` under it);
    piped, a :class:`PlainTable` of every row (aligned columns, streamed by
    :func:`cpwords.output.emit` without holding the rows). ``what`` names one row, for the more line.
    """
    aligns = (list(justify or []) + ["left"] * len(columns))[:len(columns)]
    if not is_terminal():
        return PlainTable(columns, rows, title=title, justify=aligns)
    table = Table(
        title=title,
        box=box.SIMPLE_HEAVY,
        show_edge=True,
        pad_edge=False,
        header_style="bold",
        title_justify="left",
    )
    for i, name in enumerate(columns):
        table.add_column(name, justify=aligns[i])  # type: ignore[arg-type]
    keep = screen_rows()
    hidden = 0
    for n, row in enumerate(rows):
        if n < keep:
            table.add_row(*(_cell(v) for v in row))
        else:
            hidden += 1
    if hidden:
        from rich.console import Group

        return Group(table, more_line(hidden, what))
    return table


def _cell(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


class PlainTable:
    """A table as plain aligned lines, for piped output: the column widths come from the first
    :attr:`MEASURED` rows, the rest are written as they come (a longer cell pushes its line
    wider), so that a million rows stream in bounded memory. Printable by rich as well.
    """

    MEASURED = 1000

    def __init__(self, columns: Sequence[str], rows: Iterable[Sequence[Any]], *, title: str | None,
                 justify: Sequence[str]) -> None:
        self.columns, self.rows, self.title, self.justify = list(columns), rows, title, list(justify)

    def lines(self) -> Iterator[str]:
        """The table's lines (without line ends): title, header, one line a row."""
        rows = iter(self.rows)
        head_raw = list(itertools.islice(rows, self.MEASURED))
        head = [[_cell(v) for v in row] for row in head_raw]
        widths = [max([len(c)] + [len(r[i]) for r in head]) for i, c in enumerate(self.columns)]
        if self.title:
            yield self.title
        if any(self.columns):
            yield self._line(self.columns, widths)
        for row in head:
            yield self._line(row, widths)
        if "center" in self.justify:
            for raw in rows:
                yield self._line([_cell(v) for v in raw], widths)
            return
        # One format for every other row (what _line does, in one call: millions of rows); a
        # column of numbers formats its numbers itself, and a row it cannot take goes cell by cell.
        numbers = [bool(head) and all(type(r[i]) is int for r in head_raw) for i in range(len(widths))]
        counted = [i for i, n in enumerate(numbers) if n]
        line = "  ".join(f"{{{'' if n else '!s'}:{'>' if j == 'right' else '<'}{w}{',' if n else ''}}}"
                         for w, j, n in zip(widths, self.justify, numbers, strict=True))
        for raw in rows:
            if len(raw) == len(numbers) and all(type(raw[i]) is int for i in counted):
                yield line.format(*raw).rstrip()
            else:
                yield self._line([_cell(v) for v in raw], widths)

    def _line(self, cells: Sequence[str], widths: Sequence[int]) -> str:
        return "  ".join(c.rjust(w) if j == "right" else c.center(w) if j == "center" else c.ljust(w)
                         for c, w, j in zip(cells, widths, self.justify, strict=True)).rstrip()

    def __rich_console__(self, console: Console, options: Any) -> Iterator[Any]:
        for line in self.lines():
            yield Text(line)


class PlainLines:
    """Lines of plain text made as they are printed (piped output of thousands of answers drawn
    in several lines each): :func:`cpwords.output.emit` writes them in batches, without building
    a rich object a line. Printable by rich as well.
    """

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = lines

    def lines(self) -> Iterator[str]:
        """The lines, without line ends."""
        yield from self._lines

    def __rich_console__(self, console: Console, options: Any) -> Iterator[Any]:
        for line in self.lines():
            yield Text(line)


@contextmanager
def terminal_progress(description: str, total: int | None = None) -> Iterator[Callable[[int], None]]:
    """A :class:`~cpwords.engines.budget.Progress` for the terminal: yields ``advance(n)`` and
    shows a progress bar on stderr, only when stderr is an interactive terminal.

    >>> with terminal_progress("counting", total=10) as advance:
    ...     advance(10)
    """
    if not sys.stderr.isatty():
        yield _ignore
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(stderr=True), transient=True,
    ) as bar:
        task = bar.add_task(description, total=total)

        def advance(n: int = 1) -> None:
            bar.advance(task, n)

        yield advance


def _ignore(n: int = 1) -> None:
    return None


def status_line(result: Any) -> str:
    """One line saying how a solve ended, for the foot of every rendering."""
    parts = [f"{result.status.value}", f"engine {result.engine}"]
    if result.task:
        parts.insert(0, result.task)
    if result.count is not None:
        parts.append(f"count {result.count:,}" + ("" if result.count_exact in (None, True) else " (at least)"))
    if result.objective is not None:
        obj = result.objective
        parts.append(f"objective {int(obj) if float(obj).is_integer() else obj}")
    wall = result.stats.get("wall_s")
    if wall is not None:
        parts.append(f"{wall:.3f} s")
    return " · ".join(parts)


def render_generic(result: Any) -> Any:
    """Fallback rendering: the words of each solution, the count and the status."""
    from rich.console import Group

    items: list[Any] = []
    if result.title:
        items.append(Text(safe(result.title), style="bold"))
    if result.solutions:
        items.append(make_table(["#", "words"], ((i + 1, " ".join(s.words)) for i, s in enumerate(result.solutions))))
    if result.message:
        items.append(Text(result.message))
    items.append(Text(status_line(result), style="dim"))
    return Group(*items)


@contextmanager
def using_console(other: Console) -> Iterator[None]:
    """Render through ``other`` while inside (``--out FILE`` gets the text a pipe gets)."""
    global _console
    saved = console()
    _console = other
    try:
        yield
    finally:
        _console = saved
