"""The cluster runner on Dask: a scheduler and two workers started as separate processes (``dask
scheduler`` / ``dask worker``, as a user starts them; one set for the module, which its tests
share), the one-process answers on it, a worker killed mid-count, a run stopped and resumed, the
address given on the command line; and a ``local:N`` LocalCluster started by the command itself."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import common_v1_file, descendants
from pace import HANG_S, wait_until

import cpwords
from cpwords import api, cli
from cpwords.cluster.checkpoint import shard_times
from cpwords.engines import dask_cluster as executors
from cpwords.engines.budget import Budget
from cpwords.engines.workers import usable_cores
from cpwords.puzzles.letter_boxed.shards import census

distributed = pytest.importorskip("distributed")


def sharded(spec: Any, **options: Any) -> cpwords.Result:
    """One spec solved in shards (:func:`cpwords.api.solve_batch`)."""
    return api.solve_batch([spec], **options)[0]

BOARD = {"kind": "prefix_suffix_board", "dictionary": "common-5k", "task": "count_boards", "seed": 1}
#: The boards of the version-1 common-10k (:func:`big_board`): the kind's own one-process count.
BIG_COUNT = 94_402_153
GRID = {"kind": "word_grid", "shape": "ring-3x3", "task": "count", "dictionary": "common-5k", "seed": 1}
RUZZLE = {"kind": "ruzzle", "task": "best_board", "grid": ["rate", "soni", "lend", "trap"],
          "dictionary": "common-5k", "iterations": 40, "seed": 3}
BIN = Path(sys.executable).parent


def _start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def _end(procs: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM to each process group, SIGKILL to any still there after a grace of 10 s."""
    for p in procs:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


@pytest.fixture(scope="module")
def dask_processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """``dask scheduler`` on a free port of 127.0.0.1 and two ``dask worker`` processes (each under
    its nanny, which restarts a worker that dies), shared by the module's tests; the address and a
    client of the test's own, to reach the workers. Always ended."""
    folder = tmp_path_factory.mktemp("dask")
    dask = str(BIN / "dask")
    info = folder / "scheduler.json"
    procs = [_start([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(info)], folder / "scheduler.log")]
    try:
        def scheduler_up() -> bool:
            assert procs[0].poll() is None, (folder / "scheduler.log").read_text()
            return info.exists() and bool(info.read_text(encoding="utf-8").strip())

        wait_until(scheduler_up, "the scheduler's file")
        address = json.loads(info.read_text(encoding="utf-8"))["address"]
        for i in range(2):
            procs.append(_start([dask, "worker", address, "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1",
                                 "--name", f"w{i}"], folder / f"worker{i}.log"))
        client = distributed.Client(address, timeout=f"{HANG_S}s")
        try:
            client.wait_for_workers(2, timeout=HANG_S)
            yield address, client
        finally:
            client.close()
    finally:
        _end(procs)


