"""Drawing word grids: in the terminal (black cells shaded) and as SVG."""

from __future__ import annotations

from html import escape
from typing import Any

from rich.console import Group
from rich.text import Text

from cpwords import display


def grid_text(rows: list[str], *, terminal: bool) -> Text:
    """A grid as text: letters upper-case; black cells shaded on a terminal, ``#`` when piped."""
    text = Text()
    for i, row in enumerate(rows):
        if i:
            text.append("\n")
        for j, ch in enumerate(row):
            if terminal:
                if ch == "#":
                    text.append("   ", style="on grey23")
                else:
                    text.append(f" {ch.upper()} ", style="bold black on white")
            else:
                text.append(("#" if ch == "#" else ch.upper()) + (" " if j < len(row) - 1 else ""))
    return text


def render(spec: Any, result: Any) -> Any:
    """The result's grids, their words, and the status line."""
    terminal = display.is_terminal()
    items: list[Any] = []
    if result.title:
        items.append(Text(result.title, style="bold"))
    if getattr(spec, "task", None) == "unscramble" and spec.scrambled:
        items.append(Text("scrambled:"))
        items.append(grid_text(spec.scrambled, terminal=terminal))
    for k, sol in enumerate(result.solutions):
        if k or items:
            items.append(Text(""))
        head = f"grid {k + 1}" if len(result.solutions) > 1 else "grid"
        extra = []
        if sol.rareness is not None:
            extra.append(f"rareness {sol.rareness}")
        if sol.swaps is not None:
            extra.append(f"{len(sol.swaps)} swaps")
        items.append(Text(head + (f" ({', '.join(extra)})" if extra else "") + ": " + " ".join(sol.words)))
        items.append(grid_text(sol.rows, terminal=terminal))
        if sol.swaps:
            items.append(Text("swaps: " + ", ".join(f"[{a[0]},{a[1]}]<->[{b[0]},{b[1]}]" for a, b in sol.swaps)))
    if result.stats.get("raw_count") is not None and result.count is not None:
        items.append(Text(f"grids modulo symmetry: {result.count:,}; all grids: {result.stats['raw_count']:,}"))
    if result.message:
        items.append(Text(result.message))
    items.append(Text(display.status_line(result), style="dim"))
    return Group(*items)


def svg(spec: Any, result: Any, cell: int = 40) -> str:
    """The result's grids as one SVG picture (grids side by side)."""
    sols = result.solutions
    if not sols:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"/>'
    h, w = len(sols[0].rows), len(sols[0].rows[0])
    gap = cell
    width = len(sols) * (w * cell) + (len(sols) - 1) * gap + 2
    height = h * cell + 2
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">']
    for k, sol in enumerate(sols):
        x0 = 1 + k * (w * cell + gap)
        for r, row in enumerate(sol.rows):
            for c, ch in enumerate(row):
                x, y = x0 + c * cell, 1 + r * cell
                fill = "#333" if ch == "#" else "#fff"
                out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#000"/>')
                if ch != "#":
                    out.append(f'<text x="{x + cell / 2}" y="{y + cell * 0.68}" font-size="{cell * 0.55:.0f}" '
                               f'text-anchor="middle">{escape(ch.upper())}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
