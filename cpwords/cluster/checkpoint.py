"""The checkpoint: an SQLite file that keeps every finished shard, so no finished work is lost.

Each finished shard is written (and committed) the moment its result arrives: its spec's index
in the batch, its id, its partial result as JSON, the seconds it took and the worker that ran
it. A shard that was split is written with its children, so that a resumed run rebuilds the
same tree of shards. The file also keeps the fingerprint of every spec of the run
(:func:`cpwords.cluster.sharding.fingerprint`); a run whose fingerprints differ is refused with
one line saying what changed, never mixed in.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.sqlite"
>>> fp = [{"kind": "k", "fields": {}, "data": {}, "scheme": "s:1"}]
>>> with Checkpoint.open(path, fp) as cp:
...     cp.record(0, Shard("a", [1]), {"raw": 10**30}, 0.5, "w1")
>>> with Checkpoint.open(path, fp) as cp:
...     cp.done(0)["a"][0]
{'raw': 1000000000000000000000000000000}
"""

from __future__ import annotations

import json
import sqlite3
import stat
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import quote

from cpwords.cluster.identity import changes, digest
from cpwords.engines.shards import Shard
from cpwords.errors import InputError
from cpwords.wording import counted

FORMAT = "cpwords-checkpoint 1"
OPTION = "--checkpoint"
#: The tables of a checkpoint; a file holding any other table is someone else's.
TABLES = frozenset({"meta", "shards", "splits"})
#: Seconds SQLite waits for a lock another process holds, per attempt (at most what the run's
#: time limit leaves: :func:`lock_wait_s`).
LOCK_WAIT_S = 5.0


def lock_wait_s(budget: Any = None) -> float:
    """How long to wait for another process's lock now: :data:`LOCK_WAIT_S`, or what the run's
    budget leaves when that is less (a locked checkpoint waited 5 s past a 3 s limit once)."""
    left = None if budget is None else budget.left()
    return LOCK_WAIT_S if left is None else max(0.0, min(LOCK_WAIT_S, left))

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS shards (
    spec INTEGER NOT NULL, id TEXT NOT NULL, partial TEXT, seconds REAL, worker TEXT, finished REAL,
    PRIMARY KEY (spec, id));
CREATE TABLE IF NOT EXISTS splits (
    spec INTEGER NOT NULL, id TEXT NOT NULL, children TEXT NOT NULL, PRIMARY KEY (spec, id));
