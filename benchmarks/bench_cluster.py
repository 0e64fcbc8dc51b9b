"""Benchmark: counts in shards on 1 process, 2 local processes and a 2-worker Dask cluster, and the
expected time on 8, 32 and 128 workers from the measured shard times.

Run ``python benchmarks/bench_cluster.py`` (``--quick``: common-5k boards and the 5×5 grid only;
``--boards``, ``--no-grid`` choose workloads). Workloads: native ``count_boards`` on okwddm of
common-10k (suffixes 2–3 and 2–4 letters) and common-20k (2–3, 1.7 trillion boards), and the
largest grid count at hand: the 7×7 Gridle with ``../shared/data/gridle-words-7.txt``, words
allowed to repeat (the 5×5 Gridle with common-5k's 5-letter words when that file is absent).

For each workload it prints markdown: wall times of the kind's own count (1 and 2 processes) and
of the shards (1 process, 2 local processes, a running 2-worker LocalCluster), the speed-ups, the
overhead per shard (``(workers × wall − Σ shard seconds) / shards``: scheduling, transfer and
idle time), and then the *scaling model*. From the shard times of a one-process run (read from
its checkpoint) the expected time on W workers is

    serial + max(longest chain, LPT schedule of every piece of work on W workers),

where *serial* is the client's planning time plus a worker's set-up (loading the dictionary and
building the problem in a fresh process), a piece of work is a finished shard plus the
measured overhead of one Dask task (500 empty tasks), or an attempt cut at the time cap that
kept nothing, and a chain is a shard after the cut attempts of its ancestors. The shard that limits scaling is
the largest; the runner's time cap is then halved until the expected 32-worker speed-up reaches
20× (or the cap reaches the floor), each step a real run. Plots of the sorted shard times go to
``docs/plots/cluster_*.png``. Needs matplotlib (a benchmark tool, not a dependency of cpwords).
"""

from __future__ import annotations

import argparse
import heapq
import logging
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._report import fmt_s
from cpwords import api

ROOT = Path(__file__).resolve().parent.parent
PLOTS = ROOT / "docs" / "plots"
GRID_WORDS = ROOT.parent / "shared" / "data" / "gridle-words-7.txt"
TARGET_32 = 20.0
WORKERS = (8, 32, 128)


@dataclass
class Tree:
    """A finished sharded run, read back from its checkpoint."""

    times: dict[str, float]  # finished shard -> seconds
    depth: dict[str, int]  # finished shard -> number of split ancestors
    splits: int
    wasted: int  # splits whose cut attempt kept nothing (a piece it finished is a shard of its own)


def read_tree(path: Path) -> Tree:
    db = sqlite3.connect(path)
    try:
        rows = list(db.execute("SELECT id, seconds, worker FROM shards"))
        times = {sid: t or 0.0 for sid, t, _ in rows}
        kept = {sid for sid, _, worker in rows if "kept" in (worker or "")}
        parent = {}
        import json

        split_rows = list(db.execute("SELECT id, children FROM splits"))
        wasted = 0
        for sid, children in split_rows:
            ids = [c["id"] for c in json.loads(children)]
            wasted += not kept.intersection(ids)
            for c in ids:
                parent[c] = sid
    finally:
        db.close()

    def depth(sid: str) -> int:
        d = 0
        while sid in parent:
            sid, d = parent[sid], d + 1
        return d

    return Tree(times, {s: depth(s) for s in times}, len(split_rows), wasted)


def lpt(pieces: list[float], workers: int) -> float:
    """Makespan of the largest-first greedy schedule of ``pieces`` on ``workers``."""
    loads = [0.0] * workers
    heapq.heapify(loads)
    for p in sorted(pieces, reverse=True):
        heapq.heappush(loads, heapq.heappop(loads) + p)
    return max(loads)


def expected(tree: Tree, cap: float | None, serial: float, overhead: float, workers: int) -> float:
    """The scaling model of the module docstring."""
    waste = [cap] * tree.wasted if cap else []
    pieces = [t + overhead for t in tree.times.values()] + waste
    chain = max(((cap or 0.0) * tree.depth[s] + t + overhead for s, t in tree.times.items()), default=0.0)
    return serial + max(chain, lpt(pieces, workers))  # serial: client planning + worker set-up


