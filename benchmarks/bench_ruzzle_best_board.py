"""``best_board`` with a fixed time budget: the array scorer against the trie walk, seed by seed.

Both anneal from the same board with the same seeds, the same moves and the same cooling; only the
scoring differs. *reference* scores one board at a time with ``trie_words`` (what ``best_board``
did before the array scorer); *array* scores batches of boards with ``BoardScorer.score_many``
(same chain, see ``cpwords/puzzles/ruzzle/annealing.py``). Each first runs a short calibration
chain to measure its moves per second; each then gets ``iterations`` = that rate × the budget ×
0.85 (so that its cooling schedule ends within the budget) and ``time_limit`` = the budget. The
runs take turns seed by seed. Figures: best score per seed, moves made, and the throughput of the
scoring loop (boards scored per second spent scoring them).

    python benchmarks/bench_ruzzle_best_board.py              # 3 seeds x 60 s each, per scorer
    python benchmarks/bench_ruzzle_best_board.py --quick      # 2 seeds x 10 s
    python benchmarks/bench_ruzzle_best_board.py --budget 30 --seeds 4
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
SCORERS = ("reference", "array")


def anneal(scorer: str, seed: int, iterations: int, limit: float | None) -> tuple[dict[str, Any], float]:
    """One chain: its figures and wall seconds."""
    from cpwords.engines.budget import Budget
    from cpwords.lexicon import load_lexicon
    from cpwords.puzzles.ruzzle.annealing import best_board
    from cpwords.puzzles.ruzzle.board import Board
    from cpwords.specs import parse_spec

    spec: Any = parse_spec({**SPEC, "seed": seed, "iterations": iterations})
    start = Board.from_tiles(spec.tiles(), spec.bonus_cells())
    lexicon = load_lexicon(spec.dictionary)
    t0 = time.perf_counter()
    _, stats = best_board(spec, start, lexicon, Budget(limit), scorer=scorer)  # type: ignore[arg-type]
    return stats, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 seeds x 10 s")
    parser.add_argument("--budget", type=float, help="seconds per chain (default 60; 10 with --quick)")
    parser.add_argument("--seeds", type=int, help="seeds (default 3; 2 with --quick)")
    parser.add_argument("--write", action="store_true", help="write the ruzzle_best_board section of docs/benchmarks.md")
    args = parser.parse_args()
    budget = args.budget or (10.0 if args.quick else 60.0)
    seeds = list(range(1, 1 + (args.seeds or (2 if args.quick else 3))))

    anneal("array", 0, 50, None)  # dictionary, trie and scorer tables loaded once, untimed
    rate = {}
    for scorer in SCORERS:
        moves = 3000 if scorer == "array" else 300
        stats, seconds = anneal(scorer, 0, moves, None)
        rate[scorer] = stats["moves"] / seconds
        print(f"calibration {scorer}: {rate[scorer]:,.0f} moves/s", flush=True)
    rows: dict[str, list[dict[str, Any]]] = {s: [] for s in SCORERS}
    for k, seed in enumerate(seeds):
        for scorer in (SCORERS if k % 2 == 0 else SCORERS[::-1]):
            iterations = max(100, int(rate[scorer] * budget * 0.85))
            stats, seconds = anneal(scorer, seed, iterations, budget)
            stats |= {"seed": seed, "wall": seconds, "iterations": iterations}
            rows[scorer].append(stats)
            print(scorer, {k: stats[k] for k in ("seed", "best_value", "moves", "iterations", "boards_scored",
                                                  "boards_per_s", "wall")}, flush=True)

    def median(scorer: str, key: str) -> float:
        return statistics.median(r[key] for r in rows[scorer])

    per_seed = [f"| {ref['seed']} | {ref['best_value']:,} | {arr['best_value']:,} | "
                f"{arr['best_value'] / ref['best_value']:.2f} | {ref['moves']:,} | {arr['moves']:,} |"
                for ref, arr in zip(rows["reference"], rows["array"], strict=True)]
    md = "\n".join([
        "### Ruzzle `best_board` with a fixed budget",
        "",
        f"Load average when the run ended: {os.getloadavg()[0]:.1f}. Run: "
        f"`python benchmarks/bench_ruzzle_best_board.py`. Board {' '.join(SPEC['grid'])}, `ruzzle-4x4` bonuses, "
        f"`scowl-70` without offensive words, {budget:g} s a chain, {len(seeds)} seeds, the two scorers taking "
        "turns. Each scorer's `iterations` = its calibrated moves/s × the budget × 0.85 (its cooling ends in "
        "time); same seeds, same moves, same cooling: only the scoring differs.",
        "",
        "| seed | best score (trie walk, one board at a time) | best score (array scorer, batches) | ratio "
        "| moves (trie walk) | moves (array) |",
        "|---:|---:|---:|---:|---:|---:|",
        *per_seed,
        "",
        f"- Median best score: trie walk {median('reference', 'best_value'):,.0f}, array scorer "
        f"**{median('array', 'best_value'):,.0f}** (×{median('array', 'best_value') / median('reference', 'best_value'):.2f}).",
        f"- Scoring loop throughput (boards scored ÷ seconds spent scoring them), median over the chains: trie walk "
        f"{median('reference', 'boards_per_s'):,.0f} boards/s, array scorer **{median('array', 'boards_per_s'):,.0f} "
        f"boards/s** (×{median('array', 'boards_per_s') / median('reference', 'boards_per_s'):.1f}; target ≥ 5,000). "
        f"Moves per second of the whole chain: {median('reference', 'moves') / budget:,.0f} and "
        f"{median('array', 'moves') / budget:,.0f}; of the boards the array scorer scored, "
        f"{100 * median('array', 'boards_unused') / median('array', 'boards_scored'):.0f}% were drawn after a "
        "move that was taken, and never used.",
    ])
    print(md)
    if args.write:
        write_section("ruzzle_best_board", md)


if __name__ == "__main__":
    main()
