"""Benchmark: one board count through every path of the execution layer, against the kind's own
process pool of an earlier cpwords (the baseline), in one run.

Run ``python benchmarks/bench_parallel.py`` (``--dict common-20k --runs 3`` by default;
``--baseline REV`` picks the earlier cpwords, default the last commit before the execution layer).
The baseline is installed from that revision of this repository into a virtual environment of
its own (pip, from the package index or its cache), so both run as users run them: the
``cpwords`` command, a fresh process each time.

Commands, each ``cpwords board --count --dict D --seed 1 --json`` plus:

* baseline ``--workers 2`` (the earlier cpwords: its hand-made ``multiprocessing.Pool``);
* ``--workers 2`` (the layer's local workers, inside the kind's count);
* ``--checkpoint FILE`` with ``--workers 2`` (the cluster runner's shards on two local workers);
* ``--cluster local:2`` (the runner's shards on a two-worker Dask LocalCluster started for the run).

The commands run in turn, round after round (A B C D, A B C D, …), so that a machine whose speed
drifts slows every path alike; each path's figure is the median of its rounds, and its ratio to the
baseline the median of the per-round ratios. Every count must equal the baseline's. Figures go to
docs/benchmarks.md (section ``parallel``).
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

ROOT = Path(__file__).resolve().parent.parent
#: The last commit before the execution layer (its board count ran its own multiprocessing pool).
BASELINE = "950937a"


def baseline_cpwords(rev: str, folder: Path, extras: str = "") -> Path:
    """The ``cpwords`` command of revision ``rev``, installed (with ``extras``, e.g. ``[cluster]``)
    into a venv under ``folder``; the worktree is ``folder / "tree"``."""
    tree = folder / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev], check=True,
                   capture_output=True)
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", f"{tree}{extras}"], check=True)
    return venv / "bin" / "cpwords"


def run(argv: list[str], cache: str) -> tuple[float, dict]:
    """Seconds of one command as a whole process, and its JSON result."""
    t0 = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, env={**_env(), "CPWORDS_CACHE_DIR": cache})
    seconds = time.perf_counter() - t0
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({out.returncode}): {out.stderr[-400:]}")
    return seconds, json.loads(out.stdout)


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "CPWORDS_CLUSTER"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dict", default="common-20k", help="dictionary of the board count (default common-20k)")
    parser.add_argument("--runs", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--baseline", default=BASELINE, help=f"earlier revision to compare with (default {BASELINE})")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()
    here = str(Path(sys.executable).parent / "cpwords")
    base_args = ["board", "--count", "--dict", args.dict, "--seed", "1", "--json"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        old = baseline_cpwords(args.baseline, folder)
        try:
            cache = str(folder / "cache")
            paths = {
                "baseline: the kind's own pool, --workers 2": [str(old), *base_args, "--workers", "2"],
                "--workers 2": [here, *base_args, "--workers", "2"],
                "--checkpoint FILE --workers 2": [here, *base_args, "--workers", "2", "--checkpoint", "CKPT"],
                "--cluster local:2": [here, *base_args, "--cluster", "local:2"],
            }
            for command in (str(old), here):  # the dictionary read once by each before any timing
                subprocess.run([command, "dict", "info", args.dict], capture_output=True,
                               env={**_env(), "CPWORDS_CACHE_DIR": cache})
            times: dict[str, list[float]] = {name: [] for name in paths}
            ratios: dict[str, list[float]] = {name: [] for name in paths}
            counts: dict[str, set[int]] = {name: set() for name in paths}
            for r in range(args.runs):
                this_round = {}
                for name, argv in paths.items():
                    argv = [a.replace("CKPT", str(folder / f"run{r}.sqlite")) for a in argv]
                    seconds, result = run(argv, cache)
                    this_round[name] = seconds
                    times[name].append(seconds)
                    counts[name].add(result["count"])
                    print(f"round {r + 1}: {name}: {seconds:.2f} s, count {result['count']:,}", flush=True)
                base = this_round[next(iter(paths))]
                for name in paths:
                    ratios[name].append(this_round[name] / base)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder / "tree")],
                           capture_output=True)
    truth = counts[next(iter(paths))]
    assert len(truth) == 1 and all(c == truth for c in counts.values()), counts
    rows = [f"| {name} | {statistics.median(times[name]):.2f} s | {statistics.median(ratios[name]):.2f}× |"
            for name in paths]
    md = "\n".join([
        f"Board count of `{args.dict}` (okwddm, suffixes 2–3 letters, native engine): "
        f"**{next(iter(truth)):,}** boards modulo symmetry on every path. Each command is a whole "
        f"`cpwords … --json` process; medians of {args.runs} rounds, the commands in turn in each round; the "
        f"ratio is the median of the per-round ratios to the baseline (cpwords {args.baseline}, before the "
        "execution layer, whose board count ran its own multiprocessing pool). Target: every path within 1.25×.",
        "",
        "| path | wall (median) | ratio to the baseline |",
        "|---|---|---|",
        *rows,
    ])
    print(md)
    if not args.no_write:
        write_section("parallel", md)


if __name__ == "__main__":
    main()
