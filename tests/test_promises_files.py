"""Issue 23, "nothing the user has is written into": each case runs the command and checks the
one-line error, the exit code and that the user's files are byte for byte as they were. A case
runs as a user does (``python -m cpwords`` in a subprocess) where the process matters (a
checkpoint written by one process and read by the next, closed streams) and through
:func:`cpwords.cli.main`, what the command runs, where the message and the files are the promise
(a representative of those as a process too; the others as processes in the ``sweep``).

The table of every case is docs/reliability.md.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from pace import HANG_S
from test_robustness import run_main

ERROR_LINE = re.compile(r"^cpwords: error: ")


def cpwords(*argv: str, cwd: Path | None = None, timeout: float = HANG_S,
            **kw: object) -> subprocess.CompletedProcess[str]:
    """``python -m cpwords ARGV`` as a user runs it (``timeout`` guards against a hang only)."""
    options: dict[str, object] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    options.update(kw)
    return subprocess.run([sys.executable, "-m", "cpwords", *argv], text=True, cwd=cwd, timeout=timeout,
                          check=False, **options)  # type: ignore[call-overload]


def one_error(run: subprocess.CompletedProcess[str], *, naming: str = "") -> str:
    """Exit 2, no traceback, one error line (holding ``naming``); returns the line."""
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and ERROR_LINE.match(lines[0]), run.stderr
    assert naming in lines[0], lines[0]
    return lines[0]


LADDER = ("ladder", "cold", "warm", "--seed", "1", "--json")


# ---------------------------------------------------------------- 1. checkpoints that are not ours


def _sqlite(path: Path, *statements: str) -> bytes:
    db = sqlite3.connect(path)
    for sql in statements:
        db.execute(sql)
    db.commit()
    db.close()
    return path.read_bytes()


@pytest.fixture(scope="module")
def finished_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The checkpoint of a finished LADDER run, written by a process as a user runs it (tests copy it)."""
    path = tmp_path_factory.mktemp("checkpoint") / "run.db"
    run = cpwords(*LADDER, "--checkpoint", str(path))
    assert run.returncode == 0, run.stderr
    return path


def _copy(checkpoint: Path, folder: Path) -> Path:
    """A copy of ``checkpoint`` (its main file only: a finished run leaves nothing else to read)."""
    path = folder / "run.db"
    shutil.copyfile(checkpoint, path)
    return path