"""


class Checkpoint:
    """An open checkpoint file (use :meth:`open`; a context manager that closes it)."""

    def __init__(self, path: Path, connection: sqlite3.Connection, budget: Any = None) -> None:
        self.path = path
        self._db = connection
        self._budget = budget
        #: Writes a lock held by another process kept out; tried again at each write and at close.
        self._unsaved: list[tuple[str, tuple[Any, ...]]] = []

    @classmethod
    def open(cls, path: str | Path, fingerprints: Sequence[dict[str, Any]], budget: Any = None) -> Checkpoint:
        """Open (or create) the checkpoint of a run of specs with these fingerprints; waiting for
        another process's lock comes out of ``budget`` (the run's, when given).

        Raises
        ------
        InputError
            When the file is not a cpwords checkpoint (nothing is written over it), belongs to a
            different run (the message says what changed), or cannot be created.
        """
        path = Path(path).expanduser()
        wait = lock_wait_s(budget)
        refused = _refusal(path, wait)
        if refused is not None:
            raise InputError(refused, field=OPTION, value=str(path))
        existed = path.exists()
        try:
            db = sqlite3.connect(path, isolation_level=None, timeout=lock_wait_s(budget))
            db.execute("PRAGMA journal_mode=WAL")
            # WAL with NORMAL sync: a committed shard survives a crash of cpwords (not of the OS),
            # and thousands of small shards cost no fsync each.
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_SCHEMA)
            _writable(db)
        except sqlite3.Error as exc:
            raise InputError(_sqlite_problem(exc, wait), field=OPTION, value=str(path)) from None
        cp = cls(path, db, budget)
        try:
            cp._claim(list(fingerprints), existed)
        except sqlite3.Error as exc:
            db.close()
            raise InputError(_sqlite_problem(exc, wait), field=OPTION, value=str(path)) from None
        except BaseException:
            db.close()
            raise
        return cp

    def _claim(self, fingerprints: list[dict[str, Any]], existed: bool) -> None:
        meta = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        job = digest(fingerprints)
        if not meta:
            if existed and self._db.execute("SELECT count(*) FROM shards").fetchone()[0]:
                raise InputError("is not a cpwords checkpoint; refusing to write over it", field=OPTION,
                                 value=str(self.path))
            from cpwords.version import __version__

            with self._db:
                self._db.executemany("INSERT INTO meta VALUES (?, ?)", [
                    ("format", FORMAT), ("job", job), ("fingerprints", json.dumps(fingerprints)),
                    ("created", time.strftime("%Y-%m-%d %H:%M:%S")), ("cpwords", __version__)])
            return
        if meta.get("format") != FORMAT:
            raise InputError("is not a cpwords checkpoint of this version; refusing to write over it",
                             field=OPTION, value=str(self.path))
        if meta.get("job") != job:
            raise InputError(f"this checkpoint belongs to another run: {_what_changed(meta, fingerprints)}; "
                             "resume with the same puzzle and dictionary, or name a new checkpoint file",
                             field=OPTION, value=str(self.path))

    # -- reading

    def done(self, spec: int) -> dict[str, tuple[Any, float]]:
        """Finished shards of spec number ``spec``: id -> (partial, seconds)."""
        try:
            rows = self._db.execute("SELECT id, partial, seconds FROM shards WHERE spec = ?", (spec,)).fetchall()
            return {sid: (json.loads(partial), seconds or 0.0) for sid, partial, seconds in rows}
        except (sqlite3.DatabaseError, ValueError, TypeError) as exc:
            raise self._damaged(exc) from None

    def splits(self, spec: int) -> dict[str, list[Shard]]:
        """Shards of spec number ``spec`` that were split: id -> children."""
        try:
            rows = self._db.execute("SELECT id, children FROM splits WHERE spec = ?", (spec,)).fetchall()
            return {sid: [Shard.from_json(c) for c in json.loads(children)] for sid, children in rows}
        except (sqlite3.DatabaseError, ValueError, TypeError, KeyError) as exc:
            raise self._damaged(exc) from None

    def _damaged(self, exc: Exception) -> InputError:
        return InputError(_sqlite_problem(exc) if isinstance(exc, sqlite3.Error) else
                          "the checkpoint is damaged (a row cannot be read); remove it or name a new file",
                          field=OPTION, value=str(self.path))

    # -- writing (each call is committed at once: a crash loses nothing recorded)

    def record(self, spec: int, shard: Shard, partial: Any, seconds: float, worker: str) -> None:
        """Keep a finished shard."""
        self._write("INSERT OR REPLACE INTO shards VALUES (?, ?, ?, ?, ?, ?)",
                    (spec, shard.id, json.dumps(partial), seconds, worker, time.time()))

    def record_split(self, spec: int, shard: Shard, children: Sequence[Shard]) -> None:
        """Keep how a shard was split."""
        self._write("INSERT OR REPLACE INTO splits VALUES (?, ?, ?)",
                    (spec, shard.id, json.dumps([c.to_json() for c in children])))

    def _write(self, sql: str, row: tuple[Any, ...]) -> None:
        """One write, committed. While another process holds the file locked (past SQLite's own
        wait of :data:`LOCK_WAIT_S`), the write waits in memory and is tried again with the
        next one and at :meth:`close`: the run goes on and its results are not lost."""
        self._unsaved.append((sql, row))
        self._flush()

    def _flush(self) -> None:
        if self._unsaved:
            self._db.execute(f"PRAGMA busy_timeout = {int(lock_wait_s(self._budget) * 1000)}")
        while self._unsaved:
            sql, row = self._unsaved[0]
            try:
                self._db.execute(sql, row)
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    return
                raise
            self._unsaved.pop(0)

    def close(self) -> None:
        """Close the file (after one more try at writes a lock kept out; a warning says what
        could not be kept)."""
        try:
            self._flush()
            if self._unsaved:
                warnings.warn(f"{OPTION} {self.path}: the file stayed locked by another process; "
                              f"{len(self._unsaved)} finished shard(s) of this run were not kept in it "
                              "(the results shown are complete)", stacklevel=2)
        finally:
            self._db.close()

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def shard_times(path: str | Path) -> list[tuple[int, str, float]]:
    """(spec index, shard id, seconds) of every finished shard of a checkpoint file (for benchmarks)."""
    db = sqlite3.connect(Path(path))
    try:
        return [(s, i, t or 0.0) for s, i, t in db.execute("SELECT spec, id, seconds FROM shards ORDER BY spec, id")]
    finally:
        db.close()


def _refusal(path: Path, wait: float = LOCK_WAIT_S) -> str | None:
    """Why ``path`` cannot be a checkpoint, or None: it is new (in a folder that exists), empty,
    or a cpwords checkpoint. Looked at read-only, so a refused file is left byte for byte."""
    try:
        info = path.stat()
    except FileNotFoundError:
        parent = path.parent if str(path.parent) else Path(".")
        return None if parent.is_dir() else "folder does not exist"
    except OSError as exc:
        return f"cannot use it as a checkpoint: {exc.strerror or exc}"
    except ValueError:
        return "not a usable file name (it holds a NUL byte)"
    if stat.S_ISDIR(info.st_mode):
        return "is a folder; give a checkpoint file name"
    if not stat.S_ISREG(info.st_mode):
        return "is a special file (device, FIFO or socket), not a checkpoint file"
    try:
        with path.open("rb") as f:
            head = f.read(16)
    except OSError as exc:
        return f"cannot read it: {exc.strerror or exc}"
    if head == b"":
        return None
    foreign = "is not a cpwords checkpoint; refusing to write over it"
    if head != b"SQLite format 3\x00":
        return foreign
    try:
        db = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, timeout=wait)
    except sqlite3.Error as exc:
        return _sqlite_problem(exc, wait)
    try:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return None
        if not tables <= TABLES or "meta" not in tables:
            return foreign
        columns = [row[1] for row in db.execute("PRAGMA table_info(meta)")]
        if columns != ["key", "value"] or db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone() is None:
            return foreign
        damage = [row[0] for row in db.execute("PRAGMA quick_check")]
        if damage != ["ok"]:
            return "the checkpoint is damaged (SQLite's check of it fails); remove it or name a new file"
    except sqlite3.Error as exc:
        return _sqlite_problem(exc, wait)
    finally:
        db.close()
    return None


def _writable(db: sqlite3.Connection) -> None:
    """Take and drop the write lock, so a file another process keeps locked is refused before
    any work starts (SQLite waits :data:`LOCK_WAIT_S` first)."""
    db.execute("BEGIN IMMEDIATE")
    db.execute("ROLLBACK")


def _sqlite_problem(exc: sqlite3.Error, wait: float = LOCK_WAIT_S) -> str:
    """One line for what SQLite said about a checkpoint file."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        waited = f"waited {wait:g} s" if wait >= LOCK_WAIT_S else f"waited {wait:.2g} s, what the time limit left"
        return (f"the checkpoint is locked by another process ({waited}); "
                "wait for it to finish or name a new file")
    if isinstance(exc, sqlite3.DatabaseError) and ("malformed" in text or "not a database" in text):
        return "the checkpoint is damaged (not a readable SQLite file); remove it or name a new file"
    return f"cannot open the checkpoint: {text}"


def _what_changed(meta: dict[str, str], fingerprints: list[dict[str, Any]]) -> str:
    try:
        old = json.loads(meta.get("fingerprints", "[]"))
    except ValueError:
        return "its run cannot be read"
    if len(old) != len(fingerprints):
        return f"it holds {counted(len(old), 'puzzle')}, this run {len(fingerprints)}"
    for i, (a, b) in enumerate(zip(old, fingerprints, strict=True)):
        if digest(a) != digest(b):
            return (f"puzzle {i + 1}: " if len(old) > 1 else "") + changes(a, b)
    return "its run differs"
