"""Drawing a Ruzzle result: the board with its bonus squares, the words by score; SVG on request."""

from __future__ import annotations

from html import escape
from typing import Any

from rich.console import Group
from rich.text import Text

from cpwords import display
from cpwords.wording import counted

#: Terminal style and SVG fill of each bonus square.
BONUS_STYLE = {"DL": ("black on bright_cyan", "#9fd8f0"), "TL": ("white on blue", "#3a6fd8"),
               "DW": ("black on bright_magenta", "#f2a7d0"), "TW": ("white on red", "#d8413a")}


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
        items.append(Text(display.safe(result.title), style="bold"))
    if result.task == "count_paths":
        by_length = result.stats.get("paths_by_length", {})
        rows = [(k, n) for k, n in by_length.items()] + [("2 or more", result.count)]
        items.append(display.make_table(["cells", "paths"], rows, justify=["right", "right"],
                                        title=f"Simple king paths on a {result.stats.get('rows')}x"
                                              f"{result.stats.get('cols')} board"))
    else:
        items.append(board_text(spec, result))
        if result.solutions:
            words = ((s.word, s.score, " ".join(f"{r},{c}" for r, c in s.path)) for s in result.solutions)
            items.append(display.make_table(["word", "score", "path (row,col)"], words, what="word",
                                            justify=["left", "right", "left"]))
        if result.solutions and spec.scoring != "none":
            items.append(Text(f"{counted(len(result.solutions), 'word')}, {counted(result.objective, 'point')} "
                              f"({spec.scoring})"))
    if result.message:
        items.append(Text(result.message))
    items.append(Text(display.status_line(result), style="dim"))
    return Group(*items)


#: Letter colour on each bonus fill (white on the dark ones, so that letters stay readable).
BONUS_INK = {"DL": "#000000", "TL": "#ffffff", "DW": "#000000", "TW": "#ffffff"}
PATH_COLOUR = "#e07b00"


def _text_width(text: str, font_size: float) -> float:
    """A generous estimate of a sans-serif line's width (no font metrics in an SVG writer)."""
    return 0.62 * font_size * len(text)


def svg(spec: Any, result: Any) -> str:
    """The board as SVG: tiles and bonus squares; for ``words`` and ``best_board`` the best word's
    path (under the letters, a ring on its first tile, the step number in each tile's corner)
    and a caption; for ``count_paths`` the number of paths by length beside the board."""
    tiles = _board_rows(spec, result)
    bonus = spec.bonus_cells() if spec.scoring == "ruzzle" else {}
    size, pad = 64, 16
    rows, cols = len(tiles), len(tiles[0])
    board_w, board_h = cols * size + 2 * pad, rows * size + 2 * pad
    if result.task == "count_paths":
        side, lines = _count_lines(result)
    else:
        side, lines = [], _caption_lines(spec, result)
    side_w = max((_text_width(t, 14) for t in side), default=0) + (pad if side else 0)
    width = round(max(board_w + side_w, max((_text_width(t, 14) for t in lines), default=0) + 2 * pad))
    height = max(board_h, pad + 20 * len(side)) + 20 * len(lines) + (8 if lines else 0)

    def centre(r: int, c: int) -> tuple[float, float]:
        return pad + (c - 0.5) * size, pad + (r - 0.5) * size

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f'<rect width="{width}" height="{height}" fill="#f7f4ec"/>', *_squares(tiles, bonus, size, pad)]
    best = result.solutions[0] if result.solutions and result.task != "count_paths" else None
    if best is not None and best.path:
        # The path goes under the letters: each letter stays readable, the first one too.
        out += _path_line([centre(r, c) for r, c in best.path], size)
    for r, row in enumerate(tiles, start=1):
        for c, tile in enumerate(row, start=1):
            cx, cy = centre(r, c)
            name = bonus.get((r, c))
            ink = BONUS_INK[name] if name else "#000000"
            halo = BONUS_STYLE[name][1] if name else "#ffffff"
            out.append(f'<text x="{cx}" y="{cy + 10}" font-size="28" text-anchor="middle" font-weight="bold" '
                       f'fill="{ink}" stroke="{halo}" stroke-width="4" paint-order="stroke">'
                       f'{escape(tile.capitalize())}</text>')
    if best is not None:
        for k, (r, c) in enumerate(best.path, start=1):
            x, y = pad + c * size - 9, pad + r * size - 8
            out.append(f'<circle cx="{x - 3}" cy="{y - 4}" r="8" fill="{PATH_COLOUR}"/>'
                       f'<text x="{x - 3}" y="{y}" font-size="11" text-anchor="middle" fill="#ffffff" '
                       f'font-weight="bold">{k}</text>')
    for k, text in enumerate(side):
        weight = "bold" if k == 0 else "normal"
        out.append(f'<text x="{board_w}" y="{pad + 14 + 20 * k}" font-size="14" font-weight="{weight}">'
                   f'{escape(text)}</text>')
    base = max(board_h, pad + 20 * len(side)) + 4
    for k, text in enumerate(lines):
        out.append(f'<text x="{pad}" y="{base + 16 + 20 * k}" font-size="14">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _squares(tiles: list[list[str]], bonus: dict[tuple[int, int], str], size: int, pad: int) -> list[str]:
    """The SVG of the board's squares, each filled with its bonus colour and named."""
    out = []
    for r, row in enumerate(tiles, start=1):
        for c, _tile in enumerate(row, start=1):
            x, y = pad + (c - 1) * size, pad + (r - 1) * size
            name = bonus.get((r, c))
            fill = BONUS_STYLE[name][1] if name else "#ffffff"
            out.append(f'<rect x="{x + 3}" y="{y + 3}" width="{size - 6}" height="{size - 6}" rx="8" '
                       f'fill="{fill}" stroke="#555"/>')
            if name:
                out.append(f'<text x="{x + 8}" y="{y + 16}" font-size="11" fill="{BONUS_INK[name]}">{name}</text>')
    return out


def _path_line(points: list[tuple[float, float]], size: int) -> list[str]:
    """The SVG of a path through the tile centres ``points``, with a ring on its first tile."""
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    (x0, y0) = points[0]
    return [f'<polyline points="{line}" fill="none" stroke="{PATH_COLOUR}" stroke-width="7" '
            'stroke-linecap="round" stroke-linejoin="round" opacity="0.45"/>',
            f'<circle cx="{x0}" cy="{y0}" r="{size / 2 - 8}" fill="none" stroke="{PATH_COLOUR}" '
            'stroke-width="4"/>']


def _caption_lines(spec: Any, result: Any) -> list[str]:
    """The caption under a board: the best word and its score, then the totals."""
    if not result.solutions:
        return []
    best = result.solutions[0]
    first = f"best: {best.word.upper()}" + (f", {counted(best.score, 'point')}" if spec.scoring != "none" else "")
    total = counted(len(result.solutions), "word") + (f", {counted(result.objective, 'point')} in all ({spec.scoring} scoring)"
                                                   if spec.scoring != "none" and result.objective is not None else "")
    return [first, total]


def _count_lines(result: Any) -> tuple[list[str], list[str]]:
    """Beside the board: paths by number of cells; under it: the total."""
    by_length = result.stats.get("paths_by_length", {})
    side = ["simple king paths", *(f"{k} cell{'' if str(k) == '1' else 's'}: {n:,}" for k, n in by_length.items())]
    exact = "" if result.count_exact is not False else " (at least)"
    total = [f"{counted(result.count, 'path')} of 2 or more cells{exact}"] if result.count is not None else []
    return side, total
