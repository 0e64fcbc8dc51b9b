"""Letter Boxed benchmark: cpwords' engines against a chain-enumeration baseline, in one run.

The baseline does what public solvers do: depth-first over chains of words (each word starting
with the last letter of the previous one), testing coverage with Python sets. It answers the
minimum by trying 1, 2, 3 words in turn, counts answers of up to 3 words (more is out of its
reach) and lists the 2-word answers.

Run ``python benchmarks/bench_letter_boxed.py`` (``--quick``: 5 puzzles, single runs). Figures go
to the ``letter_boxed`` section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._report import OWN_PEAK_KB, fmt_s, median_time, write_section
from cpwords import api
from cpwords.lexicon import load_lexicon
from cpwords.puzzles.letter_boxed.generate import random_box
from cpwords.puzzles.letter_boxed.words import Box, playable_words
from cpwords.puzzles.loading import parse_spec

KNOWN = [["lme", "iuf", "wcb", "oas"], ["paf", "uot", "mie", "xlr"]]
BASELINE_CAP_S = 30.0
SOLVER_CAP_S = 20.0  # time limit given to CP-SAT and SAT; a run that hits it is marked


def puzzle_set(count: int) -> list[list[str]]:
    """The two known boxes, then seeded random boxes of common letters (4 sides of 3)."""
    boxes = list(KNOWN)
    rng = random.Random(2024)
    while len(boxes) < count:
        boxes.append(random_box(rng, 4, 3))
    return boxes[:count]


# ------------------------------------------------------------------ the baseline


def baseline_chains(words: list[str], letters: set[str], k: int, *, first_only: bool = False,
                    deadline: float | None = None) -> int | None:
    """Number of answers of exactly k words by plain chain enumeration (None: past the deadline)."""
    by_first: dict[str, list[str]] = defaultdict(list)
    for w in words:
        by_first[w[0]].append(w)
    sets = {w: set(w) for w in words}
    found = 0
    steps = 0

    def extend(chain: list[str], covered: set[str]) -> bool:
        nonlocal found, steps
        steps += 1
        if deadline is not None and steps % 4096 == 0 and time.monotonic() > deadline:
            raise TimeoutError
        if len(chain) == k:
            if covered == letters:
                found += 1
                return first_only
            return False
        if covered == letters:
            return False  # a shorter answer: not an answer of k words
        for w in by_first[chain[-1][-1]]:
            if w not in chain and extend(chain + [w], covered | sets[w]):
                return True
        return False

    try:
        for w in words:
            if extend([w], sets[w]):
                break
    except TimeoutError:
        return None
    return found


def baseline_min(words: list[str], letters: set[str]) -> int | None:
    deadline = time.monotonic() + BASELINE_CAP_S
    for k in (1, 2, 3):
        got = baseline_chains(words, letters, k, first_only=True, deadline=deadline)
        if got is None:
            return None
        if got:
            return k
    return None


# ------------------------------------------------------------------ the run


def solve_time(fields: dict, repeat: int) -> tuple[float, Any]:
    """Median wall time of ``repeat`` solves (after one warm-up solve whose result is returned)."""
    if fields.get("engine") in ("cpsat", "sat"):
        fields = {**fields, "time_limit": SOLVER_CAP_S}
    spec = parse_spec({"kind": "letter_boxed", **fields})
    result = api.solve(spec, seed=1, check=False)
    if repeat <= 1 or result.stats["wall_s"] > 1.0:  # slow runs vary little: one is enough
        return result.stats["wall_s"], result
    return median_time(lambda: api.solve(spec, seed=1, check=False), repeat), result


def shown(seconds: float, result: Any) -> str:
    """A time, marked when the solver stopped at its limit without proving the answer."""
    return fmt_s(seconds) + ("" if result.status.value in ("optimal", "infeasible") else " (limit)")


# ------------------------------------------------------------------ growth with the size of the box

GROWTH_CAP_S = 30.0
_RUN_ONE = """
import json, resource, sys, time
import cpwords
spec = json.loads(sys.argv[1])
t0 = time.perf_counter()
result = cpwords.solve(spec, check=False)
rss = max(own_peak_kb(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(json.dumps({"seconds": time.perf_counter() - t0, "rss_mb": rss / 1024,
                  "status": result.status.value, "objective": result.objective, "count": result.count,
                  "letters": getattr(result.solutions[0], "letters", None) if result.solutions else None}))
"""


def run_fresh(fields: dict) -> dict:
    """One solve in a fresh process (its peak memory is its own), capped at GROWTH_CAP_S."""
    import json
    import subprocess

    spec = {"kind": "letter_boxed", "time_limit": GROWTH_CAP_S, "seed": 1, **fields}
    out = subprocess.run([sys.executable, "-c", OWN_PEAK_KB + _RUN_ONE, json.dumps(spec)], capture_output=True, text=True,
                         timeout=GROWTH_CAP_S + 120, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def growth(runs: int) -> str:
    """Time and peak memory against the letters of the box (3 letters a side, 3 to 6 sides), per
    engine: the fewest words, and the native count of answers up to 5 words; medians of ``runs``
    seeded boxes per size. Writes docs/plots/letter_boxed_growth_{time,memory}.png."""
    sizes = (3, 4, 5, 6)
    series = {"native": "min_words", "cpsat": "min_words", "sat": "min_words", "native count ≤ 5": "count"}
    table: dict[str, dict[int, tuple[float, float, int]]] = defaultdict(dict)
    for sides_n in sizes:
        boxes = [random_box(random.Random(100 * sides_n + r), sides_n, 3) for r in range(runs)]
        for name, task in series.items():
            engine = name.split()[0]
            got = [run_fresh({"sides": box, "engine": engine, "task": task, "max_words": 5}) for box in boxes]
            capped = sum(1 for g in got if g["status"] not in ("optimal", "infeasible"))
            table[name][3 * sides_n] = (statistics.median(g["seconds"] for g in got),
                                        statistics.median(g["rss_mb"] for g in got), capped)
            print(name, 3 * sides_n, table[name][3 * sides_n], [g["objective"] for g in got], flush=True)
    _plot_growth(table, sizes)
    head = "| engine, task | " + " | ".join(f"{3 * n} letters" for n in sizes) + " |"
    rows = [head, "|---|" + "---:|" * len(sizes)]
    for name, by_size in table.items():
        cells = []
        for n in sizes:
            t, mb, capped = by_size[3 * n]
            cells.append(f"{fmt_s(t)}, {mb:,.0f} MB" + (f" ({capped} of {runs} at the limit)" if capped else ""))
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


HARD_BOX = ["lrt", "cpu", "yoe", "nhw", "qia"]
#: Seeds of the 18-letter boxes of :func:`big_boxes`: about half have their best answer at the
#: letter bound n + k - 1, half above it (the tie-break then searches with excess).
BIG_BOX_SEEDS = range(1000, 1012)


def big_boxes() -> str:
    """The fewest words of twelve seeded 18-letter boxes (6 sides of 3, ``scowl-70``) by each
    engine in a fresh process (time limit GROWTH_CAP_S): a row per box, then the medians of the
    boxes answered at the bound and of those above it."""
    rows = ["| box | words, letters (bound) | native | cpsat | sat |", "|---|---|---:|---:|---:|"]
    by_group: dict[str, dict[str, list[float]]] = {"at the bound": defaultdict(list), "above it": defaultdict(list)}
    worst: dict[str, tuple[float, float]] = {}
    for seed in BIG_BOX_SEEDS:
        box = random_box(random.Random(seed), 6, 3)
        got = {e: run_fresh({"sides": box, "engine": e, "task": "min_words", "max_words": 5})
               for e in ("native", "cpsat", "sat")}
        words, letters = got["native"]["objective"], got["native"]["letters"]
        for e, g in got.items():
            assert g["status"] != "optimal" or (g["objective"], g["letters"]) == (words, letters), (box, e, g)
        bound = 18 + words - 1
        group = by_group["at the bound" if letters == bound else "above it"]
        cells = []
        for e, g in got.items():
            group[e].append(g["seconds"])
            worst[e] = max(worst.get(e, (0.0, 0.0)), (g["seconds"], g["rss_mb"]))
            cells.append(f"{fmt_s(g['seconds'])}, {g['rss_mb']:,.0f} MB" + ("" if g["status"] == "optimal" else " (limit)"))
        rows.append(f"| {' '.join(box)} | {words}, {letters} ({bound}) | " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
    rows += ["", "| boxes | n | native | cpsat | sat |", "|---|---:|---:|---:|---:|"]
    for name, times in by_group.items():
        if times:
            rows.append(f"| {name} | {len(times['native'])} | " + " | ".join(
                fmt_s(statistics.median(times[e])) for e in ("native", "cpsat", "sat")) + " |")
    rows.append("| slowest (its peak RSS) | 12 | " + " | ".join(
        f"{fmt_s(worst[e][0])} ({worst[e][1]:,.0f} MB)" for e in ("native", "cpsat", "sat")) + " |")
    return "\n".join(rows)


def hard_box() -> str:
    """The fewest words of HARD_BOX by each engine (fresh processes): a table."""
    rows = ["| engine | time | peak RSS | status | words, letters |", "|---|---:|---:|---|---|"]
    for engine in ("native", "cpsat", "sat"):
        got = run_fresh({"sides": HARD_BOX, "engine": engine, "task": "min_words", "max_words": 5})
        rows.append(f"| {engine} | {fmt_s(got['seconds'])} | {got['rss_mb']:,.0f} MB | {got['status']} | "
                    f"{got['objective']}, {got['letters']} |")
        print(rows[-1], flush=True)
    return "\n".join(rows)


def _plot_growth(table: dict[str, dict[int, tuple[float, float, int]]], sizes: tuple[int, ...]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plots = Path(__file__).resolve().parent.parent / "docs" / "plots"
    plots.mkdir(parents=True, exist_ok=True)
    for what, index, label in (("time", 0, "seconds (median)"), ("memory", 1, "peak RSS, MB (median)")):
        fig, ax = plt.subplots(figsize=(6, 4))
        for name, by_size in table.items():
            xs = [3 * n for n in sizes]
            ax.plot(xs, [by_size[x][index] for x in xs], marker="o", label=name)
        ax.set_xlabel("letters on the box (3 a side)")
        ax.set_ylabel(label)
        if what == "time":
            ax.set_yscale("log")
            ax.axhline(GROWTH_CAP_S, color="grey", linestyle=":", linewidth=1)
        ax.set_title(f"Letter Boxed: {what} against the size of the box (scowl-70)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(plots / f"letter_boxed_growth_{what}.png", dpi=100)
        plt.close(fig)


def minimum_only(n_puzzles: int) -> str:
    """Median time of the fewest words per engine on the benchmark boxes, with a time limit set."""
    times: dict[str, list[float]] = defaultdict(list)
    for sides in puzzle_set(n_puzzles):
        objectives = set()
        for engine in ("native", "cpsat", "sat"):
            t, result = solve_time({"sides": sides, "engine": engine}, 3)
            assert result.status.value == "optimal", (sides, engine, result.message)
            objectives.add((result.objective, result.solutions[0].letters))
            times[engine].append(t)
        assert len(objectives) == 1, (sides, objectives)
    return "\n".join(["| engine | fewest words (and fewest letters), median over boxes |", "|---|---:|"]
                     + [f"| {e} | {fmt_s(statistics.median(v))} |" for e, v in times.items()])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="5 puzzles, single runs")
    parser.add_argument("--growth", action="store_true",
                        help="only the fewest-words medians and the growth curves (section letter_boxed_growth)")
    args = parser.parse_args()
    if args.growth:
        runs = 1 if args.quick else 3
        minimum = minimum_only(5 if args.quick else 20)
        curves = growth(runs)
        hard = hard_box()
        big = big_boxes()
        text = f"""
#### Letter Boxed: fewest words with a time limit, and cost against the size of the box

Load average when the run ended: {os.getloadavg()[0]:.1f}. The fewest words (ties by fewest letters)
on the {5 if args.quick else 20} benchmark boxes above, every engine given a {SOLVER_CAP_S:.0f} s time limit (median of 3 runs a
box, medians over boxes; each answer agreed between engines). CP-SAT and SAT get the words each
position of a k-word answer can hold (a relaxation over covered-letter sets, `reach.py`), and ask
each word count k first for an answer at the letter bound n + k - 1 (an exact-cover model that,
when it has an answer, settles the tie-break too):

{minimum}

Growth: boxes of 3 letters a side, 3 to 6 sides, seeded random letters, `scowl-70`, {runs} boxes a
size (medians), each solve in a fresh process (peak RSS includes Python and the dictionary, about
100 MB; the larger of the process and its forked solver children), time limit {GROWTH_CAP_S:.0f} s. Plots: [time](plots/letter_boxed_growth_time.png),
[memory](plots/letter_boxed_growth_memory.png).

{curves}

The hard 15-letter box `{" ".join(HARD_BOX)}` (3 words and 17 letters, the bound 15 + 3 - 1:
the tie-break took the solvers most of their time before the bound model), each engine in a
fresh process, time limit {GROWTH_CAP_S:.0f} s:

{hard}

Twelve more 18-letter boxes (seeds {BIG_BOX_SEEDS.start}–{BIG_BOX_SEEDS.stop - 1}, fresh processes, time limit {GROWTH_CAP_S:.0f} s, time and
peak RSS). When the best answer lies above the bound, CP-SAT and SAT first prove that no answer
reaches the bound, find any answer of that many words, then ask for answers with 1, 2, ...
letters of excess until one exists:

{big}
"""
        print(text)
        if not args.quick:
            write_section("letter_boxed_growth", text)
        return
    n_puzzles, fast_repeat, slow_repeat = (5, 1, 1) if args.quick else (20, 5, 3)
    lexicon = load_lexicon("scowl-70")
    rows, figures = [], defaultdict(list)
    for sides in puzzle_set(n_puzzles):
        words = playable_words(Box.from_sides(sides), lexicon).words
        letters = set("".join(sides))
        base = {"sides": sides}
        t_native, r_native = solve_time({**base, "engine": "native"}, fast_repeat)
        t_cpsat, r_cpsat = solve_time({**base, "engine": "cpsat"}, slow_repeat)
        t_sat, r_sat = solve_time({**base, "engine": "sat"}, 1)
        for other in (r_cpsat, r_sat):
            assert other.status.value != "optimal" or other.objective == r_native.objective, sides
        t0 = time.perf_counter()
        b_min = baseline_min(words, letters)
        t_base_min = time.perf_counter() - t0
        t_count5, r_count5 = solve_time({**base, "task": "count", "max_words": 5}, fast_repeat)
        t_count3, r_count3 = solve_time({**base, "task": "count", "max_words": 3}, fast_repeat)
        t0 = time.perf_counter()
        deadline = time.monotonic() + BASELINE_CAP_S
        b_counts = [baseline_chains(words, letters, k, deadline=deadline) for k in (1, 2, 3)]
        t_base_count3 = time.perf_counter() - t0
        if None not in b_counts:
            assert b_counts == [r_count3.stats["count_by_words"][str(k)] for k in (1, 2, 3)], sides
        listing = {"task": "enumerate", "max_words": 2, "limit": None}
        t_list, r_list = solve_time({**base, **listing}, fast_repeat)
        t_list_cp, r_list_cp = solve_time({**base, **listing, "engine": "cpsat"}, 1)
        t_list_sat, r_list_sat = solve_time({**base, **listing, "engine": "sat"}, 1)
        t0 = time.perf_counter()
        b_two = baseline_chains(words, letters, 2)
        t_base_list = time.perf_counter() - t0
        assert b_two == r_list.count, sides
        figures["native"].append(t_native)
        figures["cpsat"].append(t_cpsat)
        figures["sat"].append(t_sat)
        figures["base_min"].append(t_base_min)
        figures["count5"].append(t_count5)
        figures["count3"].append(t_count3)
        figures["base_count3"].append(t_base_count3)
        figures["list"].append(t_list)
        figures["list_cp"].append(t_list_cp)
        figures["list_sat"].append(t_list_sat)
        figures["base_list"].append(t_base_list)
        count5 = r_count5.stats["count_by_words"]
        rows.append(
            f"| {' '.join(s.upper() for s in sides)} | {len(words)} | {r_native.objective} "
            f"{'' if b_min == r_native.objective else '(baseline: ' + str(b_min) + ')'}| "
            f"{fmt_s(t_native)} | {shown(t_cpsat, r_cpsat)} | {shown(t_sat, r_sat)} | "
            f"{fmt_s(t_base_min) + ('' if b_min is not None else ' (gave up)')} | "
            f"{int(count5['2']):,} / {int(count5['3']):,} / {int(count5['4']):,} / {int(count5['5']):,} | "
            f"{fmt_s(t_count5)} | {fmt_s(t_base_count3) + ('' if None not in b_counts else ' (cap)')} | "
            f"{fmt_s(t_list)} | {shown(t_list_cp, r_list_cp)} | {shown(t_list_sat, r_list_sat)} | {fmt_s(t_base_list)} |"
        )
        print(rows[-1], flush=True)

    def med(key: str) -> float:
        return statistics.median(figures[key])

    def ratio(a: str, b: str) -> str:
        r = statistics.median(x / y for x, y in zip(figures[a], figures[b], strict=True))
        return f"{r:.1f}×" if r >= 1 else f"{r:.2g}× (1/{1 / r:.0f})"

    text = f"""
Letter Boxed, {n_puzzles} boxes of 4 sides × 3 letters (the two known ones, then seeded random boxes
of common letters), dictionary `scowl-70`, word list already loaded; times are through
`cpwords.api.solve` (playable words included). Native figures are medians of {fast_repeat} runs, CP-SAT
minimum of {slow_repeat}, SAT and the baseline single runs (any run over 1 s is timed once); CP-SAT and SAT get a {SOLVER_CAP_S:.0f} s time limit
("(limit)": stopped before proving; medians then use the capped time, so they flatter those engines). The baseline is a plain chain enumeration like
public solvers (depth-first over word chains, Python sets for coverage; capped at {BASELINE_CAP_S:.0f} s).

| summary (median over boxes) | time | ratio baseline / cpwords |
|---|---:|---:|
| minimum, native (target ≤ 10 ms) | {fmt_s(med("native"))} | {ratio("base_min", "native")} |
| minimum, CP-SAT (target ≤ 2 s) | {fmt_s(med("cpsat"))} | {ratio("base_min", "cpsat")} |
| minimum, SAT (target ≤ 2 s) | {fmt_s(med("sat"))} | {ratio("base_min", "sat")} |
| minimum, baseline (1, 2, 3 words in turn) | {fmt_s(med("base_min"))} | 1× |
| exact count of answers up to 5 words, native (target ≤ 100 ms) | {fmt_s(med("count5"))} | baseline cannot |
| exact count up to 3 words, native | {fmt_s(med("count3"))} | {ratio("base_count3", "count3")} |
| count up to 3 words, baseline | {fmt_s(med("base_count3"))} | 1× |
| list all 2-word answers, native | {fmt_s(med("list"))} | {ratio("base_list", "list")} |
| list all 2-word answers, CP-SAT | {fmt_s(med("list_cp"))} | {ratio("base_list", "list_cp")} |
| list all 2-word answers, SAT | {fmt_s(med("list_sat"))} | {ratio("base_list", "list_sat")} |
| list all 2-word answers, baseline | {fmt_s(med("base_list"))} | 1× |

Per box (minimum: rank `letters`, so CP-SAT and SAT also prove the fewest-letters tie-break;
answers = exact numbers of 2 / 3 / 4 / 5-word answers):

| box | playable | min words | native | CP-SAT | SAT | baseline min | answers 2 / 3 / 4 / 5 words | count ≤ 5 native | count ≤ 3 baseline | list 2 native | list 2 CP-SAT | list 2 SAT | list 2 baseline |
|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|
""" + "\n".join(rows) + "\n"
    print(text)
    if not args.quick:
        write_section("letter_boxed", text)


if __name__ == "__main__":
    main()
