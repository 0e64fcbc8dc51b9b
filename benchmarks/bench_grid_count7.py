"""Exact counts of 7×7 Gridle grids (four across, four down 7-letter words, 16 crossings) with
the game's 11,482-word list, against listing them by enumeration.

    python benchmarks/bench_grid_count7.py [--workers 2] [--repeat 3] [--enumerate-seconds 10] [--sat-seconds 30]

Counts: repeats allowed (median of ``--repeat`` runs) and all eight words distinct (raw and
modulo the transpose, from one run: with distinct words no grid is its own transpose), counted as
users count: ``--workers 1`` is the kind's own count (``count_grids``) in this process, ``--workers
N`` the count's shards on N local worker processes (``cpwords.api.solve_batch``, the cluster runner;
its time includes reading the list and planning the shards). The
baseline is the native engine's enumeration (bitset backtracking, the fallback before this
counter): how many grids it lists in ``--enumerate-seconds``, extrapolated to the exact total.
A second table compares the SAT engine's count (projected model counting with Ganak, raced
against blocking-clause enumeration) with the sum-product on the 5×5 Gridle list and prefixes of
it, each SAT run capped at ``--sat-seconds``.
Prints markdown tables; does not write docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # many small products: threads only wait

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._report import fmt_s  # noqa: E402
from cpwords.engines.budget import Budget  # noqa: E402
from cpwords.puzzles.word_grid.count import count_grids  # noqa: E402
from cpwords.puzzles.word_grid.native_tasks import enumerate_grids  # noqa: E402
from cpwords.puzzles.word_grid.problem import GridProblem, prepare  # noqa: E402
from cpwords.puzzles.word_grid.spec import WordGridSpec  # noqa: E402

WORDS = ROOT.parent / "shared" / "data" / "gridle-words-7.txt"
WORDS5 = ROOT.parent / "shared" / "data" / "gridle-words-5.txt"
YEAR = 365.25 * 24 * 3600


def spec_of(distinct: bool) -> WordGridSpec:
    """The 7×7 Gridle count on the game's list (native engine)."""
    return WordGridSpec.model_validate({"kind": "word_grid", "shape": "gridle-7x7", "task": "count", "engine": "native",
                                        "dictionary": {"path": str(WORDS)}, "distinct_words": distinct})


def problem_of(distinct: bool) -> GridProblem:
    """The 7×7 Gridle count problem on the game's list."""
    return prepare(spec_of(distinct))


def counted_once(problem: GridProblem, distinct: bool, workers: int) -> tuple[int, int]:
    """(raw count, count modulo the transpose), in this process or in shards on ``workers`` processes."""
    if workers <= 1:
        counted = count_grids(problem)
        return counted.raw, counted.modulo_symmetry
    from cpwords import api

    result = api.solve_batch([spec_of(distinct)], workers=workers, check=False)[0]
    assert result.count_exact and result.count is not None, result.message
    return int(result.stats["raw_count"]), result.count


def enumeration_rate(problem: GridProblem, seconds: float) -> float:
    """Raw grids per second that enumeration lists within ``seconds``."""
    t0 = time.perf_counter()
    _grids, _count, raw, _complete, _nodes = enumerate_grids(problem, Budget(seconds), keep=False)
    return raw / (time.perf_counter() - t0)


def fmt_long(seconds: float) -> str:
    """Seconds, or years when that long."""
    return f"{seconds / YEAR:,.1f} years" if seconds > YEAR else fmt_s(seconds)


def _shown(count: int | None, complete: bool, elapsed: float, exact: int, cap: float) -> str:
    if not complete:
        return f"not finished in {cap:g} s"
    assert count == exact, (count, exact)  # the SAT count must equal the sum-product's
    return f"{fmt_s(elapsed)} (same count)"


