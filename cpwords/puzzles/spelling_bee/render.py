"""Drawing a Spelling Bee result: the hive, its words with scores and pangrams, and the ranks."""

from __future__ import annotations

import math
from html import escape
from typing import Any

from rich.console import Group
from rich.text import Text

from cpwords import display
from cpwords.wording import counted

#: Words drawn in a picture (the rest are counted).
WORDS_SHOWN = 60
#: Words listed on one line under each generated hive.
WORDS_LISTED = 30


def hive_text(letters: str) -> str:
    """The hive as five lines of text, laid out as in the picture (the outer letters clockwise
    from the top), the centre in brackets.

    >>> print(hive_text("ocanlpt"))
          C
      T       A
         [O]
      P       N
          L
    """
    c, o = letters[0].upper(), [ch.upper() for ch in letters[1:]]
    return "\n".join((f"      {o[0]}", f"  {o[5]}       {o[1]}", f"     [{c}]", f"  {o[4]}       {o[2]}",
                      f"      {o[3]}"))


def render(spec: Any, result: Any) -> Any:
    """A rich renderable of the result (plain text when piped)."""
    items: list[Any] = []
    if result.title:
        items.append(Text(display.safe(result.title), style="bold"))
    for i, s in enumerate(result.solutions):
        if spec.task == "generate":
            items.append(Text(f"hive {i + 1}: {s.letters.upper()} (centre {s.center.upper()})  ·  "
                              f"{counted(len(s.words), 'word')}, {counted(s.total, 'point')}, pangrams: {', '.join(s.pangrams)}",
                              style="bold"))
        items.append(Text(hive_text(s.letters)))
        if spec.task == "generate":
            shown = ", ".join(s.words[:WORDS_LISTED]) + (f" … (+{len(s.words) - WORDS_LISTED})"
                                                         if len(s.words) > WORDS_LISTED else "")
            items.append(Text(f"words: {shown}", style="dim"))
        else:
            rows = [(w + (" ★" if w in s.pangrams else ""), p) for w, p in zip(s.words, s.points, strict=True)]
            items.append(display.make_table(["word", "points"], rows, justify=["left", "right"], what="word",
                                            title=f"{counted(len(s.words), 'word')}, {counted(s.total, 'point')}"))
            items.append(display.make_table(["rank", "points"], list(s.ranks.items()), justify=["left", "right"]))
    if result.message:
        items.append(Text(result.message))
    items.append(Text(display.status_line(result), style="dim"))
    return Group(*items)


def most_pictures(spec: Any) -> int:
    """The most pictures :func:`svgs` draws for ``spec`` (its files are named before solving)."""
    return int(spec.puzzles) if spec.task == "generate" else 1


def svgs(spec: Any, result: Any, *, answer: bool = True) -> list[str]:
    """One picture a hive (``generate`` makes several)."""
    return [svg(spec, result, index=i, answer=answer) for i in range(len(result.solutions))]


def svg(spec: Any, result: Any, *, index: int = 0, answer: bool = True) -> str:
    """The hive (centre in yellow) and, with ``answer``, its words in columns, pangrams in bold."""
    s = result.solutions[index]
    r, gap = 42.0, 4.0
    cx, cy = 150.0, 150.0
    step = math.sqrt(3) * r + gap
    centres = [(cx, cy)] + [(cx + step * math.cos(math.radians(-90 + 60 * k)),
                             cy + step * math.sin(math.radians(-90 + 60 * k))) for k in range(6)]
    words = list(zip(s.words, s.points, strict=True)) if answer else []
    shown = words[:WORDS_SHOWN]
    per_col = 20
    cols = max(1, math.ceil(len(shown) / per_col)) if shown else 0
    width = 300 + cols * 150 + 20
    height = max(330, 60 + min(per_col, len(shown)) * 18 + 40)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif">',
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>']
    for k, ((x, y), ch) in enumerate(zip(centres, s.letters, strict=True)):
        pts = " ".join(f"{x + r * math.cos(math.radians(60 * j)):.1f},{y + r * math.sin(math.radians(60 * j)):.1f}"
                       for j in range(6))
        fill = "#f7da21" if k == 0 else "#e6e6e6"
        out.append(f'<polygon points="{pts}" fill="{fill}"/>')
        out.append(f'<text x="{x:.1f}" y="{y + 11:.1f}" font-size="32" font-weight="bold" '
                   f'text-anchor="middle">{escape(ch.upper())}</text>')
    caption = (f"{counted(len(s.words), 'word')} · {counted(s.total, 'point')} · "
               f"{counted(len(s.pangrams), 'pangram')}") if answer else "find words of 4+ letters with the centre"
    out.append(f'<text x="{cx:.0f}" y="{height - 16:.0f}" font-size="14" text-anchor="middle" '
               f'fill="#333">{escape(caption)}</text>')
    for i, (word, points) in enumerate(shown):
        x = 310 + (i // per_col) * 150
        y = 50 + (i % per_col) * 18
        weight = ' font-weight="bold"' if word in s.pangrams else ""
        out.append(f'<text x="{x}" y="{y}" font-size="14"{weight}>{escape(word)} '
                   f'<tspan fill="#777">{points}</tspan></text>')
    if len(words) > len(shown):
        out.append(f'<text x="310" y="{50 + per_col * 18 + 6}" font-size="13" fill="#777">'
                   f'… and {len(words) - len(shown)} more</text>')
    out.append("</svg>")
    return "\n".join(out)
