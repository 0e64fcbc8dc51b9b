"""Terminal output helpers: rich on a terminal, plain text when piped.

Every renderer builds its output with these, so that all kinds look alike and piped output
stays free of colour codes and box-drawing clutter.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

_console: Console | None = None


def console() -> Console:
    """The shared stdout console (colour and boxes only on a terminal)."""
    global _console
    if _console is None:
        _console = Console(highlight=False, soft_wrap=True)
    return _console


def is_terminal() -> bool:
    """True when stdout is an interactive terminal."""
    return console().is_terminal


def make_table(
    columns: Sequence[str], rows: Iterable[Sequence[Any]], *, title: str | None = None,
    justify: Sequence[str] | None = None,
) -> Table:
    """A table: boxed on a terminal, plain aligned columns when piped."""
    terminal = is_terminal()
    table = Table(
        title=title,
        box=box.SIMPLE_HEAVY if terminal else None,
        show_edge=terminal,
        pad_edge=False,
        header_style="bold" if terminal else "",
        title_justify="left",
    )
    for i, name in enumerate(columns):
        table.add_column(name, justify=(justify[i] if justify else "left"))  # type: ignore[arg-type]
    for row in rows:
        table.add_row(*(f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v) for v in row))
    return table


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
    from rich.text import Text

    items: list[Any] = []
    if result.title:
        items.append(Text(result.title, style="bold"))
    if result.solutions:
        items.append(make_table(["#", "words"], ((i + 1, " ".join(s.words)) for i, s in enumerate(result.solutions))))
    if result.message:
        items.append(Text(result.message))
    items.append(Text(status_line(result), style="dim"))
    return Group(*items)
