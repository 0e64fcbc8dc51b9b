"""Letter Boxed output: the box drawn in text, the answers, counts; SVG of the box and the answer."""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import escape

from rich.console import Group
from rich.text import Text

from cpwords import display


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


def render(spec: Any, result: Any) -> Any:
    """A rich renderable of a Letter Boxed result (plain text when piped)."""
    items: list[Any] = []
    if result.title:
        items.append(Text(result.title, style="bold"))
    if spec.task == "generate":
        for i, s in enumerate(result.solutions):
            items.append(Text(f"puzzle {i + 1}: {' '.join(x.upper() for x in s.sides or [])}"
                              f"  ·  {s.answers_at_par:,} answer(s) of {len(s.words)} words"))
            items.append(Text(box_text(s.sides or [])))
            items.append(Text("  e.g. " + " → ".join(w.upper() for w in s.words)))
    else:
        items.append(Text(box_text(spec.sides)))
        if spec.task == "min_words" and result.solutions:
            s = result.solutions[0]
            items.append(Text(" → ".join(w.upper() for w in s.words), style="bold"))
            items.append(Text(f"{len(s.words)} words, {s.letters} letters, rareness {s.rareness:,}"))
        elif result.solutions:
            rows = ((i + 1, " ".join(s.words), len(s.words), s.letters, s.rareness)
                    for i, s in enumerate(result.solutions))
            items.append(display.make_table(["#", "answer", "words", "letters", "rareness"], rows,
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


def svg(spec: Any, result: Any) -> str:
    """SVG drawing of the box and the first answer (each word in its own colour)."""
    solution = result.solutions[0] if result.solutions else None
    sides = (getattr(solution, "sides", None) or spec.sides) if solution else spec.sides
    size, margin = 300.0, 60.0
    full = size + 2 * margin
    pos = letter_positions(sides, size, margin)
    n = len(sides)
    cx = cy = margin + size / 2
    r = size / 2 / math.cos(math.pi / n)
    start = -math.pi / 2 - math.pi / n
    corners = " ".join(f"{cx + r * math.cos(start + 2 * math.pi * i / n):.1f},"
                       f"{cy + r * math.sin(start + 2 * math.pi * i / n):.1f}" for i in range(n))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{full:.0f}" height="{full + 40:.0f}" '
             f'viewBox="0 0 {full:.0f} {full + 40:.0f}" font-family="sans-serif">',
             '<rect width="100%" height="100%" fill="white"/>',
             f'<polygon points="{corners}" fill="none" stroke="black" stroke-width="3"/>']
    if solution:
        for k, word in enumerate(solution.words):
            points = " ".join(f"{pos[ch][0]:.1f},{pos[ch][1]:.1f}" for ch in word)
            parts.append(f'<polyline points="{points}" fill="none" stroke="{_COLOURS[k % len(_COLOURS)]}" '
                         'stroke-width="3" stroke-linejoin="round" opacity="0.8"/>')
    for ch, (x, y) in pos.items():
        dx, dy = x - cx, y - cy
        norm = math.hypot(dx, dy) or 1.0
        tx, ty = x + 24 * dx / norm, y + 24 * dy / norm
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="white" stroke="black" stroke-width="2"/>')
        parts.append(f'<text x="{tx:.1f}" y="{ty + 7:.1f}" font-size="22" text-anchor="middle">'
                     f'{escape(ch.upper())}</text>')
    if solution:
        caption = " → ".join(w.upper() for w in solution.words)
        parts.append(f'<text x="{full / 2:.0f}" y="{full + 25:.0f}" font-size="18" text-anchor="middle">'
                     f'{escape(caption)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