@pytest.fixture(scope="module")
def big_board(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A board count of seconds (:data:`BIG_COUNT` boards): long enough to kill a worker or stop
    the run while shards are under way."""
    return {**BOARD, "dictionary": {"path": common_v1_file(10000, tmp_path_factory.mktemp("words"))}}


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


def test_a_cluster_gives_the_one_process_answers(dask_processes: tuple[str, Any]) -> None:
    """Every kind's shards (board counts, a grid count, a best-board search, a batch of boxes) on
    a Dask cluster give the one-process answers."""
    address, _ = dask_processes
    boxes = census(6, seed=3, dictionary="common-5k", max_words=3)
    specs: list[Any] = [BOARD, {**BOARD, "task": "count_suffix_sets"}, GRID, RUZZLE, *boxes]
    results = api.solve_batch(specs, cluster=address, shard_seconds=0.005)
    native = [cpwords.solve(s, workers=1, seed=1) for s in (BOARD, {**BOARD, "task": "count_suffix_sets"}, GRID)]
    for r, t in zip(results[:3], native, strict=True):
        assert (r.count, r.stats["raw_count"], r.count_exact) == (t.count, t.stats["raw_count"], True)
        assert r.stats["cluster"].startswith(f"Dask scheduler {address}") and r.stats["workers"] == 2
    reference = sharded(RUZZLE, workers=1)
    assert (results[3].stats["grid"], results[3].objective) == (reference.stats["grid"], reference.objective)
    assert [r.count for r in results[4:]] == [cpwords.solve(b, seed=1).count for b in boxes]


def test_a_worker_killed_mid_count_changes_nothing(dask_processes: tuple[str, Any], big_board: dict[str, Any]) -> None:
    address, client = dask_processes
    pids = client.run(os.getpid)
    killed: list[tuple[int, int]] = []

    def kill_a_busy_worker() -> None:
        busy = {w: keys for w, keys in client.processing().items() if keys}
        worker = sorted(busy)[0]
        killed.append((pids[worker], len(busy[worker])))
        os.kill(pids[worker], signal.SIGKILL)

    r = cpwords.solve(big_board, cluster=address, progress=on_advance(2, kill_a_busy_worker))  # the API's option
    assert (r.count, r.count_exact, r.status.value) == (BIG_COUNT, True, "optimal")
    assert r.stats["shards_done"] == r.stats["shards_total"]
    (victim, running), = killed
    assert running >= 1  # it died holding shards, which Dask ran again elsewhere
    with pytest.raises(ProcessLookupError):
        os.kill(victim, 0)
    client.wait_for_workers(2, timeout=HANG_S)  # the nanny restarts it, for the next tests


def test_stop_and_resume_on_a_remote_cluster(dask_processes: tuple[str, Any], big_board: dict[str, Any],
                                             tmp_path: Path) -> None:
    address, _ = dask_processes
    path = tmp_path / "run.sqlite"
    run = Budget(None)
    run.progress = on_advance(3, lambda: run.stop("interrupted"))
    stopped = sharded(big_board, cluster=address, checkpoint=path, budget=run)
    assert stopped.count_exact is False and stopped.stats["stopped"] == "interrupted"
    kept = len(shard_times(path))
    assert kept == stopped.stats["shards_done"] >= 3
    resumed = sharded(big_board, cluster=address, checkpoint=path)
    assert (resumed.count, resumed.count_exact) == (BIG_COUNT, True)
    assert resumed.stats["shards_resumed"] == kept and resumed.stats["shards_run"] < resumed.stats["shards_total"]


def test_cluster_address_from_the_command_line(dask_processes: tuple[str, Any], tmp_path: Path) -> None:
    """``cpwords solve --cluster ADDRESS --checkpoint FILE`` as a user runs it (a process of its own)."""
    address, client = dask_processes
    client.wait_for_workers(2, timeout=HANG_S)
    puzzle = tmp_path / "board.yaml"
    puzzle.write_text("kind: prefix_suffix_board\ndictionary: common-5k\ntask: count_boards\n", encoding="utf-8")
    checkpoint = tmp_path / "board.sqlite"
    args = [str(BIN / "cpwords"), "solve", str(puzzle), "--cluster", address, "--checkpoint", str(checkpoint), "--json"]
    env = {**os.environ, executors.ENV: "tcp://127.0.0.1:1"}  # the option wins over the variable
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=HANG_S)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    truth = cpwords.solve(BOARD, workers=1)
    assert (result["count"], result["count_exact"]) == (truth.count, True)
    assert result["stats"]["cluster"].startswith(f"Dask scheduler {address}")
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


@pytest.mark.parametrize(("greeting", "limit", "says"), [
    # Silent: no answer ever comes, so the attempt ends with the time limit, whenever that is.
    (b"", ["--time-limit", "0.5"], "no Dask scheduler answered there"),
    (b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n" * 4, [], "not a Dask scheduler"),
])
def test_a_cluster_address_that_is_not_dask_is_one_line_within_the_time_limit(
        greeting: bytes, limit: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """An address where no Dask scheduler answers is one line and exit 2, not a traceback or a
    hang: a silent service is given up when the time limit comes (the connection attempt shares
    it), another protocol's greeting at once. (The command in-process: the message is the point.)"""
    with _fake_service(greeting) as port:
        code = cli.main(["ladder", "cold", "warm", "--cluster", f"tcp://127.0.0.1:{port}", *limit])
    err = capsys.readouterr().err
    assert code == 2 and says in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def _started_since(before: set[int]) -> set[int]:
    """Processes below this one that were not there before, but multiprocessing's resource tracker
    (started by the first process a LocalCluster spawns, it serves this process to its end)."""
    def tracker(pid: int) -> bool:
        try:
            return b"resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return False

    return {pid for pid in descendants(os.getpid()) - before if not tracker(pid)}


def test_a_local_cluster_larger_than_the_machine_is_capped_with_a_note(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """``--cluster local:N`` starts a Dask LocalCluster of the command's own (its worker processes
    started and ended with the command), capped at the cores with a note, and gives the one-process
    count; a number too large to be one is refused before any cluster starts. (The command runs in
    this process: the answer and the messages are the point; the command line as a user runs it
    is test_cluster_address_from_the_command_line's.)"""
    puzzle = tmp_path / "board.yaml"
    puzzle.write_text("kind: prefix_suffix_board\ndictionary: common-5k\ntask: count_boards\nseed: 1\n", encoding="utf-8")
    before = descendants(os.getpid())
    assert cli.main(["solve", str(puzzle), "--cluster", "local:1000"]) == 0
    wait_until(lambda: not _started_since(before), "the LocalCluster's processes to end")
    out, err = capsys.readouterr()
    assert "asked for 1,000 workers" in out and "Traceback" not in out + err
    assert f"Dask LocalCluster of {usable_cores()} workers" in out
    assert f"{cpwords.solve(BOARD, workers=1).count:,}" in out
    assert cli.main(["solve", str(puzzle), "--cluster", "local:99999999999999999999999"]) == 2
    err = capsys.readouterr().err
    assert "local:N" in err and "Traceback" not in err
