"""Letter Boxed native count of every answer of up to 5 words on big boxes: by blocks of letter sets
against listing the answers (what boxes of more than 16 letters did before), in one run.

For 15- and 18-letter boxes (3 letters a side, the seeded boxes of ``bench_letter_boxed.py
--growth``, ``scowl-70``), each count runs in a fresh process (its peak memory is its own):

- *blocks*: today's count (``counting.count_answers``: inclusion–exclusion, 2^11 letter sets a block);
- *listing*: the same task with exact counting switched off (``counting.MAX_COUNT_LETTERS = 0``), so
  the answers are enumerated and counted one by one, capped at ``--cap`` seconds (default 30).

Both must give the same total when listing finishes. Run ``python benchmarks/bench_letter_boxed_count.py``
(about 4 minutes on 2 cores; ``--boxes 1`` for a quick look); ``--write`` puts the table in the
``letter_boxed_count`` section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import OWN_PEAK_KB, fmt_s, write_section

_RUN_ONE = """
import json, resource, sys, time
import cpwords
from cpwords.puzzles.letter_boxed import counting
spec, method = json.loads(sys.argv[1]), sys.argv[2]
if method == "listing":
    counting.MAX_COUNT_LETTERS = 0
t0 = time.perf_counter()
result = cpwords.solve(spec, check=False)
print(json.dumps({"seconds": time.perf_counter() - t0, "rss_mb": own_peak_kb() / 1024,
                  "status": result.status.value, "count": result.count, "method": result.stats.get("method")}))
"""


def run(sides: list[str], method: str, cap: float) -> dict:
    """One count in a fresh process."""
    spec = {"kind": "letter_boxed", "sides": sides, "task": "count", "engine": "native", "max_words": 5,
            "dictionary": "scowl-70", "time_limit": cap, "seed": 1}
    out = subprocess.run([sys.executable, "-c", OWN_PEAK_KB + _RUN_ONE, json.dumps(spec), method], capture_output=True, text=True,
                         timeout=cap + 120, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    from cpwords.puzzles.letter_boxed.generate import random_box

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boxes", type=int, default=3, help="boxes per size (default 3)")
    parser.add_argument("--cap", type=float, default=30.0, help="seconds allowed to listing (default 30)")
    parser.add_argument("--write", action="store_true", help="write the letter_boxed_count section of docs/benchmarks.md")
    args = parser.parse_args()
    rows = []
    for sides_n in (5, 6):
        boxes = [random_box(random.Random(100 * sides_n + r), sides_n, 3) for r in range(args.boxes)]
        got: dict[str, list[dict]] = {"blocks": [], "listing": []}
        for box in boxes:
            for method in ("blocks", "listing"):
                got[method].append(run(box, method, args.cap))
                print(3 * sides_n, " ".join(box), method, got[method][-1], flush=True)
            blocks, listing = got["blocks"][-1], got["listing"][-1]
            assert blocks["status"] == "optimal" and blocks["method"] == "inclusion-exclusion"
            if listing["status"] == "optimal":
                assert listing["count"] == blocks["count"], (box, listing, blocks)
        finished = [g for g in got["listing"] if g["status"] == "optimal"]

        def med(method: str, key: str, got: dict[str, list[dict]] = got) -> float:
            return statistics.median(g[key] for g in got[method])

        listing_time = (fmt_s(med("listing", "seconds")) if len(finished) == len(boxes)
                        else f"> {args.cap:g} s ({len(boxes) - len(finished)} of {len(boxes)} cut at the cap)")
        rows.append(f"| {3 * sides_n} | {' · '.join(' '.join(b) for b in boxes)} | "
                    f"{statistics.median(g['count'] for g in got['blocks']):,.0f} | **{fmt_s(med('blocks', 'seconds'))}**, "
                    f"{med('blocks', 'rss_mb'):,.0f} MB | {listing_time}, {med('listing', 'rss_mb'):,.0f} MB | "
                    f"**×{med('listing', 'seconds') / med('blocks', 'seconds'):,.0f}**"
                    + ("" if len(finished) == len(boxes) else " (at least)") + " |")
    md = "\n".join([
        "### Letter Boxed: native count of every answer of up to 5 words on big boxes",
        "",
        f"Load average when the run ended: {os.getloadavg()[0]:.1f}. Run: `python benchmarks/bench_letter_boxed_count.py`. "
        f"`scowl-70`, 3 letters a side, {args.boxes} seeded boxes a size (those of the growth curves), each count in a "
        "fresh process (peak RSS its own); medians. *blocks*: today's exact count, inclusion–exclusion over the "
        "letter sets 2^11 at a time; *listing*: the same task counting the answers one by one (the method for "
        f"boxes of more than 16 letters before), capped at {args.cap:g} s. Target: 18 letters ≤ 10 s within 1 GB.",
        "",
        "| letters | boxes | median answers (≤ 5 words) | blocks | listing | listing ÷ blocks |",
        "|---:|---|---:|---:|---:|---:|",
        *rows,
    ])
    print(md)
    if args.write:
        write_section("letter_boxed_count", md)


if __name__ == "__main__":
    main()
