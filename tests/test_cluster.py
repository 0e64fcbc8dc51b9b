"""The cluster runner without Dask: shards in this process and in local processes, checkpoints,
resume, stop, refusals. Every count is compared with the one-process count of the kind itself.
(Dask itself: tests/test_cluster_dask.py.)"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import common_v1_file
from pace import HANG_S, Stopwatch, wait_until, warm_cache

import cpwords
from cpwords import api
from cpwords.cluster.checkpoint import shard_times
from cpwords.engines import dask_cluster as executors
from cpwords.engines.budget import Budget
from cpwords.errors import InputError
from cpwords.puzzles.letter_boxed.shards import census


def sharded(spec: Any, **options: Any) -> cpwords.Result:
    """One spec solved in shards (:func:`cpwords.api.solve_batch`)."""
    return api.solve_batch([spec], **options)[0]

BOARD = {"kind": "prefix_suffix_board", "dictionary": "common-5k", "task": "count_boards", "seed": 1}
GRID = {"kind": "word_grid", "shape": "ring-3x3", "task": "count", "dictionary": "common-5k", "seed": 1}
GRID_5X5 = {"kind": "word_grid", "shape": "gridle-5x5", "task": "count", "seed": 1,
            "dictionary": {"name": "common-2k", "min_length": 5, "max_length": 5}}
RUZZLE = {"kind": "ruzzle", "task": "best_board", "grid": ["rate", "soni", "lend", "trap"],
          "dictionary": "common-5k", "iterations": 40, "seed": 3}


@pytest.fixture(scope="module")
def board_truth() -> dict[str, cpwords.Result]:
    """The native one-process counts of both board tasks."""
    return {task: cpwords.solve({**BOARD, "task": task}, workers=1) for task in ("count_boards", "count_suffix_sets")}


def stopping_after(n: int, budget_box: list[Budget]) -> Callable[..., Any]:
    """A progress reporter that stops the run (as Ctrl-C does) once ``n`` root shards are done."""

    @contextmanager
    def progress(description: str, total: int | None = None) -> Iterator[Callable[[int], None]]:
        seen = 0

        def advance(k: int = 1) -> None:
            nonlocal seen
            seen += k
            if seen >= n:
                budget_box[0].stop("interrupted")

        yield advance

    return progress


@pytest.mark.parametrize("task", ["count_boards", "count_suffix_sets"])
@pytest.mark.parametrize("workers,cap", [(1, None), (1, 0.005), (2, 0.005)])
def test_board_counts_equal_the_native_count(board_truth: dict[str, Any], task: str, workers: int,
                                             cap: float | None) -> None:
    truth = board_truth[task]
    r = sharded({**BOARD, "task": task}, workers=workers, shard_seconds=cap)
    assert (r.status.value, r.count, r.count_exact) == ("optimal", truth.count, True)
    assert r.stats["raw_count"] == truth.stats["raw_count"]
    assert r.stats["shards_done"] == r.stats["shards_total"] >= 2
    assert r.stats["cluster"] == ("this process" if workers == 1 else "2 local processes")


def test_a_solve_with_two_workers_gives_the_one_process_count(board_truth: dict[str, Any]) -> None:
    """Whichever route the API gives the spec (the kind counts in one process; shards on the
    runner's workers), the count is the same."""
    assert cpwords.solve(BOARD, workers=2).count == board_truth["count_boards"].count


@pytest.mark.parametrize("spec", [GRID, GRID_5X5])
def test_grid_count_is_the_sum_of_its_terms(spec: dict[str, Any]) -> None:
    truth = cpwords.solve(spec)
    r = sharded(spec, workers=2, shard_seconds=0.002)  # tiny cap: ranges of terms get split
    assert (r.count, r.stats["raw_count"], r.count_exact) == (truth.count, truth.stats["raw_count"], True)
    assert r.stats["method"] == "sum-product" and r.stats["fixed_points"] == truth.stats["fixed_points"]


def test_best_board_depends_on_the_seed_only() -> None:
    one = cpwords.solve(RUZZLE)
    a = sharded(RUZZLE, workers=1)
    b = sharded(RUZZLE, workers=2)
    assert a.stats["grid"] == b.stats["grid"] and a.objective == b.objective
    assert a.stats["chain_values"][0] == one.objective  # chain 0 is the one-process search
    assert a.objective == max(a.stats["chain_values"]) >= one.objective
    assert a.solutions and all(s.model_dump()["grid"] == a.stats["grid"] for s in a.solutions)


def test_letter_boxed_batch_counts_every_box() -> None:
    boxes = census(8, seed=2, dictionary="common-5k", max_words=3)
    truth = [cpwords.solve(b, seed=1) for b in boxes]
    results = api.solve_batch(boxes, workers=2)
    assert [r.count for r in results] == [t.count for t in truth]
    assert [r.stats["count_by_words"] for r in results] == [t.stats["count_by_words"] for t in truth]
    assert [r.status for r in results] == [t.status for t in truth]


def test_a_task_without_shards_runs_whole() -> None:
    spec = {"kind": "letter_boxed", "sides": ["lme", "iuf", "wcb", "oas"], "task": "min_words", "seed": 1}
    r = sharded(spec)
    assert r.solved and [s.words for s in r.solutions] == [s.words for s in cpwords.solve(spec).solutions]
    assert type(r.solutions[0]).__name__ == "LetterBoxedSolution" and r.stats["shards_total"] == 1


def test_stop_then_resume_from_the_checkpoint(tmp_path: Path, board_truth: dict[str, Any]) -> None:
    path = tmp_path / "run.sqlite"
    truth = board_truth["count_boards"]
    box: list[Budget] = []
    run = Budget(None, progress=stopping_after(2, box))
    box.append(run)
    stopped = sharded(BOARD, workers=1, checkpoint=path, budget=run, shard_seconds=0.005)
    assert stopped.count_exact is False and stopped.stats["stopped"] == "interrupted"
    assert stopped.count < truth.count
    kept = len(shard_times(path))
    assert 0 < kept == stopped.stats["shards_done"] < stopped.stats["shards_total"]
    resumed = sharded(BOARD, workers=2, checkpoint=path, shard_seconds=0.005)
    assert (resumed.count, resumed.count_exact) == (truth.count, True)
    assert resumed.stats["shards_resumed"] == kept
    assert resumed.stats["shards_run"] == resumed.stats["shards_total"] - kept < resumed.stats["shards_total"]
    again = sharded(BOARD, checkpoint=path)
    assert (again.count, again.stats["shards_run"]) == (truth.count, 0)


def test_a_changed_spec_or_dictionary_is_refused(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("water\nlater\nwader\nlader\nwager\nlager\n", encoding="utf-8")
    spec = {**BOARD, "dictionary": {"path": str(words)}}
    path = tmp_path / "run.sqlite"
    sharded(spec, checkpoint=path)
    # what cannot change an answer may change
    assert sharded({**spec, "time_limit": 50, "seed": 9}, checkpoint=path).stats["shards_run"] == 0
    with pytest.raises(InputError, match="field suffix_length changed"):
        sharded({**spec, "suffix_length": [2, 2]}, checkpoint=path)
    words.write_text("water\nlater\nwader\n", encoding="utf-8")
    with pytest.raises(InputError, match="content of dictionary changed") as info:
        sharded(spec, checkpoint=path)
    assert "\n" not in info.value.one_line() and "field 'checkpoint'" in info.value.one_line()  # the API's argument


def test_a_seeded_search_names_the_seed_to_resume(tmp_path: Path) -> None:
    path = tmp_path / "ruzzle.sqlite"
    sharded({**RUZZLE, "iterations": 5}, checkpoint=path)
    with pytest.raises(InputError, match="pass --seed 3 to resume"):
        sharded({**RUZZLE, "iterations": 5, "seed": 4}, checkpoint=path)


def test_nothing_is_written_over_a_file_that_is_not_a_checkpoint(tmp_path: Path) -> None:
    precious = tmp_path / "puzzle.yaml"
    precious.write_text("kind: ladder\n", encoding="utf-8")
    with pytest.raises(InputError, match="not a cpwords checkpoint"):
        sharded(BOARD, checkpoint=precious)
    assert precious.read_text(encoding="utf-8") == "kind: ladder\n"
    with pytest.raises(InputError, match="folder does not exist"):
        sharded(BOARD, checkpoint=tmp_path / "missing" / "run.sqlite")


def test_the_checkpoint_keeps_exact_big_integers(tmp_path: Path) -> None:
    path = tmp_path / "run.sqlite"
    sharded(BOARD, checkpoint=path)
    db = sqlite3.connect(path)
    rows = db.execute("SELECT partial, seconds, worker FROM shards").fetchall()
    db.close()
    assert rows and all('"raw"' in p and s >= 0 and w for p, s, w in rows)


@pytest.mark.timing  # it bounds seconds: run alone (see pyproject.toml)
def test_a_time_limit_gives_a_lower_bound() -> None:
    """A sharded count (minutes of work) at a 0.3 s limit ends at it, cut short: the limit is the
    clock's; loading the words, planning the shards and stopping are processor work."""
    spec = {**BOARD, "dictionary": "common-20k"}
    warm_cache(spec)  # the words' one-time builds done, as on a second use
    with Stopwatch() as watch:
        r = sharded(spec, workers=1, time_limit=0.3)
    assert r.count_exact is False and r.stats["stopped"] == "time_limit"
    watch.assert_within(0.3, 1.0, "a sharded count at time_limit 0.3")


def test_bad_cluster_options_are_input_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InputError, match="local:N"):
        sharded(BOARD, cluster="local:x")
    monkeypatch.setenv(executors.ENV, "off")
    assert executors.cluster_option(None) is None
    monkeypatch.setenv(executors.ENV, "tcp://127.0.0.1:1")
    assert executors.cluster_option(None) == "tcp://127.0.0.1:1"
    assert executors.cluster_option("none") is None


def test_the_api_and_the_command_line_take_the_cluster_options(monkeypatch: pytest.MonkeyPatch,
                                                               board_truth: dict[str, Any], tmp_path: Path) -> None:
    from cpwords.cli import main

    path = tmp_path / "api.sqlite"
    r = cpwords.solve(BOARD, checkpoint=path, workers=2)
    assert (r.count, r.count_exact, r.stats["shards_done"]) == (board_truth["count_boards"].count, True,
                                                                  len(shard_times(path)))
    assert "shards_total" not in cpwords.solve(BOARD, workers=1).stats  # one worker: the kind's own solve
    monkeypatch.setenv(executors.ENV, "local:x")  # the variable is read when the call names no cluster
    with pytest.raises(InputError, match="local:N"):
        cpwords.solve(BOARD)
    assert main([*_board_file(tmp_path), "--cluster", "off", "--json"]) == 0  # the option wins
    monkeypatch.delenv(executors.ENV)
    assert main([*_board_file(tmp_path), "--cluster", "local:0"]) == 2


def _board_file(tmp_path: Path, dictionary: str = "common-5k", suffixes: str = "[2, 3]") -> list[str]:
    puzzle = tmp_path / "board.yaml"
    puzzle.write_text(f"kind: prefix_suffix_board\ndictionary: {dictionary}\ntask: count_boards\n"
                      f"suffix_length: {suffixes}\n", encoding="utf-8")
    return ["solve", str(puzzle)]


def test_ctrl_c_keeps_the_checkpoint_and_the_same_command_resumes(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """As a user runs it (a process of its own): Ctrl-C once two shards are kept exits 130 with
    what was counted; the same command again (in this process: the answer is the point) resumes
    from the checkpoint and gives the exact count."""
    import json
    import signal
    import subprocess
    import sys

    from cpwords.cli import main

    path = tmp_path / "run.sqlite"
    # Seconds of work in shards: 28,471,768 boards of the version-1 common-10k with two-letter suffixes
    # (the kind's own one-process count).
    words = common_v1_file(10000, tmp_path)
    command = [str(Path(sys.executable).parent / "cpwords"), *_board_file(tmp_path, f"{{path: {words}}}", "[2, 2]"),
               "--checkpoint", str(path), "--workers", "1", "--json"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        def two_kept() -> bool:
            assert proc.poll() is None, proc.stderr and proc.stderr.read()
            return _kept_so_far(path) >= 2

        wait_until(two_kept, "two shards in the checkpoint", poll_s=0.02)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=HANG_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130 and "interrupted" in err
    stopped = json.loads(out)
    kept = len(shard_times(path))
    assert stopped["count_exact"] is False and 2 <= stopped["stats"]["shards_done"] == kept
    capsys.readouterr()
    assert main(command[1:]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert (resumed["count"], resumed["count_exact"]) == (28_471_768, True)
    assert resumed["stats"]["shards_resumed"] == kept and resumed["stats"]["shards_run"] < resumed["stats"]["shards_total"]


def _kept_so_far(path: Path) -> int:
    """Shards in a checkpoint another process is writing (0 before it has made its tables)."""
    try:
        return len(shard_times(path)) if path.exists() else 0
    except sqlite3.OperationalError:
        return 0


def test_a_sharded_count_with_repeats_cut_short_reports_a_lower_bound() -> None:
    """Without distinct words the finished shards' identity leaves bound the raw count from below, as
    the one-process count reports it; with distinct words the signed terms bound nothing."""
    grid = {**GRID_5X5, "dictionary": "common-10k"}  # 19 shards
    truth = cpwords.solve({**grid, "distinct_words": False}, workers=1)
    for distinct in (False, True):
        box: list[Budget] = []
        run = Budget(None, progress=stopping_after(3, box))
        box.append(run)
        cut = api.solve_batch([{**grid, "distinct_words": distinct}], workers=1, budget=run, shard_seconds=None)[0]
        assert cut.count_exact is not True and cut.stats["shards_done"] < cut.stats["shards_total"], cut.message
        if distinct:
            assert cut.count is None and "no bound" in (cut.message or "")
        else:
            assert cut.status.value == "feasible" and "lower bound" in (cut.message or "")
            assert 0 < cut.stats["raw_count"] < truth.stats["raw_count"] and 0 < cut.count <= truth.count
