"""Benchmark: prefix/suffix board counts for common-2k/5k/10k, per engine, and native's speed-up with 2 workers.

Run ``python benchmarks/bench_prefix_suffix_board.py`` (``--quick``: common-2k and 5k only, short
limits). Writes the ``prefix_suffix_board`` section of docs/benchmarks.md. The engines are each
other's baseline in the same run: they must agree on every count that finishes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._report import fmt_s, write_section
from cpwords import api

SUFFIX_LENGTHS = [(2, 3), (2, 2), (2, 4)]


def run(dictionary: str, suffix_length: tuple[int, int], engine: str, task: str, time_limit: float,
        workers: int = 1, repeat: int = 1) -> tuple[object, float]:
    """Median wall time of ``repeat`` solves and the last result."""
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = api.solve({"kind": "prefix_suffix_board", "dictionary": dictionary, "task": task,
                            "suffix_length": list(suffix_length)}, engine=engine, time_limit=time_limit,
                           workers=workers, seed=1, check=False)
        times.append(time.perf_counter() - t0)
    return result, statistics.median(times)


def shown(result: object, seconds: float) -> str:
    """A cell: count and time, or what was reached within the limit."""
    if result.count_exact:  # type: ignore[attr-defined]
        return f"{result.count:,} ({fmt_s(seconds)})"  # type: ignore[attr-defined]
    return f"≥ {result.count:,} (limit {fmt_s(seconds)})"  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    dictionaries = ["common-2k", "common-5k"] if args.quick else ["common-2k", "common-5k", "common-10k"]
    model_limit = 10.0 if args.quick else 30.0
    native_limit = 60.0 if args.quick else 600.0
    rows = []
    for d in dictionaries:
        for sl in SUFFIX_LENGTHS:
            repeat = 3 if d == "common-2k" else 1
            cells = []
            for task in ("count_boards", "count_suffix_sets"):
                native, t_native = run(d, sl, "native", task, native_limit, repeat=repeat)
                cells.append((native, t_native))
            board_cells = [shown(*cells[0])]
            for engine in ("cpsat", "sat"):
                r, t = run(d, sl, engine, "count_boards", model_limit)
                agree = "" if not r.count_exact or r.count == cells[0][0].count else " **DISAGREES**"
                board_cells.append(shown(r, t) + agree)
            raw = cells[0][0].stats.get("raw_count")
            rows.append(f"| {d} | {sl[0]}–{sl[1]} | {cells[0][0].stats['suffix_tokens']} / "
                        f"{cells[0][0].stats['prefix_tokens']} | {' | '.join(board_cells)} | {raw:,} | "
                        f"{shown(*cells[1])} |")
            print(rows[-1], flush=True)
    speed = []
    for d in (["common-5k"] if args.quick else ["common-5k", "common-10k"]):
        one, t1 = run(d, (2, 3), "native", "count_boards", native_limit, workers=1)
        two, t2 = run(d, (2, 3), "native", "count_boards", native_limit, workers=2)
        same = "yes" if one.count == two.count else "NO"
        speed.append(f"| {d} | {fmt_s(t1)} | {fmt_s(t2)} | {t1 / t2:.2f}× | {same} |")
        print(speed[-1], flush=True)
    md = f"""### Prefix/suffix boards (`prefix_suffix_board`, board okwddm, prefixes 2–4 letters)

Boards modulo the 8 rotations and mirrors (count, wall time); CP-SAT and SAT enumerate lex-leader boards
under a {model_limit:.0f} s limit (≥: what they reached), native counts exactly (limit {native_limit:.0f} s).
Native times are medians of {3} runs for common-2k, single runs otherwise; 1 worker.

| dictionary | suffix letters | suffix / prefix tokens | native | CP-SAT | SAT | raw boards | suffix sets (native) |
|---|---|---|---|---|---|---|---|
""" + "\n".join(rows) + """

Native `count_boards`, default lengths, 1 worker against 2 worker processes (same count required):

| dictionary | 1 worker | 2 workers | speed-up | same count |
|---|---|---|---|---|
""" + "\n".join(speed) + "\n"
    if not args.quick:
        write_section("prefix_suffix_board", md)
    print(md)


if __name__ == "__main__":
    main()
