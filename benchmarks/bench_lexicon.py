"""Benchmark: loading ``scowl-80`` in a fresh process, against plain ways of reading the same words.

Every figure is the median of several fresh Python processes (each runs the timed code once, so
nothing is warm but the OS file cache). Baselines, measured in the same run:

* raw SCOWL: read ``english-words.L`` + ``american-words.L`` for L <= 80 (Latin-1) and keep the
  lowercase ``[a-z]+`` words in a set, as a script without cpwords would (words only: no levels);
* plain list: ``set(open(f).read().split())`` of a text file holding the same 242,844 words.

Usage: ``python3 benchmarks/bench_lexicon.py [--runs N] [--no-write]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks._report import fmt_s, write_section

SCOWL = Path("/usr/share/dict/scowl")

CPWORDS = """
import time, json
t0 = time.perf_counter()
from cpwords.lexicon import load_lexicon, define
t1 = time.perf_counter()
lex = load_lexicon("scowl-80")
t2 = time.perf_counter()
lex.rareness_map()
t3 = time.perf_counter()
lex.by_length(5)
t4 = time.perf_counter()
define("silver")
t5 = time.perf_counter()
load_lexicon("scowl-80")
t6 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "rareness_map": t3 - t2, "by_length": t4 - t3,
                  "define_first": t5 - t4, "load_again": t6 - t5, "n": len(lex)}))
"""

RAW_SCOWL = """
import time, json, re
t0 = time.perf_counter()
word = re.compile(r"[a-z]+")
words = set()
for level in (10, 20, 35, 40, 50, 55, 60, 70, 80):
    for part in ("english", "american"):
        with open(f"{DIR}/{part}-words.{level}", encoding="latin-1") as f:
            words.update(w for w in f.read().split("\\n") if word.fullmatch(w))
print(json.dumps({"load": time.perf_counter() - t0, "n": len(words)}))
"""

PLAIN = """
import time, json
t0 = time.perf_counter()
words = set(open(PATH).read().split())
print(json.dumps({"load": time.perf_counter() - t0, "n": len(words)}))
"""


def run(code: str, runs: int) -> dict[str, float]:
    """Median of each figure the snippet prints, over ``runs`` fresh processes."""
    samples: list[dict[str, float]] = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
        samples.append(json.loads(out.stdout))
    return {k: statistics.median(s[k] for s in samples) for k in samples[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()

    ours = run(CPWORDS, args.runs)
    rows = [("cpwords `load_lexicon('scowl-80')` (first in process)", ours["load"], ours["n"])]
    with tempfile.TemporaryDirectory() as tmp:
        from cpwords.lexicon import load_lexicon

        plain = Path(tmp) / "scowl-80.txt"
        plain.write_text("\n".join(load_lexicon("scowl-80")) + "\n")
        base_plain = run(PLAIN.replace("PATH", repr(str(plain))), args.runs)
    rows.append(("plain list: `set(open(f).read().split())`", base_plain["load"], base_plain["n"]))
    if SCOWL.is_dir():
        base_raw = run(RAW_SCOWL.replace("{DIR}", str(SCOWL)), args.runs)
        rows.append(("raw SCOWL level files (Latin-1, filtered)", base_raw["load"], base_raw["n"]))

    lines = [
        f"Loading `scowl-80`: median of {args.runs} fresh processes each. cpwords also decodes the",
        "level and zipf of every word (all 435,735 SCOWL words of both variants) and builds the",
        "membership set; the baselines get the words only.",
        "",
        "| what | median | words | ratio to cpwords |",
        "|---|---:|---:|---:|",
    ]
    for label, seconds, n in rows:
        lines.append(f"| {label} | {fmt_s(seconds)} | {int(n):,} | {seconds / ours['load']:.2f} |")
    lines += [
        "",
        "Other figures of the same cpwords processes (medians):",
        "",
        "| step | median |",
        "|---|---:|",
        f"| `import cpwords.lexicon` | {fmt_s(ours['import'])} |",
        f"| `rareness_map()` of scowl-80 | {fmt_s(ours['rareness_map'])} |",
        f"| first `by_length(5)` | {fmt_s(ours['by_length'])} |",
        f"| first `define('silver')` (loads the definitions) | {fmt_s(ours['define_first'])} |",
        f"| `load_lexicon('scowl-80')` again (per-process cache) | {fmt_s(ours['load_again'])} |",
    ]
    markdown = "\n".join(lines)
    print(markdown)
    if not args.no_write:
        write_section("lexicon", markdown)


if __name__ == "__main__":
    main()
