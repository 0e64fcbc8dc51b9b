"""Text rendering of ladders: one word a line, the changed letter highlighted, rareness, definition."""

from __future__ import annotations

from typing import Any

from cpwords import display
from cpwords.wording import counted


def marked(previous: str | None, word: str, *, terminal: bool) -> str:
    """``word`` with the letter changed from ``previous`` in capitals (and bold on a terminal).

    >>> marked("cold", "cord", terminal=False)
    'coRd'
    """
    if previous is None:
        return word
    out = []
    for a, b in zip(previous, word, strict=True):
        if a == b:
            out.append(b)
        else:
            out.append(f"[bold magenta]{b.upper()}[/]" if terminal else b.upper())
    return "".join(out)


def ladder_table(solution: Any, *, terminal: bool) -> Any:
    """The table of one ladder: step, word, rareness (and the first definition when known)."""
    defs = solution.definitions
    columns = ["step", "word", "rareness"] + (["definition"] if defs is not None else [])
    rows = []
    for i, word in enumerate(solution.words):
        row: list[Any] = [i, marked(solution.words[i - 1] if i else None, word, terminal=terminal),
                          solution.word_rareness[i] if i else f"({solution.word_rareness[0]:,})"]
        if defs is not None:
            row.append(defs[i][0] if defs[i] else "-")
        rows.append(row)
    title = (f"{solution.mode} ladder: {solution.steps} step{'s' if solution.steps != 1 else ''}, "
             f"rareness {solution.rareness:,}")
    return display.make_table(columns, rows, title=title, justify=["right", "left", "right", "left"])


def ladder_list(solutions: list[Any], *, title: str, terminal: bool) -> Any:
    """Many ladders, one a line, with their total rareness."""
    rows = ([i + 1, " ".join(marked(s.words[k - 1] if k else None, w, terminal=terminal) for k, w in enumerate(s.words)),
             s.rareness] for i, s in enumerate(solutions))
    return display.make_table(["#", "ladder", "rareness"], rows, title=title, justify=["right", "left", "right"],
                              what="ladder")


def render(spec: Any, result: Any) -> Any:
    """The result as rich renderables: each ladder as a table, the group, the status line."""
    from rich.console import Group
    from rich.text import Text

    terminal = display.is_terminal()
    items: list[Any] = []
    if result.title:
        items.append(Text(display.safe(result.title), style="bold"))
    if spec.mode == "generate":
        items.append(Text(f"ladder puzzles of {spec.length}-letter words at par {spec.par} in "
                          f"{result.stats.get('dictionary', spec.dictionary.label())}"))
        for k, solution in enumerate(result.solutions):
            d = solution.difficulty
            items.append(Text(""))
            items.append(Text(f"puzzle {k + 1}: {solution.words[0].upper()} -> {solution.words[-1].upper()}, par "
                              f"{solution.steps} · {counted(solution.ladders, 'shortest ladder')}"
                              + (f" · {d.level} ({d.score:g})" if d else ""),
                              style="bold"))
            items.append(ladder_table(solution, terminal=terminal))
        if result.message:
            items.append(Text(result.message))
        items.append(Text(display.status_line(result), style="dim"))
        return Group(*items)
    items.append(Text(f"{spec.start} -> {spec.target} in {result.stats.get('dictionary', spec.dictionary.label())}"))
    shortest = [s for s in result.solutions if s.mode == "shortest"]
    listing = len(shortest) > 2  # all_shortest: one line a ladder
    if listing:
        title = (f"{len(shortest):,} of {counted(result.count, 'shortest ladder')} "
                 f"({counted(shortest[0].steps, 'step')})") \
            if result.count is not None else "shortest ladders"
        items.append(ladder_list(shortest, title=title, terminal=terminal))
    for solution in result.solutions:
        if listing and solution.mode == "shortest":
            continue
        items.append(Text(""))
        items.append(ladder_table(solution, terminal=terminal))
    if result.message:
        items.append(Text(result.message))
    facts = []
    if "group" in result.stats and result.status.solved:
        facts.append(f"group {result.stats['group']} ({counted(result.stats['group_size'], 'word')})")
    if "shortest_count" in result.stats:
        n = result.stats["shortest_count"]
        facts.append(counted(n, "shortest ladder"))
    if "least_rare_count" in result.stats:
        n = result.stats["least_rare_count"]
        facts.append(counted(n, "least-rare ladder"))
    if facts:
        items.append(Text(" · ".join(facts)))
    items.append(Text(display.status_line(result), style="dim"))
    return Group(*items)
