"""Drawing a Ruzzle result: the board with its bonus squares, the words by score; SVG on request."""

from __future__ import annotations

from html import escape
from typing import Any

from rich.console import Group
from rich.text import Text

from cpwords import display

#: Terminal style and SVG fill of each bonus square.
BONUS_STYLE = {"DL": ("black on bright_cyan", "#9fd8f0"), "TL": ("white on blue", "#3a6fd8"),
               "DW": ("black on bright_magenta", "#f2a7d0"), "TW": ("white on red", "#d8413a")}
MAX_WORDS_SHOWN = 40


def _board_rows(spec: Any, result: Any) -> list[list[str]]:
    from cpwords.puzzles.ruzzle.board import parse_row

    grid = result.solutions[0].grid if result.solutions and result.solutions[0].grid else spec.grid
    return [parse_row(row) for row in grid]


def board_text(spec: Any, result: Any) -> Text:
    """The board, one row a line; bonus squares coloured on a terminal, marked ``(TL)`` when piped."""
    bonus = spec.bonus_cells() if spec.scoring == "ruzzle" else {}
    terminal = display.is_terminal()
    text = Text()
    for r, row in enumerate(_board_rows(spec, result), start=1):
        for c, tile in enumerate(row, start=1):
            name = bonus.get((r, c))
            label = tile.capitalize()
            if terminal:
                text.append(f" {label:^3}", style=BONUS_STYLE[name][0] if name else "bold")
            else:
                text.append(f" {label + ('(' + name + ')' if name else ''):<7}")
        text.append("\n")
    if bonus and terminal:
        text.append("bonus: ")
        for name, (style, _) in BONUS_STYLE.items():
            text.append(f" {name} ", style=style)
            text.append(" ")
        text.append("\n")
    return text


def render(spec: Any, result: Any) -> Any:
    """A rich renderable of the result."""
    items: list[Any] = []
    if result.title:
        items.append(Text(result.title, style="bold"))
    if result.task == "count_paths":
        by_length = result.stats.get("paths_by_length", {})
        rows = [(k, n) for k, n in by_length.items()] + [("2 or more", result.count)]
        items.append(display.make_table(["cells", "paths"], rows, justify=["right", "right"],
                                        title=f"Simple king paths on a {result.stats.get('rows')}x"
                                              f"{result.stats.get('cols')} board"))
    else:
        items.append(board_text(spec, result))
        shown = result.solutions[:MAX_WORDS_SHOWN]
        if shown:
            rows = [(s.word, s.score, " ".join(f"{r},{c}" for r, c in s.path)) for s in shown]
            items.append(display.make_table(["word", "score", "path (row,col)"], rows,
                                            justify=["left", "right", "left"]))
        if len(result.solutions) > len(shown):
            items.append(Text(f"… and {len(result.solutions) - len(shown):,} more words (--json lists all)"))
        if result.solutions and spec.scoring != "none":
            items.append(Text(f"{len(result.solutions):,} words, {result.objective:,} points ({spec.scoring})"))
    if result.message:
        items.append(Text(result.message))
    items.append(Text(display.status_line(result), style="dim"))
    return Group(*items)


def svg(spec: Any, result: Any) -> str:
    """The board as SVG: tiles, bonus squares, and the best word's path drawn over them."""
    tiles = _board_rows(spec, result)
    bonus = spec.bonus_cells() if spec.scoring == "ruzzle" else {}
    size, pad = 64, 16
    rows, cols = len(tiles), len(tiles[0])
    width, height = cols * size + 2 * pad, rows * size + 2 * pad + 28
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f'<rect width="{width}" height="{height}" fill="#f7f4ec"/>']
    for r, row in enumerate(tiles, start=1):
        for c, tile in enumerate(row, start=1):
            x, y = pad + (c - 1) * size, pad + (r - 1) * size
            name = bonus.get((r, c))
            fill = BONUS_STYLE[name][1] if name else "#ffffff"
            out.append(f'<rect x="{x + 3}" y="{y + 3}" width="{size - 6}" height="{size - 6}" rx="8" '
                       f'fill="{fill}" stroke="#555"/>')
            out.append(f'<text x="{x + size / 2}" y="{y + size / 2 + 10}" font-size="28" text-anchor="middle" '
                       f'font-weight="bold">{escape(tile.capitalize())}</text>')
            if name:
                out.append(f'<text x="{x + 9}" y="{y + 17}" font-size="11">{name}</text>')
    if result.solutions:
        best = result.solutions[0]
        points = " ".join(f"{pad + (c - 0.5) * size},{pad + (r - 0.5) * size}" for r, c in best.path)
        out.append(f'<polyline points="{points}" fill="none" stroke="#e07b00" stroke-width="6" '
                   'stroke-linecap="round" stroke-linejoin="round" opacity="0.7"/>')
        r, c = best.path[0]
        out.append(f'<circle cx="{pad + (c - 0.5) * size}" cy="{pad + (r - 0.5) * size}" r="8" fill="#e07b00"/>')
        caption = f"{best.word} ({best.score} points) · {len(result.solutions)} words"
        if spec.scoring != "none":
            caption += f", {result.objective} points"
        out.append(f'<text x="{pad}" y="{height - 12}" font-size="14">{escape(caption)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
