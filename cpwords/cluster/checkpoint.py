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
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from cpwords.cluster.identity import changes, digest
from cpwords.engines.shards import Shard
from cpwords.errors import InputError

FORMAT = "cpwords-checkpoint 1"
OPTION = "--checkpoint"

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

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection

    @classmethod
    def open(cls, path: str | Path, fingerprints: Sequence[dict[str, Any]]) -> Checkpoint:
        """Open (or create) the checkpoint of a run of specs with these fingerprints.

        Raises
        ------
        InputError
            When the file is not a cpwords checkpoint (nothing is written over it), belongs to a
            different run (the message says what changed), or cannot be created.
        """
        path = Path(path).expanduser()
        if path.is_dir():
            raise InputError("is a folder; give a checkpoint file name", field=OPTION, value=str(path))
        existed = path.exists()
        if not existed and not (path.parent if str(path.parent) else Path(".")).is_dir():
            raise InputError("folder does not exist", field=OPTION, value=str(path))
        if existed and not _is_sqlite(path):
            raise InputError("is not a cpwords checkpoint; refusing to write over it", field=OPTION, value=str(path))
        try:
            db = sqlite3.connect(path, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            # WAL with NORMAL sync: a committed shard survives a crash of cpwords (not of the OS),
            # and thousands of small shards cost no fsync each.
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise InputError(f"cannot open the checkpoint: {exc}", field=OPTION, value=str(path)) from None
        cp = cls(path, db)
        try:
            cp._claim(list(fingerprints), existed)
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
        rows = self._db.execute("SELECT id, partial, seconds FROM shards WHERE spec = ?", (spec,))
        return {sid: (json.loads(partial), seconds or 0.0) for sid, partial, seconds in rows}

    def splits(self, spec: int) -> dict[str, list[Shard]]:
        """Shards of spec number ``spec`` that were split: id -> children."""
        rows = self._db.execute("SELECT id, children FROM splits WHERE spec = ?", (spec,))
        return {sid: [Shard.from_json(c) for c in json.loads(children)] for sid, children in rows}

    # -- writing (each call is committed at once: a crash loses nothing recorded)

    def record(self, spec: int, shard: Shard, partial: Any, seconds: float, worker: str) -> None:
        """Keep a finished shard."""
        self._db.execute("INSERT OR REPLACE INTO shards VALUES (?, ?, ?, ?, ?, ?)",
                         (spec, shard.id, json.dumps(partial), seconds, worker, time.time()))

    def record_split(self, spec: int, shard: Shard, children: Sequence[Shard]) -> None:
        """Keep how a shard was split."""
        self._db.execute("INSERT OR REPLACE INTO splits VALUES (?, ?, ?)",
                         (spec, shard.id, json.dumps([c.to_json() for c in children])))

    def close(self) -> None:
        """Close the file."""
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


def _is_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            head = f.read(16)
    except OSError:
        return False
    return head == b"SQLite format 3\x00" or head == b""


def _what_changed(meta: dict[str, str], fingerprints: list[dict[str, Any]]) -> str:
    try:
        old = json.loads(meta.get("fingerprints", "[]"))
    except ValueError:
        return "its run cannot be read"
    if len(old) != len(fingerprints):
        return f"it holds {len(old)} puzzles, this run {len(fingerprints)}"
    for i, (a, b) in enumerate(zip(old, fingerprints, strict=True)):
        if digest(a) != digest(b):
            return (f"puzzle {i + 1}: " if len(old) > 1 else "") + changes(a, b)
    return "its run differs"
