"""Benchmark: how fast cpwords starts (issue 36, start-up), against an earlier commit in one run.

Each command is a whole fresh process, ``python -m cpwords …``, on a warm cache (every command runs
once untimed first). The earlier cpwords (``--baseline REV``, default the commit before the work on
start-up) runs from a git worktree of that revision put first on ``PYTHONPATH``; this tree the same
way. The two alternate run by run; a command's time is the median of its runs, its ratio the median
of the per-pair ratios (now ÷ before). Figures go to docs/benchmarks.md (section ``startup``).

Run ``python benchmarks/bench_startup.py`` (``--runs 7``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._report import write_section

ROOT = Path(__file__).resolve().parent.parent
#: The commit before the work on start-up.
BASELINE = "3675a24"
#: Command -> the issue's target for its whole process on a quiet machine (seconds), or None.
COMMANDS: dict[tuple[str, ...], float | None] = {
    ("--help",): 0.08,
    ("--version",): None,
    ("ladder", "cold", "warm"): 0.15,
    ("letter-boxed", "lme", "iuf", "wcb", "oas"): 0.2,
}


def timed(tree: Path, argv: tuple[str, ...], cwd: str) -> float:
    """Wall seconds of ``python -m cpwords ARGV`` with ``tree`` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("CPWORDS_EXTRA_KINDS", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled once in the warm-up, as pip compiles an install
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "cpwords", *argv], capture_output=True, env=env, cwd=cwd)
    seconds = time.perf_counter() - t0
    if out.returncode not in (0, 1):
        raise SystemExit(f"cpwords {' '.join(argv)} failed ({out.returncode}): {out.stderr[-400:]!r}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each command with each version (default 7)")
    parser.add_argument("--baseline", default=BASELINE, help=f"earlier revision (default {BASELINE})")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(before), args.baseline],
                       check=True, capture_output=True)
        try:
            rows = []
            for argv, target in COMMANDS.items():
                for tree in (before, ROOT):  # the cache warm, the files read once
                    timed(tree, argv, tmp)
                pairs = []
                for r in range(args.runs):
                    order = [(before, "before"), (ROOT, "now")] if r % 2 == 0 else [(ROOT, "now"), (before, "before")]
                    pair = {which: timed(tree, argv, tmp) for tree, which in order}
                    pairs.append(pair)
                    print(f"cpwords {' '.join(argv)}: before {pair['before']:.3f} s, now {pair['now']:.3f} s",
                          flush=True)
                was = statistics.median(p["before"] for p in pairs)
                now = statistics.median(p["now"] for p in pairs)
                ratio = statistics.median(p["now"] / p["before"] for p in pairs)
                goal = f"≤ {target:g} s" + (" (met)" if now <= target else " (missed)") if target else "–"
                rows.append(f"| `cpwords {' '.join(argv)}` | {was:.3f} s | {now:.3f} s | **{ratio:.2f}** | {goal} |")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)], capture_output=True)
    md = "\n".join([
        "### Start-up: whole commands, fresh processes, warm cache",
        "",
        f"`python -m cpwords …` of the cpwords before ({args.baseline}) and now, alternating, {args.runs} runs each; "
        "medians; the ratio is the median of the per-pair ratios (now ÷ before). Targets of issue 36 for a quiet "
        f"machine. Run: `python benchmarks/bench_startup.py --runs {args.runs}`.",
        "",
        "| command | before | now | now ÷ before | target |",
        "|---|---:|---:|---:|---|",
        *rows,
    ])
    print(md)
    if not args.no_write:
        write_section("startup", md)


if __name__ == "__main__":
    main()
