"""The best Boggle boards of ENABLE2K: how often, and how fast, ``best_board`` finds them.

Run through ``bench_ruzzle_best_board.py --best-boards`` (its options: ``--seeds``, ``--baseline-seeds``,
``--sizes``, ``--write``). For each size, each seed runs one chain (the search of one worker) with
Boggle scoring, ``enable2k`` with ``exclude: []`` and ``target`` = the best known score, so a chain
stops at the target or at the size's budget:

- *climb* (today's default, ``search: climb``): hill climbing of a pool of 100 boards;
- *anneal* (the search before, ``search: anneal``): simulated annealing in cycles, with
  ``iterations`` high enough that only the budget or the target ends it.

The arms take turns seed by seed. Figures per size and arm: seeds reaching the target, the median
seconds to reach it (over the seeds that did), and the median best score.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from _report import write_section

#: Size -> (best known score, budget in seconds of one chain, as the issue's targets).
TARGETS = {"3x3": (545, 20.0), "3x4": (1651, 30.0), "4x4": (3625, 60.0), "5x5": (10406, 600.0)}


def chain(size: str, search: str, seed: int, workers: int = 1) -> dict[str, Any]:
    """One seeded search of ``search`` on a board of ``size`` (``workers`` > 1: as many chains in
    parallel on the execution layer, as ``best_board`` runs them): best value, seconds, reached or not."""
    from cpwords.engines.budget import Budget
    from cpwords.lexicon import load_lexicon
    from cpwords.puzzles.loading import parse_spec
    from cpwords.puzzles.ruzzle.board import Board
    from cpwords.puzzles.ruzzle.climb import search_board

    rows, cols = map(int, size.split("x"))
    target, budget = TARGETS[size]
    spec: Any = parse_spec({"kind": "ruzzle", "task": "best_board", "grid": ["a" * cols] * rows, "scoring": "boggle",
                            "dictionary": {"name": "enable2k", "exclude": []}, "search": search, "seed": seed,
                            "target": target} | ({"iterations": 10**9} if search == "anneal" else {}))
    lexicon = load_lexicon(spec.dictionary)
    t0, c0 = time.perf_counter(), time.process_time()
    start = Board.from_tiles(spec.tiles())
    if workers > 1:
        from cpwords.puzzles.ruzzle.chains import best_of_chains

        board, stats = best_of_chains(spec, start, lexicon, Budget(budget), workers)
    else:
        board, stats = search_board(spec, start, lexicon, Budget(budget))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    reached = stats["best_value"] >= target
    return {"size": size, "search": search, "seed": seed, "best": stats["best_value"], "reached": reached,
            "seconds": wall if reached else None, "cpu": cpu if reached and workers == 1 else None, "wall": wall,
            "board": "".join(board.tiles)}


def _warm(sizes: list[str]) -> None:
    """Dictionary, trie, scorer tables and compiled code loaded once per size, untimed."""
    from cpwords.engines.budget import Budget
    from cpwords.lexicon import load_lexicon
    from cpwords.puzzles.loading import parse_spec
    from cpwords.puzzles.ruzzle.board import Board
    from cpwords.puzzles.ruzzle.climb import search_board
    from cpwords.puzzles.ruzzle.compiled import compiled_ready

    compiled_ready(wait=True)
    for size in sizes:
        rows, cols = map(int, size.split("x"))
        for search in ("climb", "anneal"):
            spec: Any = parse_spec({"kind": "ruzzle", "task": "best_board", "grid": ["a" * cols] * rows,
                                    "scoring": "boggle", "dictionary": {"name": "enable2k", "exclude": []},
                                    "search": search, "iterations": 200, "seed": 0, "pool": 5, "climbs": 1})
            search_board(spec, Board.from_tiles(spec.tiles()), load_lexicon(spec.dictionary), Budget(5))


def run(args: argparse.Namespace) -> None:
    """Run the chains, print them as they end, and print (``--write``: write) the table."""
    from cpwords.puzzles.ruzzle.compiled import available

    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    seeds = list(range(1, 1 + (args.seeds or 10)))
    baseline = seeds[:args.baseline_seeds if args.baseline_seeds is not None else len(seeds)]
    t_warm = time.perf_counter()
    _warm(sizes)
    print(f"warm-up (tables, compiled code): {time.perf_counter() - t_warm:.1f} s", flush=True)
    rows: list[dict[str, Any]] = []
    for size in sizes:
        for k, seed in enumerate(seeds):
            arms = ["climb", "anneal"] if seed in baseline else ["climb"]
            for search in (arms if k % 2 == 0 else arms[::-1]):
                # the baseline is the search before issue 27, one chain (what best_board ran then)
                row = chain(size, search, seed, args.workers if search == "climb" else 1)
                rows.append(row)
                print(row, flush=True)
    lines = ["| size | target | budget a seed | climb: seeds reaching it | climb: median s to reach (max) "
             "| climb: median CPU s to reach | climb: median best | anneal (before): seeds reaching it "
             "| anneal: median s to reach | anneal: median best |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for size in sizes:
        target, budget = TARGETS[size]
        cells = [size, f"{target:,}", f"{budget:g} s"]
        for search in ("climb", "anneal"):
            mine = [r for r in rows if r["size"] == size and r["search"] == search]
            hit = [r["seconds"] for r in mine if r["reached"]]
            cells.append(f"**{len(hit)}/{len(mine)}**" if search == "climb" else f"{len(hit)}/{len(mine)}")
            cells.append(f"{statistics.median(hit):.1f}" + (f" ({max(hit):.1f})" if search == "climb" else "")
                         if hit else "–")
            if search == "climb":
                cpu = [r["cpu"] for r in mine if r["reached"] and r["cpu"] is not None]
                cells.append(f"{statistics.median(cpu):.1f}" if cpu else "–")
            cells.append(f"{statistics.median(r['best'] for r in mine):,.0f}" if mine else "–")
        lines.append("| " + " | ".join(cells) + " |")
    md = "\n".join([
        f"### Best boards: ENABLE2K Boggle optima by `best_board` ({', '.join(sizes)})",
        "",
        f"Load average when the run ended: {os.getloadavg()[0]:.1f} (a shared 2-core machine: other jobs ran "
        f"beside it). Run: `nice -n 10 python benchmarks/bench_ruzzle_best_board.py --best-boards --seeds "
        f"{len(seeds)} --baseline-seeds {len(baseline)} --sizes {','.join(sizes)}"
        f"{f' --workers {args.workers}' if args.workers > 1 else ''}`. "
        + (f"Per seed, {args.workers} climbing chains in parallel on the execution layer (`workers: "
           f"{args.workers}`; the first chain to reach the target ends the others), the annealing baseline one "
           "chain; " if args.workers > 1 else "One chain (one process) per seed; ")
        + f"Boggle scoring, `enable2k` with `exclude: []`, `target` = the best known score, so a chain stops "
        f"there or at its budget. *climb*: today's default (`search: climb`, pool 100, 300 above 16 cells, neighbourhoods "
        f"{'compiled with numba' if available() else 'in numpy'}); *anneal*: the search before (simulated "
        f"annealing in cycles), seeds 1–{len(baseline)}. Times include each chain's set-up, not the one-off "
        "loading of the dictionary's tables and of the compiled code (done first, untimed). The budget is "
        "wall-clock time; *CPU s* is the CPU time the chain's process got until it reached the target, the "
        "figure a machine of its own would take (about; one chain only).",
        "",
        *lines,
    ])
    print(md)
    if args.write:
        write_section("ruzzle_best_boards_" + "_".join(sizes), md)  # one section per set of sizes
