"""Letter Boxed output: the box drawn in text, the answers, counts; SVG of the box and the answer."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from rich.console import Group
from rich.text import Text

from cpwords import display
from cpwords.wording import counted

if TYPE_CHECKING:
    from cpwords.puzzles.letter_boxed.spec import LetterBoxedSpec


def box_text(sides: list[str]) -> str:
    """The box as text: four sides drawn as a square (top, right, bottom, left, clockwise);
    other shapes as one line per side.

    >>> print(box_text(["abc", "def", "ghi", "jkl"]))
          A   B   C
        +-----------+
      L |           | D
      K |           | E
      J |           | F
        +-----------+
          I   H   G
    """
    up = [s.upper() for s in sides]
    if len(up) != 4 or len({len(s) for s in up}) != 1:
        return "\n".join(f"side {i + 1}: {' '.join(s)}" for i, s in enumerate(up))
    k = len(up[0])
    width = 4 * k - 1
    top, right, bottom, left = up[0], up[1], up[2][::-1], up[3][::-1]
    lines = ["      " + "   ".join(top), "    +" + "-" * width + "+"]
    for i in range(k):
        lines.append(f"  {left[i]} |" + " " * width + f"| {right[i]}")
    lines += ["    +" + "-" * width + "+", "      " + "   ".join(bottom)]
    return "\n".join(lines)


def render(spec: LetterBoxedSpec, result: Any) -> Any:
    """A rich renderable of a Letter Boxed result (plain text when piped)."""
    items: list[Any] = []
    if result.title:
        items.append(Text(display.safe(result.title), style="bold"))
    if spec.task == "generate":
        for i, s in enumerate(result.solutions):
            items.append(Text(f"puzzle {i + 1}: {' '.join(x.upper() for x in s.sides or [])}"
                              f"  ·  {counted(s.answers_at_par, 'answer')} of {counted(len(s.words), 'word')}"))
            items.append(Text(box_text(s.sides or [])))
            items.append(Text("  e.g. " + " → ".join(w.upper() for w in s.words)))
    else:
        assert spec.sides is not None, "every task but generate has its box"
        items.append(Text(box_text(spec.sides)))
        if spec.task == "min_words" and result.solutions:
            s = result.solutions[0]
            items.append(Text(" → ".join(w.upper() for w in s.words), style="bold"))
            items.append(Text(f"{counted(len(s.words), 'word')}, {counted(s.letters, 'letter')}, "
                              f"rareness {s.rareness:,}"))
        elif result.solutions:
            rows = ((i + 1, " ".join(s.words), len(s.words), s.letters, s.rareness)
                    for i, s in enumerate(result.solutions))
            items.append(display.make_table(["#", "answer", "words", "letters", "rareness"], rows, what="answer",
                                            justify=["right", "left", "right", "right", "right"]))
        by_words = result.stats.get("count_by_words")
        if by_words:
            items.append(display.make_table(["words", "answers"], ((k, v) for k, v in by_words.items()),
                                            justify=["right", "right"]))
    if result.message:
        items.append(Text(result.message))
    items.append(Text(display.status_line(result), style="dim"))
    return Group(*items)


_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]


def letter_positions(sides: list[str], size: float = 300.0, margin: float = 60.0) -> dict[str, tuple[float, float]]:
    """Where each letter sits: sides of a regular polygon (a square for 4 sides), clockwise from the top."""
    n = len(sides)
    cx = cy = margin + size / 2
    r = size / 2 / math.cos(math.pi / n)
    start = -math.pi / 2 - math.pi / n
    corners = [(cx + r * math.cos(start + 2 * math.pi * i / n), cy + r * math.sin(start + 2 * math.pi * i / n))
               for i in range(n + 1)]
    out = {}
    for i, side in enumerate(sides):
        (x0, y0), (x1, y1) = corners[i], corners[i + 1]
        for j, ch in enumerate(side):
            t = (j + 1) / (len(side) + 1)
            out[ch] = (x0 + t * (x1 - x0), y0 + t * (y1 - y0))
    return out


def most_pictures(spec: LetterBoxedSpec) -> int:
    """The most pictures :func:`svgs` draws for ``spec`` (its files are named before solving)."""
    return int(spec.puzzles) if spec.task == "generate" else 1


def svgs(spec: LetterBoxedSpec, result: Any, *, answer: bool = True) -> list[str]:
    """The pictures to write, one file each: one per generated puzzle, else the box and its answer.
    ``answer=False`` draws the puzzles alone, for a player."""
    if spec.task == "generate":
        return [svg(spec, result, index=i, answer=answer) for i in range(len(result.solutions))]
    return [svg(spec, result, answer=answer)]


def svg(spec: LetterBoxedSpec, result: Any, *, index: int = 0, answer: bool = True) -> str:
    """SVG drawing of the box and answer ``index`` (the first by default): each word a coloured
    path with a numbered start dot on its first letter and arrowheads along it; ``answer=False``
    draws the box alone (for a generated puzzle: with its par, for a player)."""
    solution = result.solutions[index] if index < len(result.solutions) else None
    sides = (getattr(solution, "sides", None) or spec.sides) if solution else spec.sides
    assert sides is not None, "a box is drawn from the spec's sides or a generated puzzle's"
    size, margin = 300.0, 60.0
    full = size + 2 * margin
    pos = letter_positions(sides, size, margin)
    n = len(sides)
    cx = cy = margin + size / 2
    r = size / 2 / math.cos(math.pi / n)
    start = -math.pi / 2 - math.pi / n
    corners = " ".join(f"{cx + r * math.cos(start + 2 * math.pi * i / n):.1f},"
                       f"{cy + r * math.sin(start + 2 * math.pi * i / n):.1f}" for i in range(n))
    words = list(solution.words) if solution and answer else []
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{full:.0f}" height="{full + 40:.0f}" '
             f'viewBox="0 0 {full:.0f} {full + 40:.0f}" font-family="sans-serif">',
             '<rect width="100%" height="100%" fill="white"/>',
             f'<polygon points="{corners}" fill="none" stroke="black" stroke-width="3"/>']
    for k, word in enumerate(words):
        colour = _COLOURS[k % len(_COLOURS)]
        points = [pos[ch] for ch in word]
        line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="3" '
                     'stroke-linejoin="round" opacity="0.85"/>')
        parts += [_arrowhead(a, b, colour) for a, b in zip(points, points[1:], strict=False) if a != b]
    for ch, (x, y) in pos.items():
        dx, dy = x - cx, y - cy
        norm = math.hypot(dx, dy) or 1.0
        tx, ty = x + 24 * dx / norm, y + 24 * dy / norm
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="white" stroke="black" stroke-width="2"/>')
        parts.append(f'<text x="{tx:.1f}" y="{ty + 7:.1f}" font-size="22" text-anchor="middle">'
                     f'{escape(ch.upper())}</text>')
    for k, word in enumerate(words):  # start dots last: on top of every line
        x, y = pos[word[0]]
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="10" fill="{_COLOURS[k % len(_COLOURS)]}" '
                     f'stroke="white" stroke-width="1.5"/><text x="{x:.1f}" y="{y + 4.5:.1f}" font-size="12" '
                     f'font-weight="bold" fill="white" text-anchor="middle">{k + 1}</text>')
    caption = _caption(spec, solution, words)
    if caption:
        parts.append(f'<text x="{full / 2:.0f}" y="{full + 25:.0f}" font-size="18" text-anchor="middle">'
                     f'{caption}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _caption(spec: LetterBoxedSpec, solution: Any, words: list[str]) -> str:
    """The line under the box (SVG markup): the numbered words in their colours, or a player's par."""
    if words:
        return " → ".join(f'<tspan fill="{_COLOURS[k % len(_COLOURS)]}">{k + 1} {escape(w.upper())}</tspan>'
                          for k, w in enumerate(words))
    if solution is not None and spec.task == "generate":
        return escape(f"join every letter in {counted(len(solution.words), 'word')}")
    return ""


def _arrowhead(a: tuple[float, float], b: tuple[float, float], colour: str) -> str:
    """A small filled triangle at the middle of segment a→b, pointing towards b."""
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    mx, my = (x0 + x1) / 2 + 5 * ux, (y0 + y1) / 2 + 5 * uy
    tip = (mx, my)
    left = (mx - 11 * ux + 5 * uy, my - 11 * uy - 5 * ux)
    right = (mx - 11 * ux - 5 * uy, my - 11 * uy + 5 * ux)
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (tip, left, right))
    return f'<polygon points="{points}" fill="{colour}"/>'