def timed(fn: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def sharded(spec: dict[str, Any], cap: float | None, **options: Any) -> tuple[Any, float, Tree]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.sqlite"
        result, wall = timed(lambda: api.solve_batch([spec], checkpoint=path, shard_seconds=cap, check=False, **options)[0])
        return result, wall, read_tree(path)


def serial_time(spec: dict[str, Any]) -> tuple[float, float]:
    """Seconds before the first shard can run: on the client (fingerprint, prepare, plan, here with
    warm caches) and on a fresh worker process (fingerprint and prepare, after its imports)."""
    from cpwords.cluster.identity import fingerprint
    from cpwords.cluster.whole import sharding_of
    from cpwords.puzzles.loading import parse_spec

    s = parse_spec(spec)
    t0 = time.perf_counter()
    sharding = sharding_of(s)
    fingerprint(s, sharding)
    sharding.plan(s, sharding.prepare(s))
    client = time.perf_counter() - t0
    code = ("import sys, json, time; from cpwords.specs import parse_spec; "
            "from cpwords.cluster.identity import fingerprint; from cpwords.cluster.whole import sharding_of; "
            "s = parse_spec(json.loads(sys.argv[1])); t = time.perf_counter(); h = sharding_of(s); "
            "fingerprint(s, h); h.prepare(s); print(time.perf_counter() - t)")
    import json
    import subprocess

    out = subprocess.run([sys.executable, "-c", code, json.dumps(spec)], capture_output=True, text=True, check=True)
    return client, float(out.stdout.strip().splitlines()[-1])


def plot(name: str, title: str, runs: list[tuple[str, Tree]]) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    PLOTS.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=120)
    for label, tree in runs:
        times = sorted(tree.times.values(), reverse=True)
        ax.plot(range(1, len(times) + 1), times, marker=".", linewidth=1, label=f"{label} ({len(times)} shards)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("shard rank (largest first)")
    ax.set_ylabel("seconds on one worker")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = PLOTS / f"cluster_{name}.png"
    fig.savefig(path)
    plt.close(fig)
    return path


def workload(name: str, title: str, spec: dict[str, Any], address: str, caps: list[float | None],
             floor: float, *, light: bool = False) -> list[str]:
    """Every measurement of one workload, as markdown lines.

    ``light`` (for a long count on a loaded machine): no one-process runs; the shard tree comes
    from the 2-process run and the one-process time is estimated as the serial part plus the sum
    of the shard times (the work one process would do)."""
    out = [f"#### {title}", ""]
    cap = caps[0]
    if light:
        native2, t_n2 = timed(lambda: api.solve(spec, workers=2, check=False))
        two, t_2, tree = sharded(spec, cap, workers=2)
        native1, t_n1, one, t_1 = native2, 0.0, two, 0.0
    else:
        native1, t_n1 = timed(lambda: api.solve(spec, workers=1, check=False))
        native2, t_n2 = timed(lambda: api.solve(spec, workers=2, check=False))
        one, t_1, tree = sharded(spec, cap, workers=1)
        two, t_2, _ = sharded(spec, cap, workers=2)
    dask, t_d, _ = sharded(spec, cap, cluster=address)
    counts = {native1.count, native2.count, one.count, two.count, dask.count}
    shards, work = len(tree.times), sum(tree.times.values())
    client_s, worker_s = serial_time(spec)
    serial = client_s + worker_s
    if light:
        t_n1 = serial + work
    over2 = (2 * t_2 - work) / shards
    overd = (2 * t_d - work) / shards
    out += [f"Count {native1.count:,} (raw {native1.stats.get('raw_count', 0):,}); "
            f"same on every path: {'yes' if len(counts) == 1 else 'NO ' + str(counts)}. "
            f"{shards} shards, Σ shard time {fmt_s(work)}, largest {fmt_s(max(tree.times.values()))}.", "",
            "| run | wall | speed-up vs 1 process | overhead per shard |", "|---|---|---|---|"]
    if light:
        out.append(f"| one process (estimated: serial part + Σ shard times) | {fmt_s(t_n1)} | 1.00× | — |")
    else:
        out.append(f"| kind's own count, 1 process | {fmt_s(t_n1)} | 1.00× | — |")
    out.append(f"| kind's own count, 2 processes | {fmt_s(t_n2)} | {t_n1 / t_n2:.2f}× | — |")
    if not light:
        out.append(f"| shards, 1 process | {fmt_s(t_1)} | {t_n1 / t_1:.2f}× | — |")
    out += [f"| shards, 2 local processes | {fmt_s(t_2)} | {t_n1 / t_2:.2f}× | {fmt_s(max(0.0, over2))} |",
            f"| shards, Dask LocalCluster of 2 workers (running) | {fmt_s(t_d)} | {t_n1 / t_d:.2f}× | "
            f"{fmt_s(max(0.0, overd))} |", ""]
    overhead = TASK_OVERHEAD[0]
    out += [f"Scaling model: serial part {fmt_s(serial)} (client {fmt_s(client_s)}, then each worker's set-up {fmt_s(worker_s)}), Dask overhead {fmt_s(overhead)} a shard; speed-ups against {BASELINE[light]} ({fmt_s(t_n1)}):", "",
            "| time cap | shards | splits | largest shard | " + " | ".join(f"{w} workers" for w in WORKERS) + " |",
            "|---|---|---|---|" + "---|" * len(WORKERS)]
    runs = []
    step = 0
    while True:
        base = t_n1
        est = {w: expected(tree, cap, serial, overhead, w) for w in WORKERS}
        big = max(tree.times, key=tree.times.__getitem__)
        cells = " | ".join(f"{fmt_s(est[w])} ({base / est[w]:.1f}×)" for w in WORKERS)
        out.append(f"| {'none' if cap is None else fmt_s(cap)} | {len(tree.times)} | {tree.splits} | "
                   f"`{_cell(big)}` {fmt_s(tree.times[big])} ({tree.times[big] / sum(tree.times.values()):.0%}) | "
                   f"{cells} |")
        print(out[-1], flush=True)
        runs.append(("no cap" if cap is None else f"cap {fmt_s(cap)}", tree))
        speed32 = base / est[32]
        step += 1
        if speed32 >= TARGET_32 or step >= 6:
            break
        next_cap = (tree.times[big] if cap is None else cap) / 2
        if next_cap < floor:
            break
        cap = next_cap
        _, _, tree = sharded(spec, cap, workers=2 if light else 1)
    verdict = "reached" if speed32 >= TARGET_32 else "not reached"
    first = runs[0][1]
    limit = max(first.times, key=first.times.__getitem__)
    out += ["", f"Without a cap the largest shard, `{_cell(limit)}` ({first.times[limit] / sum(first.times.values()):.0%} "
            f"of the work), limits scaling. The {TARGET_32:.0f}× target on 32 workers is {verdict} with the last cap. "
            f"Plot: docs/plots/{plot(name, title, runs).name}.", ""]
    return out


def _cell(shard_id: str) -> str:
    """A shard id shortened for a markdown table (its ``|`` escaped)."""
    short = shard_id if len(shard_id) <= 40 else shard_id[:37] + "…"
    return short.replace("|", "\\|")


#: What the speed-ups of the scaling model are measured against (light run or not).
BASELINE = {False: "the kind's own one-process count", True: "the one-process estimate"}

#: Worker-seconds one Dask task costs beyond its work (measured once, in main).
TASK_OVERHEAD = [0.0]


def _noop(x: int) -> int:
    return x


def task_overhead(client: Any, n: int = 500) -> float:
    """Worker-seconds per task of ``n`` empty tasks on the cluster (its 2 workers busy all along)."""
    client.gather([client.submit(_noop, i, pure=False) for i in range(20)])  # warm up
    t0 = time.perf_counter()
    client.gather([client.submit(_noop, i, pure=False) for i in range(n)])
    return 2 * (time.perf_counter() - t0) / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small workloads only")
    parser.add_argument("--boards", default="common-10k:23,common-10k:24,common-20k:23",
                        help="board workloads, DICTIONARY:SUFFIX-LENGTHS, comma-separated ('' for none)")
    parser.add_argument("--no-grid", action="store_true", help="skip the grid workload")
    parser.add_argument("--grid-light", action="store_true",
                        help="grid workload without the one-process runs (estimated from the shard times)")
    parser.add_argument("--board-light", action="store_true",
                        help="board workloads without the one-process runs (estimated from the shard times)")
    parser.add_argument("--grid-cap", type=float, default=None, help="first time cap of the grid shards (s)")
    args = parser.parse_args()
    import distributed

    lines = ["### Cluster (Dask)", ""]
    t0 = time.perf_counter()
    lc = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR, host="127.0.0.1")
    client = distributed.Client(lc)
    started = time.perf_counter() - t0
    TASK_OVERHEAD[0] = task_overhead(client)
    lines += [f"Starting a 2-worker Dask LocalCluster took {fmt_s(started)} (not included in the Dask times "
              f"below); one Dask task costs {fmt_s(TASK_OVERHEAD[0])} of worker time beyond its work (500 empty "
              "tasks). The overhead per shard in the tables also holds each run's fixed costs (workers "
              "loading the dictionary and building the problem), so it is larger.", ""]
    try:
        boards = ["common-5k:23"] if args.quick else [b for b in args.boards.split(",") if b]
        for board in boards:
            d, _, lengths = board.partition(":")
            sl = (int(lengths[0]), int(lengths[1]))
            spec = {"kind": "prefix_suffix_board", "dictionary": d, "task": "count_boards",
                    "suffix_length": list(sl), "seed": 1}
            lines += workload(f"board_{d}_{sl[0]}{sl[1]}", f"Boards of {d}, suffixes {sl[0]}–{sl[1]} letters",
                              spec, lc.scheduler_address, [None], floor=0.005, light=args.board_light)
            print("\n".join(lines), "\n<!-- so far -->", flush=True)
        if args.no_grid:
            spec = {}
        elif GRID_WORDS.is_file() and not args.quick:
            spec = {"kind": "word_grid", "shape": "gridle-7x7", "task": "count", "distinct_words": False,
                    "dictionary": {"path": str(GRID_WORDS)}, "seed": 1}
            title = "7×7 Gridle grids, gridle-words-7 (11,482 words), words may repeat"
        else:
            spec = {"kind": "word_grid", "shape": "gridle-5x5", "task": "count", "seed": 1,
                    "dictionary": {"name": "common-5k", "min_length": 5, "max_length": 5}}
            title = "5×5 Gridle grids, common-5k's 5-letter words, distinct"
        if spec:
            lines += workload("grid", title, spec, lc.scheduler_address, [args.grid_cap], floor=0.05,
                              light=args.grid_light)
    finally:
        client.close()
        lc.close()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
