"""Benchmark: prefix/suffix board counts per engine, CP-SAT listing speed, and cost growth 2k → 20k words.

Run ``python benchmarks/bench_prefix_suffix_board.py`` (``--quick``: common-2k and 5k only,
short limits, nothing written). Writes the ``prefix_suffix_board`` section of docs/benchmarks.md
and docs/plots/board_growth.png (matplotlib, from the ``bench`` extra).

- **Counts.** ``count_boards`` with each engine on the same instances in the same run: the native
  engine is the reference, CP-SAT and SAT must give the same count modulo symmetry and the same
  raw count.
- **CP-SAT listing.** Solutions a second of CP-SAT enumeration, against the baseline of the same
  run: the whole-board model (a word variable per edge, the board's lex-leader) enumerated with
  CP-SAT's defaults, which is how boards were listed before.
- **Growth.** Time and peak memory of ``count_boards`` against the dictionary size, per engine.

Every run is a fresh process (``python -c``), so that its peak memory (``VmHWM``) is its own;
a multi-process run reports the parent's peak and its largest worker's.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._report import OWN_PEAK_KB, fmt_s, write_section  # noqa: E402

PLOT = ROOT / "docs" / "plots" / "board_growth.png"
SUFFIX_LENGTHS = [(2, 3), (2, 2), (2, 4)]
ENGINES = ("native", "cpsat", "sat")

_CHILD = r"""
import json, resource, sys, time
import cpwords
spec = json.loads(sys.argv[1])
t0 = time.perf_counter()
result = cpwords.solve(spec, check=False)
seconds = time.perf_counter() - t0
own = own_peak_kb()
workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"count": result.count, "exact": result.count_exact, "status": str(result.status.value),
                  "raw": result.stats.get("raw_count"), "seconds": seconds, "rss_mb": own / 1024,
                  "worker_rss_mb": workers / 1024, "stats": result.stats}, default=str))
