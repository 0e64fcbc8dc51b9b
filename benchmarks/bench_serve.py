"""Load test of ``cpwords serve`` on 127.0.0.1: many small solves while a long count job runs.

Starts the server (``python -m cpwords.server``) on a free port of 127.0.0.1, warms its workers
up, starts a prefix/suffix board count job (common-20k, minutes of work: it holds one worker for
the whole run), then sends a fixed number of ladder and Ruzzle solves from a fixed number of
concurrent clients. Reports requests per second, latency percentiles, errors (anything but a
200 answer; must be 0) and the resident memory of the server and of its workers before and
after the load (no growth expected). Every request goes to 127.0.0.1 only; the run is bounded
in requests and in time, and stops the server at the end.

    python benchmarks/bench_serve.py                 # 2,000 requests, 32 clients, 2 workers
    python benchmarks/bench_serve.py --quick         # 200 requests
    python benchmarks/bench_serve.py --write         # also write the section of docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import write_section

HOST = "127.0.0.1"  # never anything else: this is a load test
#: The whole run stops after this many seconds, finished or not.
RUN_LIMIT_S = 900
COUNT_JOB = {"kind": "prefix_suffix_board", "task": "count_boards", "dictionary": "common-20k"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int:
    """Resident memory of one process in KiB (Linux /proc), 0 when it cannot be read."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return sorted(set(out))


def memory(pid: int) -> tuple[int, int]:
    """(server process RSS, sum of its workers' RSS) in MiB."""
    return rss_kib(pid) // 1024, sum(rss_kib(c) for c in children(pid)) // 1024


def workload(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` specs, ladder and Ruzzle alternating: word pairs of scowl-35 (so every word is in
    scowl-70) and random boards drawn by English letter frequency."""
    from cpwords.lexicon import load_lexicon
    from cpwords.puzzles.ruzzle.annealing import LETTER_FREQUENCIES

    rng = random.Random(seed)
    words = {k: [w for w in load_lexicon("scowl-35").words if len(w) == k] for k in (4, 5)}
    letters, weights = list(LETTER_FREQUENCIES), list(LETTER_FREQUENCIES.values())
    specs: list[dict[str, Any]] = []
    for i in range(n):
        if i % 2 == 0:
            pool = words[rng.choice((4, 5))]
            start, target = rng.sample(pool, 2)
            specs.append({"kind": "ladder", "start": start, "target": target, "mode": "both", "seed": i})
        else:
            tiles = rng.choices(letters, weights, k=16)
            specs.append({"kind": "ruzzle", "grid": [tiles[r * 4:(r + 1) * 4] for r in range(4)], "seed": i})
    return specs


async def load(base: str, specs: list[dict[str, Any]], clients: int) -> tuple[list[float], list[str], float]:
    """Send every spec with ``clients`` concurrent clients; (latencies, errors, wall seconds)."""
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    for spec in specs:
        queue.put_nowait(spec)
    latencies: list[float] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)

    async def client(http: httpx.AsyncClient) -> None:
        while not queue.empty():
            spec = queue.get_nowait()
            t0 = time.perf_counter()
            try:
                response = await http.post(f"{base}/api/solve", json=spec)
                if response.status_code != 200:
                    errors.append(f"{response.status_code}: {response.text[:120]}")
            except httpx.HTTPError as exc:
                errors.append(repr(exc))
            latencies.append(time.perf_counter() - t0)

    async with httpx.AsyncClient(limits=limits, timeout=60) as http:
        t0 = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(client(http) for _ in range(clients))), RUN_LIMIT_S)
        wall = time.perf_counter() - t0
    return latencies, errors, wall


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="200 requests")
    parser.add_argument("--write", action="store_true", help="write the section of docs/benchmarks.md")
    args = parser.parse_args(argv)
    n = 200 if args.quick else args.requests
    port = free_port()
    base = f"http://{HOST}:{port}"
    server = subprocess.Popen([sys.executable, "-m", "cpwords.server", "--host", HOST, "--port", str(port),
                               "--workers", str(args.workers), "--max-time", "300", "--queue", str(4 * args.clients)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        specs = workload(n + 40, seed=2024)
        # Warm-up: every worker loads the dictionaries and indexes once (not timed).
        asyncio.run(load(base, specs[:40], args.workers * 2))
        server_before, workers_before = memory(server.pid)
        load_before = os.getloadavg()[0]
        job = httpx.post(f"{base}/api/jobs", json=COUNT_JOB).json()
        while httpx.get(f"{base}{job['url']}").json()["status"] != "running":
            time.sleep(0.05)
        latencies, errors, wall = asyncio.run(load(base, specs[40:], args.clients))
        state = httpx.get(f"{base}{job['url']}").json()
        server_after, workers_after = memory(server.pid)
        httpx.delete(f"{base}{job['url']}")
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
    progress = state.get("progress") or {}
    job_text = f"{state['status']} all along ({progress.get('done', 0):,} of {progress.get('total', 0):,} parts at the end)"
    rows = [
        ("requests (ladder + Ruzzle, half each)", f"{len(latencies):,}"),
        ("concurrent clients", str(args.clients)),
        ("worker processes", f"{args.workers} (one held by the count job)"),
        ("board count job (common-20k)", job_text),
        ("wall time", f"{wall:.1f} s"),
        ("requests/s", f"{len(latencies) / wall:.0f}"),
        ("latency p50", f"{statistics.median(latencies) * 1e3:.0f} ms"),
        ("latency p90", f"{percentile(latencies, 0.90) * 1e3:.0f} ms"),
        ("latency p99", f"{percentile(latencies, 0.99) * 1e3:.0f} ms"),
        ("latency max", f"{max(latencies) * 1e3:.0f} ms"),
        ("errors", str(len(errors))),
        ("server RSS before → after", f"{server_before} → {server_after} MiB"),
        ("workers' RSS before → after", f"{workers_before} → {workers_after} MiB"),
    ]
    table = "| figure | value |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows)
    load_avg = f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    text = ("### Web service (`cpwords serve`)\n\n"
            "`benchmarks/bench_serve.py`: small solves (`POST /api/solve`, ladder `mode: both` and 4×4 Ruzzle "
            "boards) from concurrent clients on 127.0.0.1 while a long board count job runs; the load generator "
            "shares the machine's cores with the server. Measured under load from other work on this shared "
            f"machine (1-minute load average {load_avg}), so read the rate and latencies as a floor.\n\n"
            + table + "\n")
    print(text)
    for error in errors[:5]:
        print("error:", error)
    if args.write:
        write_section("serve", text)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
