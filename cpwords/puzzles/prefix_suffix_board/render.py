"""Drawing boards: text at the board's coordinates in the terminal, and SVG."""

from __future__ import annotations

from html import escape
from typing import Any

from rich.console import Group
from rich.text import Text

from cpwords import display
from cpwords.geometry import Board, load_board
from cpwords.results import Result

CELL = 7  # characters per board column in text


def board_text(board: Board, tokens: dict[str, str]) -> str:
    """The board drawn in text: each slot at its [x, y] position, prefixes as ``pre-``, suffixes as ``-suf``.

    >>> from cpwords.geometry import parse_board
    >>> b = parse_board({"nodes": {"p": {"kind": "prefix", "at": [0, 0]}, "s": {"kind": "suffix", "at": [1, 0]}},
    ...                  "edges": [["p", "s"]]}, name="t", source="t")
    >>> board_text(b, {"p": "wat", "s": "er"}).strip()
    'wat-   -er'
    """
    xs = [x for x, _ in board.positions]
    ys = [y for _, y in board.positions]
    width = (max(xs) - min(xs) + 1) * CELL
    lines = [[" "] * width for _ in range(max(ys) - min(ys) + 1)]
    for name, kind, (x, y) in zip(board.nodes, board.kinds, board.positions, strict=True):
        label = tokens.get(name, "?")
        label = f"{label}-" if kind == "prefix" else f"-{label}"
        col = (x - min(xs)) * CELL
        row = max(ys) - y
        for k, ch in enumerate(label[:CELL - 1]):
            lines[row][col + k] = ch
    return "\n".join("".join(line).rstrip() for line in lines)


def render(spec: Any, result: Result) -> Any:
    """Boards drawn at their coordinates (with their words), counts, and the status line."""
    items: list[Any] = []
    if result.title:
        items.append(Text(display.safe(result.title), style="bold"))
    board = load_board(spec.board)
    shown, hidden = display.screenful(result.solutions, lines_each=len(board_text(board, {}).splitlines()) + 2)
    for i, sol in enumerate(shown):
        tokens = getattr(sol, "tokens", {})
        items.append(Text(f"board {i + 1}" if len(result.solutions) > 1 else "board", style="bold"))
        items.append(Text(board_text(board, tokens)))
        items.append(Text("words: " + " ".join(sol.words)))
        completions, difficulty = getattr(sol, "completions", None), getattr(sol, "difficulty", None)
        if completions is not None:
            facts = f"completions of the suffixes (modulo symmetry): {completions}"
            if difficulty is not None:
                facts += f" · {difficulty.level} ({difficulty.score:g})"
            items.append(Text(facts))
    if hidden:
        items.append(display.more_line(hidden, "boards"))
    if result.count is not None and result.task in ("count_boards", "count_suffix_sets"):
        what = "boards" if result.task == "count_boards" else "suffix placements admitting a board"
        rows = [(f"{what}, modulo symmetry", result.count),
                ("raw (every rotation and mirror counted)", result.stats.get("raw_count", "?")),
                ("symmetry group size", result.stats.get("group_size", "?"))]
        items.append(display.make_table(["", "count"], rows, title=f"{spec.dictionary.label()}, prefixes "
                                        f"{list(spec.prefix_length)}, suffixes {list(spec.suffix_length)}",
                                        justify=["left", "right"]))
    if result.message:
        items.append(Text(result.message))
    items.append(Text(display.status_line(result), style="dim"))
    return Group(*items)


def svgs(spec: Any, result: Result, *, answer: bool = True) -> list[str]:
    """The pictures to write, one file per board (``answer=False``: the player's view, with the
    suffixes shown and the prefixes left blank)."""
    return [svg(spec, result, index=i, answer=answer) for i in range(max(1, len(result.solutions)))]


def svg(spec: Any, result: Result, *, index: int = 0, answer: bool = True) -> str:
    """Board ``index`` of the result as SVG: slots at their coordinates, edges as lines; with
    ``answer=False`` the prefixes are left blank (``?-``) for a player."""
    board = load_board(spec.board)
    tokens = dict(getattr(result.solutions[index], "tokens", {})) if index < len(result.solutions) else {}
    if not answer:
        tokens = {name: ("?" if kind == "prefix" else tokens.get(name, ""))
                  for name, kind in zip(board.nodes, board.kinds, strict=True)}
    unit, pad = 90, 50
    xs = [x for x, _ in board.positions]
    ys = [y for _, y in board.positions]
    width = (max(xs) - min(xs)) * unit + 2 * pad
    height = (max(ys) - min(ys)) * unit + 2 * pad

    def at(i: int) -> tuple[float, float]:
        x, y = board.positions[i]
        return pad + (x - min(xs)) * unit, pad + (max(ys) - y) * unit

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="16">',
             f'<rect width="{width}" height="{height}" fill="white"/>']
    for a, b in board.edges:
        (x1, y1), (x2, y2) = at(a), at(b)
        parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#999" stroke-width="2"/>')
    for i, (name, kind) in enumerate(zip(board.nodes, board.kinds, strict=True)):
        x, y = at(i)
        fill = "#dbeafe" if kind == "prefix" else "#fde68a"
        label = tokens.get(name, "")
        label = f"{label}-" if kind == "prefix" else f"-{label}"
        parts.append(f'<g><title>{escape(name)}</title><rect x="{x - 32}" y="{y - 16}" width="64" height="32" '
                     f'rx="8" fill="{fill}" stroke="#333"/>'
                     f'<text x="{x}" y="{y + 6}" text-anchor="middle">{escape(label)}</text></g>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