"""


def measure(dictionary: str, engine: str, *, task: str = "count_boards", suffix_length: tuple[int, int] = (2, 3),
            time_limit: float = 600.0, workers: int | None = None) -> dict[str, Any]:
    """One solve in a fresh process: count, exactness, seconds (of the solve) and peak memory.

    ``workers`` defaults to 1 for native (its processes are compared separately) and to the
    engine's own default otherwise (SAT: Ganak in as many processes as cores, here 2)."""
    if workers is None and engine == "native":
        workers = 1
    spec = {"kind": "prefix_suffix_board", "dictionary": dictionary, "task": task, "engine": engine,
            "suffix_length": list(suffix_length), "time_limit": time_limit, "workers": workers, "seed": 1}
    out = subprocess.run([sys.executable, "-c", OWN_PEAK_KB + _CHILD, json.dumps(spec)], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    row: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return row


def cell(row: dict[str, Any]) -> str:
    """Count and time, or the lower bound reached within the limit."""
    if row["exact"]:
        return f"{row['count']:,} ({fmt_s(row['seconds'])})"
    return f"≥ {row['count'] or 0:,} (limit, {fmt_s(row['seconds'])})"


# ---------------------------------------------------------------- counts


def count_table(dictionaries: list[str], limit: float, runs: dict[tuple[str, str, tuple[int, int]], Any]) -> str:
    """Rows of count_boards per engine; fills ``runs`` (reused by the growth curves)."""
    rows = []
    for d in dictionaries:
        for sl in SUFFIX_LENGTHS:
            if d == "common-10k" and sl != (2, 3):
                engines: tuple[str, ...] = ("native",)  # the solver engines at full scale: default lengths
            else:
                engines = ENGINES
            got = {e: runs.setdefault((d, e, sl), measure(d, e, suffix_length=sl, time_limit=limit)) for e in engines}
            native = got["native"]
            cells = []
            for e in ENGINES:
                if e not in got:
                    cells.append("–")
                    continue
                r = got[e]
                same = r["exact"] and (r["count"], r["raw"]) == (native["count"], native["raw"])
                cells.append(cell(r) + ("" if same or not r["exact"] else " **DISAGREES**"))
            rows.append(f"| {d} | {sl[0]}–{sl[1]} | {native['stats']['suffix_tokens']} / "
                        f"{native['stats']['prefix_tokens']} | {' | '.join(cells)} | {native['raw'] or 0:,} |")
            print(rows[-1], flush=True)
    return "\n".join(rows)


# ---------------------------------------------------------------- CP-SAT listing


_LISTING = r"""
import json, sys, time
from cpwords.engines import cpsat as engine
from cpwords.engines.budget import Budget
from cpwords.puzzles.prefix_suffix_board import cpsat
from cpwords.puzzles.prefix_suffix_board.problem import build_problem
from cpwords.puzzles.prefix_suffix_board.spec import PrefixSuffixBoardSpec
spec = PrefixSuffixBoardSpec.model_validate(json.loads(sys.argv[1]))
way, seconds = sys.argv[2], float(sys.argv[3])
problem = build_problem(spec)
budget = Budget(seconds)
t0 = time.perf_counter()
if way == "baseline":  # the whole-board model, as boards were listed before
    model, xs = cpsat.build_model(problem, "board" if spec.task == "enumerate" else None)
    en = engine.enumerate_solutions(model, xs, budget, limit=spec.limit, keep=False)
    count, complete = en.count, en.complete
else:
    found = (cpsat.enumerate_ if spec.task == "enumerate" else cpsat.solve)(problem, spec, budget)
    count, complete = (found.count if spec.task == "solve" else len(found.answers)), found.complete
print(json.dumps({"count": count, "complete": complete, "seconds": time.perf_counter() - t0}))
"""

#: What is listed, the seconds of each run and the runs (median): (label, spec, seconds, repeat).
LISTINGS: list[tuple[str, dict[str, Any], float, int]] = [
    ("fillings of one placement, common-10k (`solve`, -al -ed -ing -er, 21.6 M fillings)",
     {"dictionary": "common-10k", "task": "solve", "suffixes": {"s_n": "al", "s_e": "ed", "s_s": "ing", "s_w": "er"},
      "limit": None}, 10.0, 3),
    ("boards modulo symmetry, common-5k, suffixes 2–4 (`enumerate`, all 9,615 boards)",
     {"dictionary": "common-5k", "task": "enumerate", "suffix_length": [2, 4], "limit": None}, 30.0, 1),
    ("boards modulo symmetry, common-10k (`enumerate`, first 50,000)",
     {"dictionary": "common-10k", "task": "enumerate", "limit": 50_000}, 30.0, 1),
]


def listing(spec: dict[str, Any], way: str, seconds: float) -> dict[str, Any]:
    """Solutions a second of one CP-SAT listing (``baseline`` or ``split``) in a fresh process."""
    data = {"kind": "prefix_suffix_board", "engine": "cpsat"} | spec
    out = subprocess.run([sys.executable, "-c", _LISTING, json.dumps(data), way, str(seconds)], capture_output=True,
                         text=True, check=True, cwd=ROOT)
    row: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    row["rate"] = row["count"] / row["seconds"] if row["seconds"] else 0.0
    return row


def listing_table(quick: bool) -> str:
    rows = []
    for what, spec, seconds, repeat in LISTINGS:
        if quick:
            seconds, repeat = min(seconds, 5.0), 1
        got = {}
        for way in ("baseline", "split"):
            runs = sorted((listing(spec, way, seconds) for _ in range(repeat)), key=lambda r: r["rate"])
            got[way] = runs[len(runs) // 2]
        b, s = got["baseline"], got["split"]

        def shown(r: dict[str, Any]) -> str:
            done = "all" if r["complete"] else "cut"
            return f"{r['rate']:,.0f}/s ({r['count']:,} in {fmt_s(r['seconds'])}, {done})"

        ratio = f"{s['rate'] / b['rate']:.1f}×" if b["rate"] else "∞ (baseline listed none)"
        rows.append(f"| {what} | {repeat} × {seconds:.0f} s | {shown(b)} | {shown(s)} | {ratio} |")
        print(rows[-1], flush=True)
    return "\n".join(rows)


# ---------------------------------------------------------------- growth


def growth(sizes: list[str], runs: dict[tuple[str, str, tuple[int, int]], Any], limits: dict[str, float],
           solver_sizes: list[str]) -> dict[str, list[tuple[int, dict[str, Any]]]]:
    """count_boards at the default lengths per engine and size (reusing ``runs``)."""
    curves: dict[str, list[tuple[int, dict[str, Any]]]] = {e: [] for e in ENGINES}
    for engine in ENGINES:
        for d in sizes if engine == "native" else solver_sizes:
            key = (d, engine, (2, 3))
            if key not in runs:
                runs[key] = measure(d, engine, time_limit=limits[engine])
                print(d, engine, cell(runs[key]), f"{runs[key]['rss_mb']:.0f} MB", flush=True)
            n = int(d.split("-")[1].rstrip("k")) * 1000
            curves[engine].append((n, runs[key]))
            if not runs[key]["exact"]:
                break  # a larger dictionary would not finish either
    return curves


def growth_table(curves: dict[str, list[tuple[int, dict[str, Any]]]]) -> str:
    rows = []
    for engine, points in curves.items():
        for n, r in points:
            worker = f" (+ workers {r['worker_rss_mb']:.0f} MB)" if r["worker_rss_mb"] > 1 else ""
            rows.append(f"| {engine} | common-{n // 1000}k | {cell(r)} | {r['rss_mb']:.0f} MB{worker} |")
    return "\n".join(rows)


def plot(curves: dict[str, list[tuple[int, dict[str, Any]]]], path: Path = PLOT) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(9, 3.6), dpi=120)
    for engine, points in curves.items():
        if not points:
            continue
        xs = [n for n, _ in points]
        line = ax_t.plot(xs, [r["seconds"] for _, r in points], marker="o", label=engine)[0]
        ax_m.plot(xs, [r["rss_mb"] for _, r in points], marker="o", label=engine, color=line.get_color())
        cut = [(n, r) for n, r in points if not r["exact"]]
        if cut:  # stopped at the limit: the time is a lower bound
            ax_t.plot([n for n, _ in cut], [r["seconds"] for _, r in cut], linestyle="none", marker="x",
                      markersize=12, color=line.get_color())
    sizes = sorted({n for points in curves.values() for n, _ in points})
    for ax in (ax_t, ax_m):
        ax.set_xticks(sizes, [f"{n // 1000}k" for n in sizes])
    ax_t.set_yscale("log")
    ax_t.set_xlabel("dictionary (most common words)")
    ax_t.set_ylabel("seconds (log)")
    ax_t.set_title("count_boards: time (× = stopped at the limit)")
    ax_m.set_xlabel("dictionary (most common words)")
    ax_m.set_ylabel("peak memory, MB (main process)")
    ax_m.set_title("count_boards: memory")
    for ax in (ax_t, ax_m):
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    quick = args.quick
    dictionaries = ["common-2k", "common-5k"] if quick else ["common-2k", "common-5k", "common-10k"]
    limit = 60.0 if quick else 600.0
    runs: dict[tuple[str, str, tuple[int, int]], Any] = {}
    t0 = time.monotonic()
    counts = count_table(dictionaries, limit, runs)
    listings = listing_table(quick)
    sizes = ["common-2k", "common-5k"] if quick else ["common-2k", "common-5k", "common-10k", "common-15k",
                                                      "common-20k"]
    solver_sizes = sizes[:2] if quick else sizes[:4]
    curves = growth(sizes, runs, {"native": 300.0, "cpsat": limit if quick else 300.0,
                                  "sat": limit if quick else 300.0}, solver_sizes)
    two = measure("common-20k" if not quick else "common-5k", "native", workers=2, time_limit=300.0)
    one = runs[("common-20k" if not quick else "common-5k", "native", (2, 3))]
    speed = (f"| {'common-5k' if quick else 'common-20k'} | {cell(one)} | {cell(two)} | "
             f"{one['seconds'] / two['seconds']:.2f}× | {'yes' if one['count'] == two['count'] else 'NO'} |")
    md = f"""### Prefix/suffix boards (`prefix_suffix_board`, board okwddm, prefixes 2–4 letters)

Measured under load (a shared 2-core machine, other benchmarks and test runs at the same time):
single runs, so read the times as ±30%. Whole benchmark: {fmt_s(time.monotonic() - t0)}.

**Counts per engine** (`count_boards`, 1 worker for native, limit {limit:.0f} s): boards modulo the 8
rotations and mirrors, with the wall time of `cpwords.solve` in a fresh process (loading the
dictionary included, about 0.35 s). Native is the reference; CP-SAT and SAT
count at full scale by the same split: the solver enumerates the lex-leader suffix placements, then
each placement's prefix fillings are counted — by Ganak projected model counting for SAT, by CP-SAT
enumeration where there are at most 1,000 of them and by the shared exact counting otherwise for
CP-SAT. A cell is marked **DISAGREES** if its count or its raw count differs from native's.

| dictionary | suffix letters | suffix / prefix tokens | native | CP-SAT | SAT | raw boards |
|---|---|---|---|---|---|---|
{counts}

**CP-SAT listing speed** (solutions a second over each run, process start-up excluded, the
model's set-up included; the median where there are several runs). Baseline, in the same run: the whole-board model (token and word variables, the board's
lex-leader) enumerated with CP-SAT's defaults, as boards were listed before. Now: `solve` enumerates
the placement's fillings model (prefix slots only, no word variables) with a fixed search, and
`enumerate` enumerates the lex-leader suffix placements (no probing, symmetry detection or linear
relaxation: none removes a solution) and, from each one's callback, its fillings under the
placement's stabiliser, each board then written as its orbit's lex-leader.

| listing | runs | baseline (whole-board model) | now (split) | ratio |
|---|---|---|---|---|
{listings}

**Growth** (`count_boards`, default lengths; peak resident memory of the main process, and of the
largest counting worker where there are workers — SAT counts in 2 Ganak worker processes): plot
[board_growth.png](plots/board_growth.png). A solver engine stops at the first size it does not
finish within its limit (300 s here).

| engine | dictionary | count (time) | peak memory |
|---|---|---|---|
{growth_table(curves)}

Native `count_boards` with 1 worker against 2 worker processes (same count required):

| dictionary | 1 worker | 2 workers | speed-up | same count |
|---|---|---|---|---|
{speed}

Two workers only pay off when a core is free: on a busy machine they can be slower than one.
"""
    if not quick:
        plot(curves)
        write_section("prefix_suffix_board", md)
    print(md)


if __name__ == "__main__":
    main()
