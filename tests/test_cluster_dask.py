"""The cluster runner on Dask: a 2-worker LocalCluster, a worker killed mid-count, a run stopped
and resumed on a remote cluster, and a scheduler and two workers started as separate processes
(``dask scheduler`` / ``dask worker``, as a user starts them) driven from the command line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import cpwords
from cpwords import api
from cpwords.cluster.checkpoint import shard_times
from cpwords.engines import dask_cluster as executors
from cpwords.engines.budget import Budget
from cpwords.puzzles.letter_boxed.shards import census

distributed = pytest.importorskip("distributed")


def sharded(spec: Any, **options: Any) -> cpwords.Result:
    """One spec solved in shards (:func:`cpwords.api.solve_batch`)."""
    return api.solve_batch([spec], **options)[0]

BOARD = {"kind": "prefix_suffix_board", "dictionary": "common-5k", "task": "count_boards", "seed": 1}
BIG_BOARD = {**BOARD, "dictionary": "common-10k"}
GRID = {"kind": "word_grid", "shape": "ring-3x3", "task": "count", "dictionary": "common-5k", "seed": 1}
RUZZLE = {"kind": "ruzzle", "task": "best_board", "grid": ["rate", "soni", "lend", "trap"],
          "dictionary": "common-5k", "iterations": 40, "seed": 3}
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[tuple[str, Any]]:
    """A 2-worker LocalCluster (its address) and a client of the test's own, to reach the workers."""
    import logging

    lc = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
                                  silence_logs=logging.ERROR, host="127.0.0.1")
    client = distributed.Client(lc)
    try:
        yield lc.scheduler_address, client
    finally:
        client.close()
        lc.close()


@pytest.fixture(scope="module")
def big_truth() -> int:
    """The native count of the common-10k boards (the kind's own parallel count)."""
    count = cpwords.solve(BIG_BOARD, workers=2).count
    assert count is not None
    return count


def on_advance(n: int, action: Callable[[], None]) -> Callable[..., Any]:
    """A progress reporter that calls ``action`` once, when ``n`` root shards are done."""

    @contextmanager
    def progress(description: str, total: int | None = None) -> Iterator[Callable[[int], None]]:
        seen = 0

        def advance(k: int = 1) -> None:
            nonlocal seen
            before, seen = seen, seen + k
            if before < n <= seen:
                action()

        yield advance

    return progress


def test_local_cluster_gives_the_one_process_answers() -> None:
    boxes = census(6, seed=3, dictionary="common-5k", max_words=3)
    specs: list[Any] = [BOARD, {**BOARD, "task": "count_suffix_sets"}, GRID, RUZZLE, *boxes]
    results = api.solve_batch(specs, cluster="local:2", shard_seconds=0.005)
    native = [cpwords.solve(s, workers=1, seed=1) for s in (BOARD, {**BOARD, "task": "count_suffix_sets"}, GRID)]
    for r, t in zip(results[:3], native, strict=True):
        assert (r.count, r.stats["raw_count"], r.count_exact) == (t.count, t.stats["raw_count"], True)
        assert r.stats["cluster"] == "Dask LocalCluster of 2 workers" and r.stats["workers"] == 2
    reference = sharded(RUZZLE, workers=1)
    assert (results[3].stats["grid"], results[3].objective) == (reference.stats["grid"], reference.objective)
    assert [r.count for r in results[4:]] == [cpwords.solve(b, seed=1).count for b in boxes]


def test_a_worker_killed_mid_count_changes_nothing(local_cluster: tuple[str, Any], big_truth: int) -> None:
    address, client = local_cluster
    pids = client.run(os.getpid)
    killed: list[tuple[int, int]] = []

    def kill_a_busy_worker() -> None:
        busy = {w: keys for w, keys in client.processing().items() if keys}
        worker = sorted(busy)[0]
        killed.append((pids[worker], len(busy[worker])))
        os.kill(pids[worker], signal.SIGKILL)

    r = cpwords.solve(BIG_BOARD, cluster=address, progress=on_advance(2, kill_a_busy_worker))  # the API's option
    assert (r.count, r.count_exact, r.status.value) == (big_truth, True, "optimal")
    assert r.stats["shards_done"] == r.stats["shards_total"]
    (victim, running), = killed
    assert running >= 1  # it died holding shards, which Dask ran again elsewhere
    with pytest.raises(ProcessLookupError):
        os.kill(victim, 0)
    client.wait_for_workers(2, timeout=30)  # the nanny restarts it, for the next test


def test_stop_and_resume_on_a_remote_cluster(local_cluster: tuple[str, Any], big_truth: int,
                                             tmp_path: Path) -> None:
    address, _ = local_cluster
    path = tmp_path / "run.sqlite"
    run = Budget(None)
    run.progress = on_advance(3, lambda: run.stop("interrupted"))
    t0 = time.monotonic()
    stopped = sharded(BIG_BOARD, cluster=address, checkpoint=path, budget=run)
    assert time.monotonic() - t0 < 20
    assert stopped.count_exact is False and stopped.stats["stopped"] == "interrupted"
    kept = len(shard_times(path))
    assert kept == stopped.stats["shards_done"] >= 3
    resumed = sharded(BIG_BOARD, cluster=address, checkpoint=path)
    assert (resumed.count, resumed.count_exact) == (big_truth, True)
    assert resumed.stats["shards_resumed"] == kept and resumed.stats["shards_run"] < resumed.stats["shards_total"]


