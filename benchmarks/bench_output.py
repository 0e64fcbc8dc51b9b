"""Printing a long list of answers: the streamed output against rich's table and ``json.dumps``.

One Letter Boxed listing (``lme iuf wcb oas``, answers of up to 3 words: 9,337 answers; ``--big``:
up to 4 words on scowl-50, 245,024 answers) is solved once; then, in one run and taking turns,

- *piped text*: :func:`cpwords.output.emit` of the kind's rendering (plain lines, streamed)
  against the same rendering through rich's table (what ``cpwords`` printed before issue 24);
- *JSON*: :class:`cpwords.output.JsonWriter` (one answer at a time) against
  ``json.dumps(result.model_dump(mode="json"), indent=2)`` (the whole document at once);

each into an in-memory text file, fastest of three (the minimum filters out the machine's other
load). The streamed JSON is checked to be the same text as ``json.dumps``'s.

    python benchmarks/bench_output.py             # 9,337 answers
    python benchmarks/bench_output.py --big       # 245,024 answers (a minute)
    python benchmarks/bench_output.py --write     # also write the output section of docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import fmt_s, write_section

import cpwords
from cpwords import display, output, puzzles


def fastest(fn: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def rich_table(spec: object, result: object) -> str:
    """The rendering as before issue 24: every row through rich's table, to a non-terminal."""
    from rich.console import Console
    from rich.table import Table

    out = io.StringIO()
    table = Table(box=None, show_edge=False, pad_edge=False, header_style="")
    for name in ("#", "answer", "words", "letters", "rareness"):
        table.add_column(name)
    for i, s in enumerate(result.solutions):  # type: ignore[attr-defined]
        table.add_row(f"{i + 1:,}", " ".join(s.words), str(len(s.words)), str(s.letters), f"{s.rareness:,}")
    Console(file=out, force_terminal=False, highlight=False, soft_wrap=True).print(table)
    return out.getvalue()


def streamed(spec: object, result: object) -> str:
    out = io.StringIO()
    kind = puzzles.get("letter_boxed")
    with display.using_console(display.Console(file=out, force_terminal=False)):
        output.emit(kind.render_module().render(spec, result), out)
    return out.getvalue()


def json_whole(result: object) -> str:
    return json.dumps(result.model_dump(mode="json"), indent=2) + "\n"  # type: ignore[attr-defined]


def json_streamed(result: object) -> str:
    out = io.StringIO()
    with output.JsonWriter(out, batch=False) as writer:
        writer.write(result)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="245,024 answers instead of 9,337")
    parser.add_argument("--write", action="store_true", help="write the output section of docs/benchmarks.md")
    args = parser.parse_args()
    spec = cpwords.loads("kind: letter_boxed\nsides: [lme, iuf, wcb, oas]\ntask: enumerate\nlimit: null\n"
                         + ("max_words: 4\ndictionary: scowl-50\n" if args.big else "max_words: 3\n"))
    result = cpwords.solve(spec, check=False)
    n = len(result.solutions)
    assert json.loads(json_streamed(result)) == json.loads(json_whole(result))
    rows = []
    for what, new, old in (("piped text", lambda: streamed(spec, result), lambda: rich_table(spec, result)),
                           ("--json", lambda: json_streamed(result), lambda: json_whole(result))):
        t_new, t_old = fastest(new), fastest(old)
        rows.append(f"| {what} | {fmt_s(t_new)} | {fmt_s(t_old)} | {t_old / t_new:.1f}× |")
        print(rows[-1], flush=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=Path(__file__).parent, check=False).stdout.strip()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    markdown = f"""
#### Printing long answer lists (issue 24)

{n:,} Letter Boxed answers (`lme iuf wcb oas`, {'up to 4 words, scowl-50' if args.big else 'up to 3 words, scowl-70'}),
printed into memory, fastest of 3; commit {commit}, load average {load:.1f} at the end. *Before* is
what `cpwords` did before issue 24: rich's table of every row (piped), `json.dumps(…, indent=2)` of
the whole result (`--json`); *now* streams plain lines and one answer at a time (the same JSON).
`python benchmarks/bench_output.py [--big] --write` rewrites this section.

| output | now | before | speed-up |
|---|---:|---:|---:|
""" + "\n".join(rows) + "\n"
    if args.write:
        write_section("output", markdown)


if __name__ == "__main__":
    main()
