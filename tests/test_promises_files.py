"""Issue 23, "nothing the user has is written into": each case runs the command as a user does
(``python -m cpwords`` in a subprocess) and checks the one-line error, the exit code and that
the user's files are byte for byte as they were.

The table of every case is docs/reliability.md.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ERROR_LINE = re.compile(r"^cpwords: error: ")


def cpwords(*argv: str, cwd: Path | None = None, timeout: float = 90, **kw: object) -> subprocess.CompletedProcess[str]:
    """``python -m cpwords ARGV`` as a user runs it."""
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


@pytest.mark.parametrize("statements", [
    ("CREATE TABLE t (x)", "INSERT INTO t VALUES (1)"),  # another program's file: today it gains our tables
    ("CREATE TABLE meta (a, b)", "INSERT INTO meta VALUES (1, 2)"),  # our table's name, not ours: a traceback
    ("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)", "CREATE TABLE notes (x)"),
], ids=["foreign-table", "foreign-meta", "extra-table"])
def test_a_foreign_sqlite_file_is_refused_and_left_untouched(statements: tuple[str, ...], tmp_path: Path) -> None:
    path = tmp_path / "theirs.db"
    before = _sqlite(path, *statements)
    run = cpwords(*LADDER, "--checkpoint", str(path))
    one_error(run, naming="not a cpwords checkpoint")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theirs.db"]


def test_a_fifo_checkpoint_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    one_error(cpwords(*LADDER, "--checkpoint", str(fifo), timeout=30), naming="special file")


def test_a_damaged_checkpoint_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "run.db"
    assert cpwords(*LADDER, "--checkpoint", str(path)).returncode == 0
    for extra in tmp_path.glob("run.db-*"):
        extra.unlink()
    data = bytearray(path.read_bytes())
    assert len(data) > 8192
    data[4096:8192] = b"\xde\xad" * 2048  # a page overwritten mid-file
    path.write_bytes(bytes(data))
    one_error(cpwords(*LADDER, "--checkpoint", str(path)), naming="damaged")
    assert path.read_bytes() == bytes(data)


def test_a_checkpoint_of_cpwords_still_resumes(tmp_path: Path) -> None:
    path = tmp_path / "run.db"
    first = cpwords(*LADDER, "--checkpoint", str(path))
    again = cpwords(*LADDER, "--checkpoint", str(path))
    assert first.returncode == again.returncode == 0, again.stderr
    assert '"shards_resumed": 1' in again.stdout


# ---------------------------------------------------------------- 3. a checkpoint locked by another process


def test_a_locked_checkpoint_is_one_line_after_a_bounded_wait(tmp_path: Path) -> None:
    path = tmp_path / "run.db"
    assert cpwords(*LADDER, "--checkpoint", str(path)).returncode == 0
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        run = cpwords(*LADDER, "--checkpoint", str(path), timeout=60)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    one_error(run, naming="locked by another process")
    resumed = cpwords(*LADDER, "--checkpoint", str(path))  # what was done is still there
    assert resumed.returncode == 0 and '"shards_resumed": 1' in resumed.stdout, resumed.stderr


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


def test_force_replaces_a_link_never_the_file_it_points_to(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    link = tmp_path / "notes.svg"
    link.symlink_to(notes)
    run = cpwords("letter-boxed", "abc", "def", "ghi", "jkl", "--svg", str(link), "--force")
    assert run.returncode == 0, run.stderr
    assert notes.read_text() == "my notes\n"
    assert not link.is_symlink() and link.read_text().startswith("<svg")


def test_a_dangling_link_is_not_written_through(tmp_path: Path) -> None:
    link = tmp_path / "out.svg"
    link.symlink_to(tmp_path / "elsewhere.txt")
    one_error(cpwords("letter-boxed", "abc", "def", "ghi", "jkl", "--svg", str(link)), naming="--force")
    assert not (tmp_path / "elsewhere.txt").exists()


# ---------------------------------------------------------------- 7. names too long for the system

LONG = "a" * 300


@pytest.mark.parametrize("argv", [
    ["letter-boxed", "abc", "def", "ghi", "jkl", "--svg", LONG + ".svg"],
    ["ladder", "cold", "warm", "--dict", LONG],
    ["ladder", "cold", "warm", "--dict", LONG + ".txt"],
    ["grid", "--shape", LONG],
    ["grid", "--shape", LONG + ".yaml"],
    ["ladder", "cold", "warm", "--checkpoint", LONG],
    ["dict", "info", "a" * 256],
    ["dict", "info", LONG + ".txt"],
    ["solve", LONG + ".yaml"],
], ids=["svg", "dict-name", "dict-file", "shape-name", "shape-file", "checkpoint", "info-word", "info-file", "solve"])
def test_names_too_long_for_the_system_are_one_line(argv: list[str], tmp_path: Path) -> None:
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
                         timeout=60, check=False)
    assert run.returncode == 2
