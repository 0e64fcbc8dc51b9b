"""The first use of a dictionary by the word ladder: this checkout against an older one, same run.

For each dictionary, alternating between the two checkouts, ``--repeat`` times (medians reported):

- *index build*: ``build_index(load_lexicon(name))`` in a fresh process (the lexicon load not timed);
  for this checkout also the landmark tables of the group a ``cold -> warm`` search needs, which
  it makes on first use (the older one made every group's inside the build);
- *cold command*: the wall time of ``cpwords ladder cold warm --dict NAME --time-limit 1`` (mode
  ``both``: shortest and common ladders) from an empty cache folder, as a user runs it.

Each process runs with ``PYTHONPATH`` set to its checkout and its working folder outside both, so
the code measured is the code named. Make the older checkout with ``git worktree add --detach
/tmp/old-main <commit>``.

Run: ``python benchmarks/bench_ladder_cold.py --baseline /tmp/old-main [--repeat 3] [--write]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

_BUILD = """
import json, sys, time
from cpwords.lexicon import load_lexicon
from cpwords.puzzles.ladder.index import build_index
lexicon = load_lexicon(sys.argv[1])
t0 = time.perf_counter()
index = build_index(lexicon)
build = time.perf_counter() - t0
t0 = time.perf_counter()
if callable(getattr(index, "landmarks", None)):
    index.landmarks(index.group_of("cold"))  # what the common-words search adds on first use
print(json.dumps({"build": build, "landmarks": time.perf_counter() - t0}))
"""


def _env(tree: Path, cache: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree), "CPWORDS_CACHE_DIR": cache}


def measure_build(tree: Path, name: str) -> dict[str, float]:
    """Seconds of the index build (and of the group's landmark tables made after it) in a fresh process."""
    with tempfile.TemporaryDirectory() as cache:
        out = subprocess.run([sys.executable, "-c", _BUILD, name], env=_env(tree, cache), cwd=cache,
                             capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def measure_command(tree: Path, name: str) -> float:
    """Wall seconds of the whole cold ladder command from an empty cache."""
    with tempfile.TemporaryDirectory() as cache:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cpwords", "ladder", "cold", "warm", "--dict", name,
                        "--time-limit", "1"], env=_env(tree, cache), cwd=cache, capture_output=True, check=True)
        return time.perf_counter() - t0


def _commit(tree: Path) -> str:
    out = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return out.stdout.strip() + (" (with uncommitted changes)" if dirty else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="checkout of the older code")
    parser.add_argument("--dicts", nargs="+", default=["scowl-80", "scowl-95"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="write the section of docs/benchmarks.md")
    args = parser.parse_args()
    trees = {"before": args.baseline.resolve(), "now": HERE}
    rows = []
    for name in args.dicts:
        runs: dict[str, dict[str, list[float]]] = {k: {"build": [], "landmarks": [], "command": []} for k in trees}
        for r in range(args.repeat):
            for label in (list(trees) if r % 2 == 0 else list(trees)[::-1]):  # alternate who goes first
                built = measure_build(trees[label], name)
                runs[label]["build"].append(built["build"])
                runs[label]["landmarks"].append(built["landmarks"])
                runs[label]["command"].append(measure_command(trees[label], name))
                print(name, label, {k: round(v[-1], 2) for k, v in runs[label].items()}, flush=True)
        med = {label: {k: statistics.median(v) for k, v in runs[label].items()} for label in trees}
        rows.append((name, med))
    import numpy

    lines = [
        f"Commits: before `{_commit(trees['before'])}`, now `{_commit(trees['now'])}`; numpy {numpy.__version__}. "
        f"Medians of {args.repeat} runs each, the two checkouts alternating in the same run, on a machine "
        "shared with other work (`nice -n 10`). *Index build*: `build_index` in a fresh process (before: links, "
        "groups and every group's landmark tables; now: links and groups, plus the landmark tables of the "
        "group of `cold`, which a common-words search makes on first use). *Cold command*: "
        "`cpwords ladder cold warm --dict NAME --time-limit 1` from an empty cache folder, whole process.",
        "",
        "| dictionary | index build before | now (+ landmarks of one group) | ratio | cold command before | now "
        "| ratio |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, med in rows:
        b, n = med["before"], med["now"]
        lines.append(f"| {name} | {b['build']:.2f} s | {n['build']:.2f} s (+ {n['landmarks']:.2f} s) "
                     f"| {b['build'] / (n['build'] + n['landmarks']):.1f}x | {b['command']:.2f} s "
                     f"| {n['command']:.2f} s | {b['command'] / n['command']:.1f}x |")
    lines += ["", "The *first build* figure of the Word ladders section above was measured before the landmark "
              "tables moved out of the build. Run: `git worktree add --detach /tmp/old-main <commit>; python "
              "benchmarks/bench_ladder_cold.py --baseline /tmp/old-main --write`."]
    text = "### Word ladders: the first use of a dictionary (bench_ladder_cold.py)\n\n" + "\n".join(lines)
    print(text)
    print(f"(Python {platform.python_version()})")
    if args.write:
        sys.path.insert(0, str(HERE))
        from benchmarks._report import write_section

        write_section("ladder-cold", text)


if __name__ == "__main__":
    main()
