"""Drawing word grids: in the terminal (black cells shaded) and as SVG."""

from __future__ import annotations

from collections.abc import Iterator
from html import escape
from typing import Any

from rich.console import Group
from rich.text import Text

from cpwords import display
from cpwords.wording import counted

#: Cell colours of a puzzle board (``g`` green, ``y`` yellow, ``-`` grey): terminal styles, SVG fills.
_TERMINAL_COLOURS = {"g": "bold white on green4", "y": "bold black on gold1", "-": "bold white on grey50"}
_SVG_COLOURS = {"g": "#6fb05c", "y": "#e9ba3a", "-": "#d8d8d8"}


def grid_text(rows: list[str], *, terminal: bool, colors: list[str] | None = None) -> Text:
    """A grid as text: letters upper-case; black cells shaded on a terminal, ``#`` when piped.
    With a puzzle's ``colors`` the cells are coloured on a terminal; piped, the colour rows follow."""
    if not terminal:
        return Text("\n".join(grid_lines(rows, colors)))
    text = Text()
    for i, row in enumerate(rows):
        if i:
            text.append("\n")
        for j, ch in enumerate(row):
            if ch == "#":
                text.append("   ", style="on grey23")
            else:
                style = _TERMINAL_COLOURS.get(colors[i][j], "") if colors else ""
                text.append(f" {ch.upper()} ", style=style or "bold black on white")
    return text


def grid_lines(rows: list[str], colors: list[str] | None = None) -> list[str]:
    """A grid as piped lines: letters upper-case, black cells ``#``, a puzzle's colour row after its row.

    >>> grid_lines(["ab", "#c"], ["g-", "-y"])
    ['A B    g -', '# C    - y']
    """
    lines = [" ".join(row.upper()) for row in rows]
    if colors:
        lines = [line + "    " + " ".join(c) for line, c in zip(lines, colors, strict=True)]
    return lines


def render(spec: Any, result: Any) -> Any:
    """The result's grids, their words, and the status line."""
    terminal = display.is_terminal()
    items: list[Any] = []
    if result.title:
        items.append(Text(display.safe(result.title), style="bold"))
    if getattr(spec, "task", None) == "unscramble" and spec.scrambled:
        items.append(Text("scrambled:"))
        items.append(grid_text(spec.scrambled, terminal=terminal))
    shown, hidden = display.screenful(result.solutions, lines_each=len(result.solutions[0].rows) + 2
                                      if result.solutions else 1)
    if terminal:
        for k, sol in enumerate(shown):
            if k or items:
                items.append(Text(""))
            items.extend(_solution_text(sol, k, len(result.solutions)))
    else:  # piped: thousands of grids go out as plain lines, made as they are written
        first = not items
        items.append(display.PlainLines(line for k, sol in enumerate(shown)
                                        for line in _solution_lines(sol, k, len(result.solutions), first)))
    if hidden:
        items.append(display.more_line(hidden, "grid"))
    if result.stats.get("raw_count") is not None and result.count is not None:
        items.append(Text(f"grids modulo symmetry: {result.count:,}; all grids: {result.stats['raw_count']:,}"))
    if result.message:
        items.append(Text(result.message))
    items.append(Text(display.status_line(result), style="dim"))
    return Group(*items)


def _head(sol: Any, k: int, of: int) -> str:
    """The line over a grid: its number, rareness or swaps, and its words."""
    head = "answer" if sol.scrambled is not None else (f"grid {k + 1}" if of > 1 else "grid")
    extra = []
    if sol.rareness is not None:
        extra.append(f"rareness {sol.rareness}")
    if sol.swaps is not None:
        extra.append(counted(len(sol.swaps), "swap"))
    return head + (f" ({', '.join(extra)})" if extra else "") + ": " + " ".join(sol.words)


def _swaps_line(sol: Any) -> str:
    return "swaps: " + ", ".join(f"[{a[0]},{a[1]}]<->[{b[0]},{b[1]}]" for a, b in sol.swaps)


def _solution_text(sol: Any, k: int, of: int) -> list[Any]:
    """One answer on a terminal: a made puzzle's board, the head line, the grid, its swaps."""
    items: list[Any] = []
    if sol.scrambled is not None:
        items.extend(_puzzle_board(sol, k, of, terminal=True))
    items.append(Text(_head(sol, k, of)))
    items.append(grid_text(sol.rows, terminal=True))
    if sol.swaps:
        items.append(Text(_swaps_line(sol)))
    return items


def _solution_lines(sol: Any, k: int, of: int, first: bool) -> Iterator[str]:
    """One answer piped, as the terminal's lines without their colours (a blank line before it)."""
    if k or not first:
        yield ""
    if sol.scrambled is not None:
        yield from (t.plain for t in _puzzle_board(sol, k, of, terminal=False))
    yield _head(sol, k, of)
    yield from grid_lines(sol.rows)
    if sol.swaps:
        yield _swaps_line(sol)


def _puzzle_board(sol: Any, k: int, of: int, *, terminal: bool) -> list[Text]:
    """The player's board of a made puzzle: its par, difficulty and coloured cells."""
    head = f"puzzle {k + 1}" if of > 1 else "puzzle"
    d = sol.difficulty
    level = f", {d.level} ({d.score:g})" if d is not None else ""
    key = "" if terminal else " (colours: g green, y yellow, - grey)"
    return [Text(f"{head}: par {counted(sol.par, 'swap')}{level}{key}", style="bold"),
            grid_text(sol.scrambled, terminal=terminal, colors=sol.colors), Text("")]


#: Colours of the swaps in the unscramble picture (both cells of a swap share one).
_SWAP_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]


def most_pictures(spec: Any) -> int:
    """The most pictures :func:`svgs` draws for ``spec`` (its files are named before solving)."""
    return int(spec.count) if spec.task in ("puzzle", "generate") else 1


