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
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._report import fmt_s, median_time, write_section
from cpwords import api
from cpwords.lexicon import load_lexicon
from cpwords.puzzles.letter_boxed.generate import random_box
from cpwords.puzzles.letter_boxed.words import Box, playable_words
from cpwords.specs import parse_spec

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


def solve_time(fields: dict, repeat: int) -> tuple[float, object]:
    """Median wall time of ``repeat`` solves (after one warm-up solve whose result is returned)."""
    if fields.get("engine") in ("cpsat", "sat"):
        fields = {**fields, "time_limit": SOLVER_CAP_S}
    spec = parse_spec({"kind": "letter_boxed", **fields})
    result = api.solve(spec, seed=1, check=False)
    if repeat <= 1 or result.stats["wall_s"] > 1.0:  # slow runs vary little: one is enough
        return result.stats["wall_s"], result
    return median_time(lambda: api.solve(spec, seed=1, check=False), repeat), result


def shown(seconds: float, result: object) -> str:
    """A time, marked when the solver stopped at its limit without proving the answer."""
    return fmt_s(seconds) + ("" if result.status.value in ("optimal", "infeasible") else " (limit)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="5 puzzles, single runs")
    args = parser.parse_args()
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
