"""``best_board`` with a fixed time budget: the search as it was before issue 16 against today's, seed by seed.

Arms (each anneals from the same board with the same seeds; see ``cpwords/puzzles/ruzzle/annealing.py``):

- *before*: the search before issue 16's work: one cooling over all the moves, one board scored
  at a time with the trie walk (``scorer="reference"``, ``cycle_moves=None``);
- *array, one cooling*: the same single cooling, boards scored in batches by the array scorer
  (``BoardScorer.score_many``) — what the faster scorer alone gives (``--all-arms`` only);
- *now*: today's default: the array scorer and cooling in cycles of ``CYCLE_MOVES`` moves, each
  restarting hot from the best board so far.

Each arm first runs a short calibration chain to measure its moves per second; each then gets
``iterations`` = that rate × the budget × 0.85 (so that a single cooling ends within the budget) and
``time_limit`` = the budget. The arms take turns seed by seed. Figures: best score per seed and
their medians, moves made, and the throughput of the scoring loop (boards scored per second
spent scoring them).

- *climb*: hill climbing (``search: climb``, issue 27; ``--all-arms`` or ``--climb``): pools of boards
  improved by every one-cell change and swap, restarted until the budget ends.

``--best-boards`` measures instead how reliably the searches find the best Boggle boards known for
ENABLE2K (3×3 545, 3×4 1,651, 4×4 3,625, 5×5 10,406; ``bench_best_boards.py`` beside this file):
per size, each seed's chain stops at the target or at the size's budget.

    python benchmarks/bench_ruzzle_best_board.py              # 3 seeds x 60 s, before and now (~6.5 min)
    python benchmarks/bench_ruzzle_best_board.py --quick      # 2 seeds x 10 s
    python benchmarks/bench_ruzzle_best_board.py --all-arms --budget 30 --seeds 4
    python benchmarks/bench_ruzzle_best_board.py --best-boards --seeds 10 --baseline-seeds 3
    python benchmarks/bench_ruzzle_best_board.py --best-boards --seeds 10 --baseline-seeds 3 --workers 2
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import write_section

SPEC = {"kind": "ruzzle", "task": "best_board", "grid": ["RATE", "SONI", "LEND", "TRAP"], "bonuses": "ruzzle-4x4",
        "dictionary": {"name": "scowl-70", "exclude": ["offensive"]}}


def arms() -> dict[str, tuple[str, int | None]]:
    """Arm name -> (scorer, cycle_moves)."""
    from cpwords.puzzles.ruzzle.annealing import CYCLE_MOVES

    return {"before": ("reference", None), "array, one cooling": ("array", None), "now": ("array", CYCLE_MOVES),
            "climb": ("climb", None)}


def anneal(arm: str, seed: int, iterations: int, limit: float | None) -> tuple[dict[str, Any], float]:
    """One chain: its figures and wall seconds."""
    from cpwords.engines.budget import Budget
    from cpwords.lexicon import load_lexicon
    from cpwords.puzzles.loading import parse_spec
    from cpwords.puzzles.ruzzle.annealing import best_board
    from cpwords.puzzles.ruzzle.board import Board

    scorer, cycle = arms()[arm]
    climb = scorer == "climb"
    spec: Any = parse_spec({**SPEC, "seed": seed, "search": "climb" if climb else "anneal"}
                           | ({"pool": 20, "climbs": 1} if climb and limit is None else {"iterations": iterations}))
    start = Board.from_tiles(spec.tiles(), spec.bonus_cells())
    lexicon = load_lexicon(spec.dictionary)
    t0 = time.perf_counter()
    if climb:
        from cpwords.puzzles.ruzzle.climb import climb_board

        _, stats = climb_board(spec, start, lexicon, Budget(limit))
        stats |= {"boards_per_s": round(stats["boards_scored"] / max(1e-9, time.perf_counter() - t0)), "cycles": None}
    else:
        _, stats = best_board(spec, start, lexicon, Budget(limit), scorer=scorer, cycle_moves=cycle)  # type: ignore[arg-type]
    return stats, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 seeds x 10 s")
    parser.add_argument("--budget", type=float, help="seconds per chain (default 60; 10 with --quick)")
    parser.add_argument("--seeds", type=int, help="seeds (default 3; 2 with --quick)")
    parser.add_argument("--all-arms", action="store_true", help="also the array scorer with one cooling")
    parser.add_argument("--climb", action="store_true", help="also hill climbing (search: climb)")
    parser.add_argument("--write", action="store_true", help="write the ruzzle_best_board section of docs/benchmarks.md")
    parser.add_argument("--best-boards", action="store_true", help="the best Boggle boards of ENABLE2K, by size")
    parser.add_argument("--baseline-seeds", type=int, help="--best-boards: seeds of the annealing baseline")
    parser.add_argument("--sizes", default="3x3,3x4,4x4", help="--best-boards: sizes (3x3,3x4,4x4,5x5)")
    parser.add_argument("--workers", type=int, default=1,
                        help="--best-boards: climbing chains per seed, in parallel on the execution layer")
    args = parser.parse_args()
    if args.best_boards:
        from bench_best_boards import run

        run(args)
        return
    budget = args.budget or (10.0 if args.quick else 60.0)
    seeds = list(range(1, 1 + (args.seeds or (2 if args.quick else 3))))
    names = list(arms()) if args.all_arms else ["before", "now"] + (["climb"] if args.climb else [])

    anneal("now", 0, 50, None)  # dictionary, trie and scorer tables loaded once, untimed
    rate = {}
    for arm in names:
        moves = 300 if arm == "before" else 3000
        stats, seconds = anneal(arm, 0, moves, None)  # climb: one climb of a pool of 20
        rate[arm] = stats["moves"] / seconds
        print(f"calibration {arm}: {rate[arm]:,.0f} moves/s", flush=True)
    rows: dict[str, list[dict[str, Any]]] = {a: [] for a in names}
    for k, seed in enumerate(seeds):
        for arm in (names if k % 2 == 0 else names[::-1]):
            iterations = max(100, int(rate[arm] * budget * 0.85))
            stats, seconds = anneal(arm, seed, iterations, budget)
            stats |= {"seed": seed, "wall": seconds, "iterations": iterations}
            rows[arm].append(stats)
            print(arm, {k: stats[k] for k in ("seed", "best_value", "moves", "iterations", "cycles", "boards_scored",
                                               "boards_per_s", "wall")}, flush=True)

    def median(arm: str, key: str) -> float:
        return statistics.median(r[key] for r in rows[arm])

    base = median("before", "best_value")
    head = "| seed | " + " | ".join(f"best score ({a})" for a in names) + " | now ÷ before | " + \
        " | ".join(f"moves ({a})" for a in names) + " |"
    per_seed = []
    for i, seed in enumerate(seeds):
        scores = [rows[a][i]["best_value"] for a in names]
        ratio = rows["now"][i]["best_value"] / rows["before"][i]["best_value"]
        per_seed.append(f"| {seed} | " + " | ".join(f"{v:,}" for v in scores) + f" | **{ratio:.2f}** | "
                        + " | ".join(f"{rows[a][i]['moves']:,}" for a in names) + " |")
    medians = "; ".join(f"{a} {median(a, 'best_value'):,.0f} (×{median(a, 'best_value') / base:.2f})" for a in names)
    md = "\n".join([
        "### Ruzzle `best_board` with a fixed budget",
        "",
        f"Load average when the run ended: {os.getloadavg()[0]:.1f}. Run: "
        f"`python benchmarks/bench_ruzzle_best_board.py{' --all-arms' if args.all_arms else ''}"
        f"{' --climb' if args.climb else ''}{f' --budget {args.budget:g}' if args.budget else ''}"
        f"{f' --seeds {args.seeds}' if args.seeds else ''}`. Board "
        f"{' '.join(SPEC['grid'])}, `ruzzle-4x4` bonuses, `scowl-70` without offensive words, {budget:g} s a chain, "
        f"{len(seeds)} seeds, the arms taking turns. *before*: one cooling, one board at a time by the trie walk "
        "(the search before issue 16); *now*: the array scorer in batches and cooling in cycles of "
        f"{arms()['now'][1]:,} moves, each restarting hot from the best board"
        + ("; *array, one cooling*: the faster scorer alone" if args.all_arms else "")
        + ("; *climb*: hill climbing (`search: climb`, pool 100, issue 27), its `iterations` a cap on boards scored"
           if "climb" in names else "")
        + ". Each arm's `iterations` = its calibrated moves/s × the budget × 0.85; `time_limit` = the budget.",
        "",
        head,
        "|---:|" + "---:|" * (2 * len(names) + 1),
        *per_seed,
        "",
        f"- Median best score: {medians}.",
        "- Scoring loop throughput (boards scored ÷ seconds spent scoring them), median over the chains: "
        + ", ".join(f"{a} {median(a, 'boards_per_s'):,.0f} boards/s" for a in names)
        + ". Moves per second of the whole chain: "
        + ", ".join(f"{a} {median(a, 'moves') / budget:,.0f}" for a in names) + ".",
    ])
    print(md)
    if args.write:
        write_section("ruzzle_best_board", md)


if __name__ == "__main__":
    main()
