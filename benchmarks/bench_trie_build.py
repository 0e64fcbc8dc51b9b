"""Building Ruzzle's double-array trie: node by node in Python (the builder before issue 24's item 3)
against numpy array operations (today's), in the same run, and the word search on each trie.

The baseline is the builder of commit f1b5fe2, read from git (``git show``) into a module of its
own, so both builders run in this process on the same word lists. Figures per dictionary: median
seconds of ``--runs`` builds each (the builders take turns), the array size (slots) and nodes, and
the median time to find every word of 300 random 4×4 boards on each trie (the walk is the same
code; only the layout of the arrays differs).

    python benchmarks/bench_trie_build.py            # scowl-35, scowl-80, scowl-95, german; 3 runs
    python benchmarks/bench_trie_build.py --write    # and write its section of docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import write_section

BASELINE = "f1b5fe2"
ROOT = Path(__file__).resolve().parent.parent


def _baseline_module() -> Any:
    """The trie module as it was at :data:`BASELINE` (its builder, ``_double_array``)."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{BASELINE}:cpwords/puzzles/ruzzle/trie.py"],
                            capture_output=True, text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "trie_before.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("trie_before", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["trie_before"] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def _boards(alphabet: Any, count: int) -> list[Any]:
    from cpwords.puzzles.ruzzle.board import Board

    rng = random.Random(1)
    letters = alphabet.letters
    return [Board.from_tiles([[rng.choice(letters) for _ in range(4)] for _ in range(4)], alphabet=alphabet)
            for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dicts", default="scowl-35,scowl-80,scowl-95,german")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    from cpwords.lexicon import load_lexicon
    from cpwords.puzzles.ruzzle import trie as now
    from cpwords.puzzles.ruzzle.trie import Trie, trie_words

    before = _baseline_module()
    builders = {"before": before._double_array, "now": now._double_array}
    lines = ["| dictionary | words | nodes | build before (s) | build now (s) | before ÷ now | slots before | "
             "slots now | 300 boards before (ms) | 300 boards now (ms) |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name in [d.strip() for d in args.dicts.split(",") if d.strip()]:
        lex = load_lexicon(name)
        times: dict[str, list[float]] = {k: [] for k in builders}
        tries: dict[str, Trie] = {}
        for run in range(args.runs):
            for key in (list(builders) if run % 2 == 0 else list(builders)[::-1]):
                t0 = time.perf_counter()
                built = builders[key](lex, lex.alphabet)
                times[key].append(time.perf_counter() - t0)
                tries[key] = Trie(*built)
        boards = _boards(lex.alphabet, 300)
        walk: dict[str, list[float]] = {k: [] for k in builders}
        found: dict[str, list[int]] = {}
        for run in range(args.runs):
            for key in (list(builders) if run % 2 == 0 else list(builders)[::-1]):
                t0 = time.perf_counter()
                found[key] = [len(trie_words(b, tries[key], min_letters=2)) for b in boards]
                walk[key].append(time.perf_counter() - t0)
        assert found["before"] == found["now"], f"{name}: the two tries find different words"
        assert tries["before"].nodes == tries["now"].nodes
        b, n = statistics.median(times["before"]), statistics.median(times["now"])
        row = (f"| {name} | {len(lex):,} | {tries['now'].nodes:,} | {b:.2f} | {n:.2f} | **{b / n:.1f}×** | "
               f"{len(tries['before'].base):,} | {len(tries['now'].base):,} | "
               f"{1000 * statistics.median(walk['before']):.0f} | {1000 * statistics.median(walk['now']):.0f} |")
        print(row, flush=True)
        lines.append(row)
    md = "\n".join([
        "### Ruzzle trie build (issue 24, item 3: the first use of a dictionary)",
        "",
        f"Load average when the run ended: {os.getloadavg()[0]:.1f}. Run: `python benchmarks/bench_trie_build.py"
        f"{f' --runs {args.runs}' if args.runs != 3 else ''}`. *before*: the builder of commit {BASELINE} (nodes "
        "placed one by one in Python, packed about one slot a node), read from git; *now*: numpy array operations "
        "(each node's children get a block of their own, about 2.3 slots a node). Medians of "
        f"{args.runs} builds each, the builders taking turns; *300 boards*: finding every word (2+ letters) of 300 "
        "random 4×4 boards with each trie, median of the runs (both tries find the same words on every board, "
        "checked).",
        "",
        *lines,
    ])
    print(md)
    if args.write:
        write_section("ruzzle_trie_build", md)


if __name__ == "__main__":
    main()