# ---------------------------------------------------------------- separate processes, as a user runs them


def _start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def _end(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
    deadline = time.monotonic() + 10
    for p in procs:
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


@pytest.fixture
def dask_processes(tmp_path: Path) -> Iterator[str]:
    """``dask scheduler`` on a free port of 127.0.0.1 and two ``dask worker`` processes; always ended."""
    dask = str(BIN / "dask")
    info = tmp_path / "scheduler.json"
    procs = [_start([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(info)], tmp_path / "scheduler.log")]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() or not info.read_text(encoding="utf-8").strip():
            assert time.monotonic() < deadline and procs[0].poll() is None, (tmp_path / "scheduler.log").read_text()
            time.sleep(0.1)
        address = json.loads(info.read_text(encoding="utf-8"))["address"]
        for i in range(2):
            procs.append(_start([dask, "worker", address, "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1",
                                 "--name", f"w{i}"], tmp_path / f"worker{i}.log"))
        client = distributed.Client(address, timeout="30s")
        try:
            client.wait_for_workers(2, timeout=60)
        finally:
            client.close()
        yield address
    finally:
        _end(procs)


def test_cluster_address_from_the_command_line(dask_processes: str, tmp_path: Path) -> None:
    puzzle = tmp_path / "board.yaml"
    puzzle.write_text("kind: prefix_suffix_board\ndictionary: common-5k\ntask: count_boards\n", encoding="utf-8")
    checkpoint = tmp_path / "board.sqlite"
    env = {**os.environ, executors.ENV: dask_processes}
    args = [str(BIN / "cpwords"), "solve", str(puzzle), "--cluster", dask_processes,
            "--checkpoint", str(checkpoint), "--json"]
    env[executors.ENV] = "tcp://127.0.0.1:1"  # the option wins over the variable
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    truth = cpwords.solve(BOARD, workers=1)
    assert (result["count"], result["count_exact"]) == (truth.count, True)
    assert result["stats"]["cluster"].startswith(f"Dask scheduler {dask_processes}")
    assert result["stats"]["workers"] == 2
    assert {w.rsplit(":", 1)[0] for w in _workers_of(checkpoint)} and len(shard_times(checkpoint)) == \
        result["stats"]["shards_done"]


def _workers_of(checkpoint: Path) -> list[str]:
    import sqlite3

    db = sqlite3.connect(checkpoint)
    try:
        return [w for (w,) in db.execute("SELECT DISTINCT worker FROM shards")]
    finally:
        db.close()


@contextmanager
def _fake_service(greeting: bytes) -> Iterator[int]:
    """A TCP service on 127.0.0.1 that accepts and sends ``greeting`` (nothing: it stays silent)."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if greeting:
                conn.sendall(greeting)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield server.getsockname()[1]
    finally:
        server.close()
        for conn in held:
            conn.close()


@pytest.mark.parametrize(("greeting", "says"), [
    (b"", "no Dask scheduler answered there"),
    (b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n" * 4, "not a Dask scheduler"),
])
def test_a_cluster_address_that_is_not_dask_is_one_line_within_the_time_limit(greeting: bytes, says: str) -> None:
    with _fake_service(greeting) as port:
        t0 = time.monotonic()
        done = subprocess.run([str(BIN / "cpwords"), "ladder", "cold", "warm", "--cluster", f"tcp://127.0.0.1:{port}",
                               "--time-limit", "2"], capture_output=True, text=True, timeout=60)
        took = time.monotonic() - t0
    assert done.returncode == 2 and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert took < 30, took  # a bound on hanging, not a benchmark (the connection attempt shares the 2 s limit)


def test_a_local_cluster_larger_than_the_machine_is_capped_with_a_note(tmp_path: Path) -> None:
    puzzle = tmp_path / "board.yaml"
    puzzle.write_text("kind: prefix_suffix_board\ndictionary: common-5k\ntask: count_boards\nseed: 1\n", encoding="utf-8")
    done = subprocess.run([str(BIN / "cpwords"), "solve", str(puzzle), "--cluster", "local:1000"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "asked for 1,000 workers" in done.stdout and "Traceback" not in done.stdout + done.stderr
    assert f"{cpwords.solve(BOARD, workers=1).count:,}" in done.stdout
    huge = subprocess.run([str(BIN / "cpwords"), "solve", str(puzzle), "--cluster", "local:99999999999999999999999"],
                          capture_output=True, text=True, timeout=60)
    assert huge.returncode == 2 and "local:N" in huge.stderr and "Traceback" not in huge.stderr
