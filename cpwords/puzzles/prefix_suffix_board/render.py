"""Drawing boards: text at the board's coordinates in the terminal, and SVG."""

from __future__ import annotations

from collections.abc import Callable
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
    return board_drawer(board)(tokens)


def board_drawer(board: Board) -> Callable[[dict[str, str]], str]:
    """:func:`board_text` for many boards of one shape: the layout is worked out once (piped
    output draws tens of thousands of boards)."""
    xs = [x for x, _ in board.positions]
    ys = [y for _, y in board.positions]
    width = (max(xs) - min(xs) + 1) * CELL
    height = max(ys) - min(ys) + 1
    # each row's slots, left to right: (column, node name, label format)
    rows: list[list[tuple[int, str, str]]] = [[] for _ in range(height)]
    for name, kind, (x, y) in zip(board.nodes, board.kinds, board.positions, strict=True):
        rows[max(ys) - y].append(((x - min(xs)) * CELL, name, "{}-" if kind == "prefix" else "-{}"))
    for row in rows:
        row.sort()

    def draw(tokens: dict[str, str]) -> str:
        lines = []
        for row in rows:
            line = [" "] * width
            for col, name, form in row:
                label = form.format(tokens.get(name, "?"))[:CELL - 1]
                line[col:col + len(label)] = label
            lines.append("".join(line).rstrip())
        return "\n".join(lines)

    return draw


def render(spec: Any, result: Result) -> Any:
    """Boards drawn at their coordinates (with their words), counts, and the status line."""
    items: list[Any] = []
    if result.title:
        items.append(Text(display.safe(result.title), style="bold"))
    board = load_board(spec.board)
    draw = board_drawer(board)
    shown, hidden = display.screenful(result.solutions, lines_each=len(draw({}).splitlines()) + 2)
    if display.is_terminal():
        for i, sol in enumerate(shown):
            items.append(Text(_heading(i, result), style="bold"))
            items += [Text(line) for line in _board_lines(sol, draw)]
    else:  # piped: every board, as plain lines made while they are written
        items.append(display.PlainLines(line for i, sol in enumerate(shown)
                                        for line in (_heading(i, result), *_board_lines(sol, draw))))
    if hidden:
        items.append(display.more_line(hidden, "board"))
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


def _heading(i: int, result: Result) -> str:
    return f"board {i + 1}" if len(result.solutions) > 1 else "board"


def _board_lines(solution: Any, draw: Callable[[dict[str, str]], str]) -> list[str]:
    """A board's picture, its words and (generated boards) its completions and difficulty."""
    lines = [draw(getattr(solution, "tokens", {})), "words: " + " ".join(solution.words)]
    completions, difficulty = getattr(solution, "completions", None), getattr(solution, "difficulty", None)
    if completions is not None:
        facts = f"completions of the suffixes (modulo symmetry): {completions}"
        if difficulty is not None:
            facts += f" · {difficulty.level} ({difficulty.score:g})"
        lines.append(facts)
    return lines


def most_pictures(spec: Any) -> int:
    """The most pictures :func:`svgs` draws for ``spec`` (its files are named before solving):
    one a board."""
    if spec.task == "generate":
        return int(spec.count)
    if spec.task == "enumerate":
        return int(spec.limit) if spec.limit is not None else 10**9
    return 1


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
