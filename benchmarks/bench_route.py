"""Benchmark: the one route for parallel work against the cpwords before it (issue 35), in one run.

Before the route, a board count and a grid count ran their own pools inside the kind, and Ruzzle's
chains had a module of their own; now every parallel path goes through the kind's ``Sharding`` on
the route's workers. This times the same whole commands with both versions:

* the common-20k board count (native engine, ``cpwords board --count --dict common-20k --seed 1
  --json``) with no option (the default workers), ``--workers 2``, ``--checkpoint FILE --workers 2``
  and ``--cluster local:2`` — the paths of ``bench_parallel.py``;
* the 7×7 Gridle count of the game's list (repeats allowed; ``bench_grid_count7.py``'s first count)
  through ``cpwords solve`` with ``--workers 2``.

The earlier cpwords (``--baseline REV``, default the commit before the route) is installed from
that revision of this repository into a virtual environment of its own, so both run as users run
them: a fresh ``cpwords`` process each time. Each round runs every (path, version) pair in turn,
the versions alternating, so that a machine whose speed drifts slows both alike; a path's ratio is
the median of its per-round ratios (now ÷ before), its times the medians of the rounds. Every count
must equal the baseline's. Figures go to docs/benchmarks.md (section ``route``).

Run ``python benchmarks/bench_route.py`` (``--runs 3``; ``--quick``: common-10k and no grid).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._report import write_section
from benchmarks.bench_parallel import baseline_cpwords

ROOT = Path(__file__).resolve().parent.parent
#: The last commit before the route (the kinds' own pools, ruzzle/chains.py).
BASELINE = "a2ee744"
GRID_WORDS = ROOT.parent / "shared" / "data" / "gridle-words-7.txt"


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Seconds of one whole command, and the count it printed (JSON)."""
    t0 = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    seconds = time.perf_counter() - t0
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({out.returncode}): {out.stderr[-400:]}")
    return seconds, int(json.loads(out.stdout)["count"])


def paths(dictionary: str, grid_spec: Path | None) -> dict[str, list[str]]:
    """The commands, by path (``CKPT`` stands for a fresh checkpoint file)."""
    board = ["board", "--count", "--dict", dictionary, "--seed", "1", "--json"]
    out = {
        f"{dictionary} board count, default workers": board,
        f"{dictionary} board count, --workers 2": [*board, "--workers", "2"],
        f"{dictionary} board count, --checkpoint FILE --workers 2": [*board, "--workers", "2", "--checkpoint", "CKPT"],
        f"{dictionary} board count, --cluster local:2": [*board, "--cluster", "local:2"],
    }
    if grid_spec is not None:
        out["7×7 Gridle count (game list), --workers 2"] = ["solve", str(grid_spec), "--workers", "2", "--json"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--baseline", default=BASELINE, help=f"revision before the route (default {BASELINE})")
    parser.add_argument("--quick", action="store_true", help="common-10k board counts only")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("CPWORDS_CLUSTER", "PYTHONPATH")}
    now = str(Path(sys.executable).parent / "cpwords")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        grid = None
        if not args.quick:
            grid = folder / "grid7.yaml"
            grid.write_text(f"kind: word_grid\nshape: gridle-7x7\ntask: count\nengine: native\n"
                            f"distinct_words: false\ndictionary: {{path: {GRID_WORDS}}}\n", encoding="utf-8")
        commands = paths("common-10k" if args.quick else "common-20k", grid)
        before = baseline_cpwords(args.baseline, folder, "[cluster]")
        env["CPWORDS_CACHE_DIR"] = str(folder / "cache")
        try:
            for command in (before, now):  # one-time indexes built before any timing
                for argv in commands.values():
                    if "--cluster" not in argv and "CKPT" not in argv:
                        timed([str(command), *argv], env)
                        break
            times: dict[str, dict[str, list[float]]] = {p: {"before": [], "now": []} for p in commands}
            ratios: dict[str, list[float]] = {p: [] for p in commands}
            counts: dict[str, set[int]] = {p: set() for p in commands}
            for r in range(args.runs):
                for path, argv in commands.items():
                    pair = {}
                    order = [("before", before), ("now", now)] if r % 2 == 0 else [("now", now), ("before", before)]
                    for which, command in order:
                        cmd = [str(command), *[str(folder / f"{which}{r}.sqlite") if a == "CKPT" else a for a in argv]]
                        seconds, count = timed(cmd, env)
                        pair[which] = seconds
                        times[path][which].append(seconds)
                        counts[path].add(count)
                        print(f"round {r + 1}: {path}: {which} {seconds:.2f} s, count {count:,}", flush=True)
                    ratios[path].append(pair["now"] / pair["before"])
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder / "tree")],
                           capture_output=True)
    for path, seen in counts.items():
        assert len(seen) == 1, (path, seen)  # both versions, every round: one count
    rows = [f"| {path} | {next(iter(counts[path])):,} | {statistics.median(times[path]['before']):.2f} s | "
            f"{statistics.median(times[path]['now']):.2f} s | **{statistics.median(ratios[path]):.2f}** |"
            for path in commands]
    md = "\n".join([
        "### One route for parallel work: no slower (issue 35)",
        "",
        f"The same whole `cpwords … --json` commands with the cpwords before the route ({args.baseline}: the "
        "kinds' own pools) and now (every parallel path through the kind's `Sharding` on the route's workers). "
        f"Medians of {args.runs} rounds, the two versions alternating; the ratio is the median of the "
        "per-round ratios (now ÷ before). Every count equals the baseline's. Target: ratio ≤ 1.05. "
        f"Run: `python benchmarks/bench_route.py --runs {args.runs}{' --quick' if args.quick else ''}`.",
        "",
        "| path | count | before | now | now ÷ before |",
        "|---|---:|---:|---:|---:|",
        *rows,
    ])
    print(md)
    if not args.no_write:
        write_section("route", md)


if __name__ == "__main__":
    main()