def sat_versus_sum_product(seconds: float) -> list[str]:
    """Rows: 5×5 Gridle counts (distinct words) by the sum-product, Ganak alone, and the SAT engine."""
    import cpwords
    from cpwords.puzzles.word_grid import sat
    from cpwords.puzzles.word_grid.count import count_grids as sum_product

    full = prepare(WordGridSpec.model_validate({"kind": "word_grid", "shape": "gridle-5x5", "task": "count",
                                                "dictionary": {"path": str(WORDS5)}})).words[5]
    rows = []
    for n in (60, 120, 200, len(full)):
        spec = WordGridSpec.model_validate({"kind": "word_grid", "shape": "gridle-5x5", "task": "count",
                                            "dictionary": {"words": full[:n]}})
        problem = prepare(spec)
        t0 = time.perf_counter()
        exact = sum_product(problem)
        t_sp = time.perf_counter() - t0
        t0 = time.perf_counter()
        ganak = sat.projected_count(problem, spec, Budget(seconds))
        t_ganak = time.perf_counter() - t0
        t0 = time.perf_counter()
        engine = cpwords.solve(spec, engine="sat", time_limit=seconds)
        t_engine = time.perf_counter() - t0
        ganak_cell = _shown(ganak.count, ganak.complete, t_ganak, exact.modulo_symmetry, seconds)
        engine_cell = _shown(engine.count, bool(engine.count_exact), t_engine, exact.modulo_symmetry, seconds)
        rows.append(f"| {n:,} | {exact.modulo_symmetry:,} | {fmt_s(t_sp)} | {ganak_cell} "
                    f"| {engine_cell}: {engine.stats.get('method', '')} |")
        print(rows[-1], file=sys.stderr)
    return ["5×5 Gridle grids (rows and columns 1, 3, 5; six distinct words), modulo the transpose, from the first "
            f"n words of the game's list: native sum-product against the SAT engine. SAT runs capped at {seconds:g} s.",
            "", "| words | grids | sum-product | Ganak projected count alone | SAT engine count (race) |",
            "|---|---|---|---|---|", *rows]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2,
                        help="1: the kind's count in this process; N: its shards on N local processes")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the repeats-allowed count (median)")
    parser.add_argument("--enumerate-seconds", type=float, default=10.0)
    parser.add_argument("--sat-seconds", type=float, default=30.0, help="cap of each SAT count on the 5×5")
    parser.add_argument("--skip-7x7", action="store_true", help="only the 5×5 SAT comparison")
    args = parser.parse_args()
    if not WORDS.exists():
        sys.exit(f"needs {WORDS}")
    sat_rows = sat_versus_sum_product(args.sat_seconds) if WORDS5.exists() else []
    rows = []
    for distinct in (() if args.skip_7x7 else (False, True)):
        problem = problem_of(distinct)
        times, counted = [], None
        for _ in range(args.repeat if not distinct else 1):
            t0 = time.perf_counter()
            counted = counted_once(problem, distinct, args.workers)
            times.append(time.perf_counter() - t0)
        assert counted is not None
        raw, modulo = counted
        rate = enumeration_rate(problem, args.enumerate_seconds)
        label = "all 8 words distinct" if distinct else "repeats allowed"
        runs = "1 run" if distinct else f"median of {len(times)}"
        elapsed = statistics.median(times)
        # enumeration visits every raw grid, whether it then counts them all or one per orbit
        baseline = raw / rate if rate else float("inf")
        for what, value in (("raw", raw), ("modulo transpose", modulo)):
            rows.append(f"| {label}, {what} | {value:,} | {fmt_s(elapsed)} ({runs}) | {rate:,.0f} grids/s "
                        f"| {fmt_long(baseline)} | {baseline / elapsed:,.0f}× |")
        print(f"{label}: {raw:,} raw, {modulo:,} modulo the transpose in {fmt_s(elapsed)}", file=sys.stderr)
    lines = [
        "Exact counts of 7×7 Gridle grids (rows and columns 1, 3, 5, 7 are words) from the game's "
        "11,482-word list.",
        ("cpwords: `count_grids` in one process" if args.workers <= 1 else
         f"cpwords: `solve_batch` in shards on {args.workers} local worker processes (preparation included)")
        + "; one call gives the raw count and the count modulo the transpose. Baseline: native enumeration (bitset backtracking) run "
        f"{args.enumerate_seconds:g} s, its listing rate extrapolated to the exact total.",
        "",
        "| count | exact figure | cpwords time | enumeration rate | enumeration, extrapolated | speed-up |",
        "|---|---|---|---|---|---|",
        *rows,
    ]
    print("\n".join(lines + ([""] + sat_rows if sat_rows else [])))


if __name__ == "__main__":
    main()
