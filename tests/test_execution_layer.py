"""The execution layer (cpwords.engines): workers start quiet, die and are replaced, stop, and leave
nothing behind; and the long counts that go through it give the exact figures every time, as a user
runs them (subprocesses, text and ``--json``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import alive, common_v1_file, descendants, shared_file
from pace import HANG_S, Stopwatch, run_cpwords, startup_cpu_s, wait_until

from cpwords.engines.budget import Budget
from cpwords.engines.local import RETRIES, Local
from cpwords.engines.parallel import open_executor, parallel_map
from cpwords.engines.shards import Shard
from cpwords.engines.workers import WorkerLost, usable_cores, worker_count


def _square(n: int) -> int:
    return n * n


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _signals_seen(_: object) -> tuple[bool, bool, int]:
    """In a worker: SIGINT ignored, SIGTERM at its default, and the wake-up fd it found (cleared: -1)."""
    fd = signal.set_wakeup_fd(-1)
    return (signal.getsignal(signal.SIGINT) is signal.SIG_IGN, signal.getsignal(signal.SIGTERM) is signal.SIG_DFL, fd)


def _die_once(marker: str) -> int:
    """Kill this worker the first time (a marker file says it happened), answer the second time."""
    path = Path(marker)
    if not path.exists():
        path.write_text("died", encoding="utf-8")
        os.kill(os.getpid(), signal.SIGKILL)
    return os.getpid()


def _die_always(_: object) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_parallel_map_gives_every_value_once() -> None:
    mapped = parallel_map(_square, range(50), workers=2)
    assert sorted(mapped) == [(i, i * i) for i in range(50)]
    assert mapped.run.complete and mapped.run.done == 50


def test_parallel_map_in_this_process_for_one_worker() -> None:
    mapped = parallel_map(_square, [3, 4], workers=1)
    assert list(mapped) == [(0, 9), (1, 16)]


def test_workers_start_quiet_even_under_the_clis_signal_pipe() -> None:
    """A worker forked from a process with a wake-up fd and its own handlers (what the CLI sets up
    while it runs) keeps none of them: its end can never be read as the user's signal."""
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    old_fd = signal.set_wakeup_fd(write_fd)
    old = {s: signal.signal(s, lambda *_: None) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        values = [v for _, v in parallel_map(_signals_seen, [None, None], workers=2)]
    finally:
        signal.set_wakeup_fd(old_fd)
        for s, h in old.items():
            signal.signal(s, h)
        os.close(read_fd)
        os.close(write_fd)
    assert values and all(v == (True, True, -1) for v in values)


def test_a_dead_worker_is_replaced_and_its_task_run_again(tmp_path: Path) -> None:
    with Local(2) as executor:
        handle = executor.submit(_die_once, str(tmp_path / "marker"))
        done = None
        while done is None:
            done = executor.next_done(5.0)
        assert done is handle
        assert isinstance(executor.outcome(handle), int)
        assert executor.replaced >= 1


def test_a_task_that_kills_every_worker_fails_after_its_retries() -> None:
    with Local(1) as executor:
        handle = executor.submit(_die_always, None)
        done = None
        while done is None:
            done = executor.next_done(5.0)
        with pytest.raises(WorkerLost):
            executor.outcome(handle)
        assert executor.replaced == RETRIES + 1


def test_a_stop_ends_the_workers_and_leaves_none() -> None:
    before = descendants(os.getpid())  # what earlier tests left (multiprocessing's resource tracker)
    budget = Budget(0.3)
    mapped = parallel_map(_nap, [30.0] * 4, budget, workers=2)
    assert list(mapped) == []
    assert not mapped.run.complete and mapped.run.stopped == "time_limit"
    assert descendants(os.getpid()) <= before


def test_leaving_the_loop_early_ends_the_workers() -> None:
    before = descendants(os.getpid())
    for _ in parallel_map(_nap, [0.0, 30.0, 30.0], workers=2):
        break
    assert descendants(os.getpid()) <= before


def test_worker_counts_are_capped_at_the_cores() -> None:
    n, note = worker_count(10**6)
    assert n == usable_cores() and note is not None and "1,000,000" in note
    with open_executor(None, 10**6, Budget(None)) as executor:
        assert executor.workers == min(usable_cores(), 10**6)
        if usable_cores() > 1:
            assert executor.note is not None


# ---------------------------------------------------------------- long counts through the CLI

def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return run_cpwords(argv)


#: The 7×7 Gridle count with distinct words on the version-1 common-5k (2,152 terms: seconds, not
#: minutes): the grids and the raw count, as counted in one process without workers (the sweep's
#: test below counts them again, in one process and in shards on two local workers).
GRID_COUNT = (2667, 5334)


@pytest.fixture(scope="module")
def grid_count_spec(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The spec of :data:`GRID_COUNT`, with two workers."""
    folder = tmp_path_factory.mktemp("grid7")
    spec = folder / "count.yaml"
    spec.write_text(f"kind: word_grid\nshape: gridle-7x7\ntask: count\nworkers: 2\n"
                    f"dictionary: {{path: {common_v1_file(5000, folder)}}}\n", encoding="utf-8")
    return spec


def _exact_runs(spec: Path, runs: int) -> None:
    """``runs`` commands, two at a time (each plans its terms on one core most of the time), every
    other one with --json: each exits 0, uninterrupted, with the figures of :data:`GRID_COUNT`."""
    from concurrent.futures import ThreadPoolExecutor

    grids, raw = GRID_COUNT
    with ThreadPoolExecutor(2) as runner:
        outs = list(runner.map(lambda run: _cli("solve", str(spec), *(["--json"] if run % 2 == 0 else [])),
                               range(runs)))
    for run, out in enumerate(outs):
        assert out.returncode == 0, (run, out.returncode, out.stderr[-500:])
        assert "interrupted" not in out.stderr and "Traceback" not in out.stderr
        if run % 2 == 0:
            result = json.loads(out.stdout)
            assert (result["count"], result["count_exact"], result["stats"]["raw_count"]) == (grids, True, raw)
        else:
            assert f"{grids:,}" in out.stdout and f"{raw:,}" in out.stdout


def test_a_grid_count_with_workers_through_the_cli_is_exact(grid_count_spec: Path) -> None:
    """The CLI's signal watcher once took the SIGTERM of an ending worker for the user's Ctrl-C
    (exit 130 on a count nobody interrupted). The spec asks for two workers: where the count runs
    is the run's route (the kind's own count is one process; its shards run on the workers). One
    run here, with --json (ten runs, text and --json: the sweep's test below)."""
    _exact_runs(grid_count_spec, 1)


@pytest.mark.sweep  # the same promise as above, ten times: the failure it guards against was intermittent
def test_a_grid_count_with_workers_through_the_cli_is_exact_every_time(grid_count_spec: Path) -> None:
    """The figures of :data:`GRID_COUNT`, counted by the kind in this process (one process, no
    worker at all) and as shards on two local workers of the runner, which start and end under
    the call. Then ten runs of the command, text and --json, all exact."""
    import cpwords
    from cpwords import api

    before = descendants(os.getpid())
    spec = cpwords.load(grid_count_spec)[0]
    reference = cpwords.solve(spec, workers=1)
    assert (reference.count, reference.stats["raw_count"], reference.count_exact) == (*GRID_COUNT, True)
    assert descendants(os.getpid()) <= before  # the kind's count started no process
    sharded = api.solve_batch([spec], workers=2)[0]
    assert (sharded.count, sharded.stats["raw_count"], sharded.count_exact) == (*GRID_COUNT, True)
    assert sharded.stats["cluster"] == "2 local processes"
    assert descendants(os.getpid()) <= before
    _exact_runs(grid_count_spec, 10)


def test_a_worker_killed_mid_count_still_gives_the_exact_count(tmp_path: Path) -> None:
    """SIGKILL one local worker of a board count while it runs: the layer replaces it and runs its
    shard again; the count is the one-process count (94,402,153 boards of the version-1
    common-10k). With two workers the route sends the kind's shards to the runner's local workers."""
    proc = subprocess.Popen([sys.executable, "-m", "cpwords", "board", "--count", "--dict",
                             common_v1_file(10000, tmp_path), "--workers", "2", "--seed", "1", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until(lambda: len(descendants(proc.pid)) >= 2 or proc.poll() is not None, "the command's workers")
        workers = descendants(proc.pid)
        assert workers, "no worker was started"
        os.kill(min(workers), signal.SIGKILL)
        out, err = proc.communicate(timeout=HANG_S)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-500:]
    result = json.loads(out)
    assert (result["count"], result["count_exact"]) == (94_402_153, True)
    assert not alive(workers)


@pytest.fixture(scope="module")
def full_7x7_spec(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 7×7 Gridle count with repeats on the game's whole 7-letter list (minutes of work)."""
    words = shared_file("gridle-words-7.txt")
    spec = tmp_path_factory.mktemp("grid7full") / "count.yaml"
    spec.write_text(f"kind: word_grid\nshape: gridle-7x7\ntask: count\ndistinct_words: false\n"
                    f"dictionary: {{path: {words}}}\n", encoding="utf-8")
    return spec


@pytest.mark.parametrize(("option", "work"), [
    (["--checkpoint", "CKPT"], 1.0),
    # importing Dask alone takes a second of processor time; the README's command keeps the
    # cluster's limit in tests/test_cluster.py::test_a_time_limit_gives_a_lower_bound
    pytest.param(["--cluster", "local:2"], 2.0, marks=pytest.mark.sweep),
])
@pytest.mark.timing  # it bounds seconds: run alone (see pyproject.toml)
def test_a_sharded_count_ends_at_its_time_limit(full_7x7_spec: Path, tmp_path: Path, option: list[str],
                                                  work: float) -> None:
    """``--time-limit 1`` bounds the whole command, hashing the data, planning the shards and starting
    a Dask cluster included: the limit is the clock's; starting Python and the imports (and Dask's),
    the second for stopping and printing are processor work, allowed times the contention measured
    around the run."""
    if option[0] == "--cluster":
        pytest.importorskip("distributed")
    argv = ["solve", str(full_7x7_spec), "--time-limit", "1", "--json",
            *[str(tmp_path / "run.sqlite") if a == "CKPT" else a for a in option]]
    with Stopwatch() as watch:
        out = _cli(*argv)
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr[-500:]
    result = json.loads(out.stdout)
    assert result["status"] == "unknown" or result["count_exact"] is False
    watch.assert_within(1.0, startup_cpu_s() + work, f"solve --time-limit 1 {option[0]}")


def _chain_that_reaches_the_target_or_waits(self: object, spec: object, context: object, shard: Shard,
                                            budget: object) -> dict[str, object]:
    """Chain 0 reports a board at the target at once; the others would take a minute."""
    if shard.data["chain"] != 0:
        time.sleep(60)
    return {**shard.data, "value": 7, "grid": ["ab", "cd"], "moves": 1, "accepted": 1}


def test_the_first_chain_at_the_target_ends_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a ``target``, the chains (the kind's shards, on two local workers) run until one
    reaches it: the others are ended (their worker killed), so the answer is the finished chain's
    alone (had the runner waited for the others, they would be in it) and no worker is left behind."""
    import cpwords
    from cpwords.puzzles.ruzzle.shards import RuzzleSharding

    monkeypatch.setattr(RuzzleSharding, "run", _chain_that_reaches_the_target_or_waits)  # inherited by forked workers
    spec = {"kind": "ruzzle", "task": "best_board", "grid": ["ab", "cd"], "dictionary": {"words": ["abc"]},
            "target": 7, "seed": 1}
    before = descendants(os.getpid())
    result = cpwords.solve(spec, workers=2)
    assert result.stats["chains"] == 1 and result.stats["best_chain"] == 0 and result.stats["best_value"] == 7
    assert result.stats["workers"] == 2 and result.solutions[0].grid == ["ab", "cd"]
    assert descendants(os.getpid()) <= before


def test_best_board_runs_one_chain_per_worker_and_keeps_the_best() -> None:
    """Chains run on the layer's workers; chain 0 is the one-process search with the spec's seed, so
    two chains never do worse than one (the searches are bounded by moves, not by time)."""
    import cpwords

    before = descendants(os.getpid())
    spec = {"kind": "ruzzle", "task": "best_board", "grid": ["rate", "soni", "lend", "trap"],
            "dictionary": "common-5k", "search": "anneal", "iterations": 300, "seed": 3}
    one = cpwords.solve(spec)  # one chain, in this process
    two = cpwords.solve(spec, workers=2)
    assert two.stats.get("chains") == 2 and "chains" not in one.stats
    assert two.objective >= one.objective
    assert two.objective == cpwords.solve(spec, workers=2).objective  # the same seed, the same board
    assert descendants(os.getpid()) <= before
