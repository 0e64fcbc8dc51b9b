"""Word-grid benchmark: generate 5×5 (each engine) and 7×7 grids, count all 5×5 Gridle grids,
against the greedy random generator of the Gridle game (random fill word by word, restarts),
re-implemented here as the baseline and run in the same process.

    python benchmarks/bench_word_grid.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cpwords  # noqa: E402
from benchmarks._report import fmt_s, write_section  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"


def greedy_gridle(words: list[str], size: int, rng: random.Random) -> tuple[list[str], int]:
    """The game's generator: rows by first letter of a random column-1 word, then columns that fit.

    Returns (rows, restarts). Rows 0, 2, 4(, 6) are words starting with the letters of a first
    down word; then each odd column is the first unused word matching the row letters.
    """
    restarts = 0
    by_first: dict[str, list[str]] = {}
    order = words[:]
    rng.shuffle(order)
    for w in order:
        by_first.setdefault(w[0], []).append(w)
    for first in order:
        restarts += 1
        used = {first}
        rows: list[str] = []
        ok = True
        for r in range(0, size, 2):
            pick = next((w for w in by_first.get(first[r], []) if w not in used), None)
            if pick is None:
                ok = False
                break
            used.add(pick)
            rows.append(pick)
        if not ok:
            continue
        for c in range(2, size, 2):
            want = [row[c] for row in rows]
            pick = next((w for w in by_first.get(want[0], [])
                         if w not in used and all(w[2 * k] == want[k] for k in range(len(want)))), None)
            if pick is None:
                ok = False
                break
            used.add(pick)
        if ok:
            return rows, restarts
    raise RuntimeError("no grid")


def median_of(fn, repeat: int) -> float:
    times = []
    for i in range(repeat):
        t0 = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = 3 if args.quick else 5
    words5_path = SHARED / "gridle-words-5.txt"
    words7_path = SHARED / "gridle-words-7.txt"
    if not words5_path.exists():
        sys.exit("needs ../shared/data/gridle-words-5.txt")
    words5 = words5_path.read_text().split()
    words7 = words7_path.read_text().split() if words7_path.exists() else None
    d5 = {"path": str(words5_path)}
    rows = []

    def gen(shape: str, dictionary: dict, engine: str):
        def run(i: int) -> None:
            r = cpwords.solve({"kind": "word_grid", "shape": shape, "dictionary": dictionary, "seed": 100 + i},
                              engine=engine)
            assert r.solved, r.message
        return run

    cpwords.solve({"kind": "word_grid", "dictionary": d5, "seed": 1}, engine="native")  # load the list once
    base5 = median_of(lambda i: greedy_gridle(words5, 5, random.Random(i)), repeat)
    nat5 = median_of(gen("gridle-5x5", d5, "native"), repeat)
    cp5 = median_of(gen("gridle-5x5", d5, "cpsat"), max(1, repeat - 2))
    sat5 = median_of(gen("gridle-5x5", d5, "sat"), repeat)
    rows.append(("generate 5×5, Gridle list (2,315 words)", "greedy (game)", base5, "native", nat5, "≤ 100 ms"))
    rows.append(("generate 5×5, Gridle list", "greedy (game)", base5, "cpsat", cp5, "≤ 1 s"))
    rows.append(("generate 5×5, Gridle list", "greedy (game)", base5, "sat", sat5, "—"))
    if words7:
        d7 = {"path": str(words7_path)}
        cpwords.solve({"kind": "word_grid", "shape": "gridle-7x7", "dictionary": d7, "seed": 1}, engine="native")
        base7 = median_of(lambda i: greedy_gridle(words7, 7, random.Random(i)), repeat)
        nat7 = median_of(gen("gridle-7x7", d7, "native"), repeat)
        rows.append(("generate 7×7, Gridle large list (11,482 words)", "greedy (game)", base7, "native", nat7, "≤ 2 s"))
        for engine in ("cpsat", "sat"):
            t7 = median_of(gen("gridle-7x7", d7, engine), 1)
            rows.append(("generate 7×7, Gridle large list (1 run)", "greedy (game)", base7, engine, t7, "≤ 2 s"))
    # The game itself: scramble like Gridle does (each movable cell swapped with a random other one).
    def scramble(rows_: list[str], fixed: set[tuple[int, int]], rng: random.Random) -> list[str]:
        grid = [list(r) for r in rows_]
        movable = [(r, c) for r in range(len(grid)) for c in range(len(grid[0]))
                   if grid[r][c] != "#" and (r + 1, c + 1) not in fixed]
        for a in movable:
            b = rng.choice(movable)
            grid[a[0]][a[1]], grid[b[0]][b[1]] = grid[b[0]][b[1]], grid[a[0]][a[1]]
        return ["".join(r) for r in grid]

    from cpwords.geometry import load_grid

    unscramble_rows = []
    for shape, dictionary in (("gridle-5x5", d5), ("gridle-7x7", {"path": str(words7_path)} if words7 else None)):
        if dictionary is None:
            continue
        fixed = set(load_grid(shape).fixed)
        times, swaps = [], []
        for i in range(repeat):
            answer = cpwords.solve({"kind": "word_grid", "shape": shape, "dictionary": dictionary, "seed": 200 + i},
                                   engine="native").solutions[0].rows
            scrambled = scramble(answer, fixed, random.Random(i))
            t0 = time.perf_counter()
            r = cpwords.solve({"kind": "word_grid", "shape": shape, "dictionary": dictionary, "task": "unscramble",
                               "scrambled": scrambled})
            times.append(time.perf_counter() - t0)
            assert r.status.value == "optimal", r.message
            swaps.append(len(r.solutions[0].swaps))
        unscramble_rows.append((shape, statistics.median(times), statistics.median(swaps)))
    t0 = time.perf_counter()
    counted = cpwords.solve({"kind": "word_grid", "dictionary": d5, "task": "count"}, engine="native")
    count_s = time.perf_counter() - t0
    lines = [
        "Word grids (`word_grid`). Baseline: the Gridle game's greedy generator (random word order, fill",
        "rows then columns word by word, restart on a dead end), re-implemented in Python in the same run.",
        f"Medians of {repeat} runs (CP-SAT: {max(1, repeat - 2)}), different seeds.",
        "",
        "| task | baseline | baseline time | cpwords engine | cpwords time | ratio (cpwords / baseline) | target |",
        "|---|---|---|---|---|---|---|",
    ]
    for task, bname, bt, engine, t, target in rows:
        lines.append(f"| {task} | {bname} | {fmt_s(bt)} | {engine} | {fmt_s(t)} | {t / bt:.1f}× | {target} |")
    lines += [
        "",
        "**Unscramble** (the game: fewest swaps, proved optimal by CP-SAT), scrambled the way the game",
        f"scrambles (every movable cell swapped with a random one), medians of {repeat} puzzles:",
        "",
        "| shape | time | median swaps |",
        "|---|---|---|",
        *(f"| {shape} | {fmt_s(t)} | {sw:g} |" for shape, t, sw in unscramble_rows),
        "",
        f"Exact count of 5×5 Gridle grids with distinct words from the game's 2,315-word list (sum-product "
        f"over the 9 crossing letters, inclusion–exclusion over the 203 set partitions of the 6 slots): "
        f"**{counted.count:,}** modulo the transpose, **{counted.stats['raw_count']:,}** in all, in "
        f"{fmt_s(count_s)} (target ≤ 5 s). The greedy generator cannot count.",
        "",
        "CP-SAT generates from a random anchor word in the first slot (other tables pruned by arc",
        "consistency), which cut its 5×5 time from about 2.5 s (whole model) to under 1 s; its time and",
        "SAT's go into loading tables of thousands of rows as literals and clauses, while the search",
        "needs few conflicts. The native search needs a few hundred bitset steps. Timings include the",
        "whole `cpwords.solve` call (model building and the independent check), the lexicon loaded.",
    ]
    text = "\n".join(lines)
    print(text)
    write_section("word_grid", text)


if __name__ == "__main__":
    main()
