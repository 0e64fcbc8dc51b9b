"""The first use of a dictionary as a user meets it: each kind's command from an empty cache at
``--time-limit 2``, whole process, against the code before issue 24's last stop, in the same run.

Two dictionaries: the built-in scowl-95 (425,000 words) and a user's list of two million
word-like strings (the issue's "big user dictionary", made here from a seed). Each command runs
with a fresh empty cache folder, the two checkouts taking turns; the figure is the median whole
command time of ``--runs`` runs, with the status the command printed (``unknown`` when the limit
ended a one-time build, which the message then names). Start-up (``python -c "import cpwords.cli"``
and the engines) is measured too: the promise is the limit plus a second on top of it.

The baseline is commit :data:`BASELINE`, checked out into a temporary git worktree and run with
its folder first on ``sys.path`` (the same interpreter and packages; see :data:`LAUNCH`).

    python benchmarks/bench_first_use.py                 # 3 runs (scowl-95), 2 runs (2M list)
    python benchmarks/bench_first_use.py --write         # and write its section of docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import write_section

BASELINE = "5e39b89"
ROOT = Path(__file__).resolve().parent.parent
LIMIT = 2.0
#: A command of the baseline that runs longer than this is stopped and shown as "> N s".
CAP_S = 60.0
COMMANDS = {
    "ladder": ["ladder", "cold", "warm"],
    "ruzzle": ["ruzzle", "serst", "alpet", "inrat", "edsol", "mocer"],
    "letter-boxed": ["letter-boxed", "lme", "iuf", "wcb", "oas"],
    "spelling-bee": ["spelling-bee", "aeinrst", "--center", "e"],
    "grid 5×5": ["grid", "--shape", "gridle-5x5"],
    "board": ["board", "--generate", "1", "--seed", "1"],
}


def big_list(folder: Path, count: int = 2_000_000) -> Path:
    """Two million distinct word-like strings (English letter frequencies) and a few real words."""
    rng = random.Random(24)
    letters = "eeeeeeeeeeeettttttttaaaaaaaaoooooooiiiiiiinnnnnnnssssssrrrrrrhhhhhlllldddcccuuummmwwffggyyppbbvk"
    words = {"cold", "cord", "card", "ward", "warm", "word", "worm", "wore", "core"}
    while len(words) < count:
        words.add("".join(rng.choices(letters, k=rng.randint(3, 10))))
    path = folder / "big-2m.txt"
    path.write_text("\n".join(words) + "\n")
    return path


#: Runs ``cpwords`` from the checkout given first, whatever is installed (an editable install's
#: finder would otherwise win over ``sys.path``).
LAUNCH = ("import runpy, sys; code = sys.argv.pop(1); "
          "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]; "
          "sys.path.insert(0, code); sys.argv[0] = 'cpwords'; runpy.run_module('cpwords', run_name='__main__')")


def run(code: Path, argv: list[str], scratch: Path) -> tuple[float, str]:
    """(seconds, status) of one command of the checkout ``code``, from an empty cache."""
    cache = Path(tempfile.mkdtemp(dir=scratch))
    # every run from an empty cache: no build finished in the background for the next one
    env = {**os.environ, "CPWORDS_CACHE_DIR": str(cache), "CPWORDS_NO_BACKGROUND_BUILDS": "1"}
    t0 = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", LAUNCH, str(code), *argv, "--time-limit", str(LIMIT), "--json"],
                              capture_output=True, text=True, env=env, timeout=CAP_S, check=False)
    except subprocess.TimeoutExpired:
        return CAP_S, "killed"
    took = time.monotonic() - t0
    try:
        status = json.loads(done.stdout)["status"]
    except (ValueError, KeyError, TypeError):
        status = f"exit {done.returncode}"
    return took, status


def startup() -> float:
    code = "import cpwords.cli, cpwords.api, ortools.sat.python.cp_model, pysat.solvers, numpy, rich.table"
    times = []
    for _ in range(3):
        t0 = time.monotonic()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.monotonic() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--big-runs", type=int, default=2)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bench-first-use-"))
    before = scratch / "before"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(before), BASELINE], check=True)
    try:
        words = big_list(scratch)
        for code in (before, ROOT):
            which = subprocess.run([sys.executable, "-c", LAUNCH.replace("runpy.run_module('cpwords', run_name='__main__')",
                                    "import cpwords; print(cpwords.__file__)"), str(code)],
                                   capture_output=True, text=True, check=True).stdout.strip()
            assert which.startswith(str(code)), f"{code}: cpwords was imported from {which}"
        start = startup()
        rows = []
        for dictionary, runs in (("scowl-95", args.runs), (str(words), args.big_runs)):
            label = "scowl-95" if dictionary == "scowl-95" else "2,000,000-word list"
            for name, argv in COMMANDS.items():
                full = [*argv, "--dict", dictionary]
                figures: dict[str, list[tuple[float, str]]] = {"before": [], "now": []}
                for _ in range(runs):  # the two checkouts take turns
                    figures["before"].append(run(before, full, scratch))
                    figures["now"].append(run(ROOT, full, scratch))
                cells = []
                for side in ("before", "now"):
                    times = [t for t, _ in figures[side]]
                    statuses = sorted({s for _, s in figures[side]})
                    median = statistics.median(times)
                    shown = f"> {CAP_S:.0f} s" if "killed" in statuses else f"{median:.2f} s"
                    cells.append(f"{shown} ({', '.join(s for s in statuses if s != 'killed') or 'killed'})")
                rows.append(f"| {label} | {name} | {cells[0]} | {cells[1]} |")
                print(rows[-1], flush=True)
        md = "\n".join([
            "### The first use of a dictionary (issue 24, items 3 and 6; bench_first_use.py)",
            "",
            f"Whole command from an empty cache at `--time-limit {LIMIT:g}`, `--json`, medians of {args.runs} runs "
            f"(scowl-95) and {args.big_runs} (the list of two million word-like strings, made from a seed), "
            f"the two checkouts taking turns. *Before*: commit `{BASELINE}` (the start of this stop); "
            f"*now*: this commit. The status the command printed is in brackets: `unknown` when the limit "
            f"ended a one-time build (the message names it; the next run with more time builds and keeps it). "
            f"Start-up (Python and the engines' imports) on this machine: {start:.2f} s; the promise is "
            f"{LIMIT:g} s + 1 s on top of it ({start + LIMIT + 1:.2f} s).",
            "",
            "| dictionary | command | before | now |",
            "|---|---|---:|---:|",
            *rows,
        ])
        print(md)
        if args.write:
            write_section("first_use", md)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)], check=False)


if __name__ == "__main__":
    main()