def svgs(spec: Any, result: Any, *, answer: bool = True) -> list[str]:
    """The pictures to write, one file each: one per generated grid, else one picture."""
    if spec.task == "puzzle":
        return [svg(spec, result, only=k, answer=answer) for k in range(max(1, len(result.solutions)))]
    if spec.task == "generate" and len(result.solutions) > 1:
        return [svg(spec, result, only=k) for k in range(len(result.solutions))]
    return [svg(spec, result)]


def svg(spec: Any, result: Any, cell: int = 40, *, only: int | None = None, answer: bool = True) -> str:
    """The result's grids as one SVG picture (grids side by side; ``only``: that grid alone). For
    ``unscramble``: the scrambled grid with its swaps marked (both cells of swap k carry the number
    k in one colour), an arrow, the solved grid, and the swaps listed under them. For ``puzzle``:
    the same with the board's colours; ``answer=False`` draws the player's coloured board alone."""
    sols = result.solutions if only is None else result.solutions[only : only + 1]
    if not sols:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"/>'
    colors = getattr(sols[0], "colors", None)
    scrambled = spec.scrambled if getattr(spec, "task", None) == "unscramble" and spec.scrambled else None
    if getattr(spec, "task", None) == "puzzle":
        scrambled = sols[0].scrambled
        if not answer:
            return _board_svg(sols[0].scrambled, colors, cell, f"par {counted(sols[0].par, 'swap')}")
    panels: list[tuple[list[str], dict[tuple[int, int], list[int]]]] = []
    if scrambled is not None:
        marks: dict[tuple[int, int], list[int]] = {}
        for k, (a, b) in enumerate(sols[0].swaps or [], start=1):
            for r, c in (a, b):
                marks.setdefault((r, c), []).append(k)
        panels = [(list(scrambled), marks), (sols[0].rows, {})]
    else:
        panels = [(sol.rows, {}) for sol in sols]
    h, w = len(panels[0][0]), len(panels[0][0][0])
    gap = cell * 1.5 if scrambled is not None else cell
    width = len(panels) * (w * cell) + (len(panels) - 1) * gap + 2
    caption = _swap_caption(sols[0].swaps) if scrambled is not None else ""
    top = 22 if scrambled is not None else 0  # a band naming the two grids
    height = top + h * cell + 2 + (34 if scrambled is not None else 0)
    width = max(width, 0.62 * 14 * len(caption) + 8)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height}" '
           f'viewBox="0 0 {width:.0f} {height}" font-family="sans-serif">',
           f'<rect width="{width:.0f}" height="{height}" fill="white"/>']
    for k, (rows, marks) in enumerate(panels):
        x0 = 1 + k * (w * cell + gap)
        if top:
            out.append(f'<text x="{x0 + w * cell / 2}" y="16" font-size="14" text-anchor="middle" fill="#444">'
                       f'{"scrambled" if k == 0 else "solved"}</text>')
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                x, y = x0 + c * cell, top + 1 + r * cell
                swaps = marks.get((r + 1, c + 1), [])
                fill = "#333" if ch == "#" else ("#fff3c4" if swaps else "#fff")
                if ch != "#" and k == 0 and colors is not None and scrambled is not None:
                    fill = _SVG_COLOURS.get(colors[r][c], fill)
                out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#000"/>')
                if ch != "#":
                    out.append(f'<text x="{x + cell / 2}" y="{y + cell * 0.68}" font-size="{cell * 0.55:.0f}" '
                               f'text-anchor="middle">{escape(ch.upper())}</text>')
                for j, number in enumerate(swaps):
                    colour = _SWAP_COLOURS[(number - 1) % len(_SWAP_COLOURS)]
                    out.append(f'<text x="{x + cell - 3 - 9 * j}" y="{y + 11}" font-size="10" font-weight="bold" '
                               f'text-anchor="end" fill="{colour}">{number}</text>')
        if scrambled is not None and k == 0:
            ax, ay = x0 + w * cell + gap / 2, top + 1 + h * cell / 2
            out.append(f'<text x="{ax}" y="{ay + 8}" font-size="{cell * 0.6:.0f}" text-anchor="middle">→</text>')
    if caption:
        out.append(f'<text x="4" y="{top + h * cell + 26}" font-size="14">{escape(caption)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _swap_caption(swaps: list[Any] | None) -> str:
    """The swaps in order, 1-based [row, col] cells, as one line."""
    if not swaps:
        return "already solved: no swap"
    return f"{len(swaps)} swap{'s' if len(swaps) != 1 else ''}: " + ", ".join(
        f"{k}: [{a[0]},{a[1]}]↔[{b[0]},{b[1]}]" for k, (a, b) in enumerate(swaps, start=1))


def _board_svg(rows: list[str], colors: list[str] | None, cell: int, caption: str) -> str:
    """A player's board: the scrambled letters on their colours, the par under it."""
    h, w = len(rows), len(rows[0])
    width, height = w * cell + 2, h * cell + 2 + 28
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            x, y = 1 + c * cell, 1 + r * cell
            if ch == "#":
                continue
            fill = _SVG_COLOURS.get(colors[r][c], "#fff") if colors else "#fff"
            out.append(f'<rect x="{x + 2}" y="{y + 2}" width="{cell - 4}" height="{cell - 4}" rx="5" fill="{fill}" '
                       f'stroke="#888"/>')
            out.append(f'<text x="{x + cell / 2}" y="{y + cell * 0.68}" font-size="{cell * 0.55:.0f}" '
                       f'font-weight="bold" text-anchor="middle">{escape(ch.upper())}</text>')
    out.append(f'<text x="4" y="{h * cell + 22}" font-size="14">{escape(caption)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