@pytest.mark.parametrize("statements", [
    ("CREATE TABLE t (x)", "INSERT INTO t VALUES (1)"),  # another program's file: today it gains our tables
    ("CREATE TABLE meta (a, b)", "INSERT INTO meta VALUES (1, 2)"),  # our table's name, not ours: a traceback
    ("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)", "CREATE TABLE notes (x)"),
], ids=["foreign-table", "foreign-meta", "extra-table"])
def test_a_foreign_sqlite_file_is_refused_and_left_untouched(statements: tuple[str, ...], tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "theirs.db"
    before = _sqlite(path, *statements)
    run = run_main([*LADDER, "--checkpoint", str(path)], capsys)
    one_error(run, naming="not a cpwords checkpoint")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theirs.db"]


def test_a_fifo_checkpoint_is_refused_without_hanging(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    one_error(run_main([*LADDER, "--checkpoint", str(fifo)], capsys), naming="special file")  # or the hang guard


def test_a_damaged_checkpoint_is_one_line(tmp_path: Path, finished_checkpoint: Path) -> None:
    path = _copy(finished_checkpoint, tmp_path)
    data = bytearray(path.read_bytes())
    assert len(data) > 8192
    data[4096:8192] = b"\xde\xad" * 2048  # a page overwritten mid-file
    path.write_bytes(bytes(data))
    one_error(cpwords(*LADDER, "--checkpoint", str(path)), naming="damaged")
    assert path.read_bytes() == bytes(data)


def test_a_checkpoint_of_cpwords_still_resumes(tmp_path: Path, finished_checkpoint: Path) -> None:
    """A checkpoint one process wrote, resumed by the next."""
    again = cpwords(*LADDER, "--checkpoint", str(_copy(finished_checkpoint, tmp_path)))
    assert again.returncode == 0, again.stderr
    assert '"shards_resumed": 1' in again.stdout


# ---------------------------------------------------------------- 3. a checkpoint locked by another process


def test_a_locked_checkpoint_is_one_line_after_a_bounded_wait(tmp_path: Path, finished_checkpoint: Path,
                                                              capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process, with SQLite's wait for the lock cut to a twentieth of a second (the sweep runs it
    as a process, with the real wait)."""
    from cpwords.cluster import checkpoint as cp

    monkeypatch.setattr(cp, "LOCK_WAIT_S", 0.05)
    path = _copy(finished_checkpoint, tmp_path)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        run = run_main([*LADDER, "--checkpoint", str(path)], capsys)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    one_error(run, naming="locked by another process")
    resumed = run_main([*LADDER, "--checkpoint", str(path)], capsys)  # what was done is still there
    assert resumed.returncode == 0 and '"shards_resumed": 1' in resumed.stdout, resumed.stderr


@pytest.mark.sweep
def test_a_locked_checkpoint_is_one_line_after_a_bounded_wait_as_the_user_runs_it(
        tmp_path: Path, finished_checkpoint: Path) -> None:
    path = _copy(finished_checkpoint, tmp_path)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        run = cpwords(*LADDER, "--checkpoint", str(path))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    one_error(run, naming="locked by another process")
    resumed = cpwords(*LADDER, "--checkpoint", str(path))  # what was done is still there
    assert resumed.returncode == 0 and '"shards_resumed": 1' in resumed.stdout, resumed.stderr


def test_a_locked_checkpoint_waits_only_what_the_time_limit_leaves(tmp_path: Path, finished_checkpoint: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 34, C2: the wait for another process's lock comes out of the command's deadline (it
    waited 5 s whatever the limit: 6.19 s for ``--time-limit 3``). The line says what it waited."""
    from cpwords.cluster import checkpoint as cp

    path = _copy(finished_checkpoint, tmp_path)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        run = run_main([*LADDER, "--checkpoint", str(path), "--time-limit", "0.3"], capsys)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    line = one_error(run, naming="locked by another process")
    waited = float(line.split("(waited ")[1].split(" s")[0])
    assert waited <= 0.3 and "what the time limit left" in line, line
    assert cp.lock_wait_s(None) == cp.LOCK_WAIT_S


def test_shards_finished_while_the_file_is_locked_are_kept_in_memory_and_written_later(tmp_path: Path) -> None:
    """A lock taken after the run started: the writes wait in memory and land when it goes."""
    from cpwords.cluster import checkpoint as cp
    from cpwords.engines.shards import Shard

    path = tmp_path / "run.db"
    fp = [{"kind": "k", "fields": {}, "data": {}, "scheme": "s:1"}]
    old_wait, cp.LOCK_WAIT_S = cp.LOCK_WAIT_S, 0.05
    try:
        store = cp.Checkpoint.open(path, fp)
        store._db.execute("PRAGMA busy_timeout = 50")
        holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN EXCLUSIVE")
        store.record(0, Shard("a", [1]), {"n": 1}, 0.1, "w")
        store.record(0, Shard("b", [2]), {"n": 2}, 0.1, "w")
        assert len(store._unsaved) == 2
        release = threading.Timer(0.2, lambda: holder.execute("ROLLBACK"))
        release.start()
        release.join()
        store.close()
        holder.close()
    finally:
        cp.LOCK_WAIT_S = old_wait
    with cp.Checkpoint.open(path, fp) as again:
        assert sorted(again.done(0)) == ["a", "b"]


# ---------------------------------------------------------------- 2. --force replaces a link, not its target


def test_force_replaces_a_link_never_the_file_it_points_to(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    link = tmp_path / "notes.svg"
    link.symlink_to(notes)
    run = run_main(["letter-boxed", "abc", "def", "ghi", "jkl", "--svg", str(link), "--force"], capsys)
    assert run.returncode == 0, run.stderr
    assert notes.read_text() == "my notes\n"
    assert not link.is_symlink() and link.read_text().startswith("<svg")


def test_a_dangling_link_is_not_written_through(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    link = tmp_path / "out.svg"
    link.symlink_to(tmp_path / "elsewhere.txt")
    one_error(run_main(["letter-boxed", "abc", "def", "ghi", "jkl", "--svg", str(link)], capsys), naming="--force")
    assert not (tmp_path / "elsewhere.txt").exists()


# ---------------------------------------------------------------- 7. names too long for the system

LONG = "a" * 300
TOO_LONG = {
    "svg": ["letter-boxed", "abc", "def", "ghi", "jkl", "--svg", LONG + ".svg"],
    "dict-name": ["ladder", "cold", "warm", "--dict", LONG],
    "dict-file": ["ladder", "cold", "warm", "--dict", LONG + ".txt"],
    "shape-name": ["grid", "--shape", LONG],
    "shape-file": ["grid", "--shape", LONG + ".yaml"],
    "checkpoint": ["ladder", "cold", "warm", "--checkpoint", LONG],
    "info-word": ["dict", "info", "a" * 256],
    "info-file": ["dict", "info", LONG + ".txt"],
    "solve": ["solve", LONG + ".yaml"],
}


@pytest.mark.parametrize("argv", TOO_LONG.values(), ids=TOO_LONG.keys())
def test_names_too_long_for_the_system_are_one_line(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    one_error(run_main(argv, capsys))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [pytest.param(argv, id=name, marks=[] if name == "checkpoint" else [pytest.mark.sweep])
                                  for name, argv in TOO_LONG.items()])
def test_names_too_long_for_the_system_as_the_user_runs_it(argv: list[str], tmp_path: Path) -> None:
    one_error(cpwords(*argv, cwd=tmp_path))
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- 8. closed standard streams


def test_closed_stdout_is_one_line_before_any_work() -> None:
    run = cpwords("ladder", "cold", "warm", stdout=None, pass_fds=(), close_fds=True,
                  preexec_fn=lambda: os.close(1))
    one_error(run, naming="standard output is closed")


def test_closed_stderr_and_stdout_end_quietly_with_exit_2() -> None:
    def close_both() -> None:
        os.close(1)
        os.close(2)

    run = subprocess.run([sys.executable, "-m", "cpwords", "ladder", "cold", "warm"], preexec_fn=close_both,
                         timeout=HANG_S, check=False)
    assert run.returncode == 2
