"""A disk cache for indexes derived from a lexicon (e.g. ladder links), keyed by its content hash.

Files live in ``$CPWORDS_CACHE_DIR``, else ``$XDG_CACHE_HOME/cpwords``, else ``~/.cache/cpwords``.
Each file is ``MAGIC``, a SHA-256 of the payload, then the pickled payload ``(key, value)``; a file
whose magic, checksum or key does not match (stale, truncated, from another version) is rebuilt.
Pickles are loaded only from the user's own cache directory.

Concurrent runs build each entry once: the builder holds an exclusive ``fcntl.flock`` on
``<entry>.lock`` (the standard library's advisory lock; released by the kernel when a process
dies, so a killed build never blocks the next one), and the others wait, then read its file. A
file is written through :mod:`cpwords.writer` (the one writer): to a fresh ``<entry>.<pid>.….tmp``
renamed into place; temporary files of processes that are gone (a build killed half-way) are
removed by the next build of that entry.

The cache is an optimisation only: an unwritable folder means the value is just not stored, and
one warning per process says so.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import re
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol, TypeVar

from cpwords import writer

T = TypeVar("T")


class Lexicon(Protocol):
    """What the cache needs of a lexicon: its content hash (a :class:`cpwords.lexicon.Lexicon`,
    or a stand-in holding only the hash; no import of the lexicon module, which stores through
    this one)."""

    @property
    def content_hash(self) -> str: ...


MAGIC = b"cpwords-cache 1\n"


def cache_dir() -> Path:
    """The folder cpwords caches in (not created here)."""
    if env := os.environ.get("CPWORDS_CACHE_DIR"):
        return Path(env).expanduser()
    if xdg := os.environ.get("XDG_CACHE_HOME"):
        return Path(xdg).expanduser() / "cpwords"
    return Path.home() / ".cache" / "cpwords"


def cache_path(lexicon: Lexicon, name: str, version: int) -> Path:
    """Where ``cached`` keeps ``name`` for ``lexicon``."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    return cache_dir() / f"{safe}-v{version}-{lexicon.content_hash[:20]}.pickle"


def _read(path: Path, key: tuple[str, int, str]) -> tuple[bool, object]:
    try:
        blob = path.read_bytes()
    except OSError:
        return False, None
    head, digest, payload = blob[: len(MAGIC)], blob[len(MAGIC) : len(MAGIC) + 32], blob[len(MAGIC) + 32 :]
    if head != MAGIC or hashlib.sha256(payload).digest() != digest:
        return False, None
    try:
        stored_key, value = pickle.loads(payload)
    except Exception:  # any unpickling failure means a corrupt file: rebuild
        return False, None
    return stored_key == key, value


class CacheWarning(UserWarning):
    """The cache folder cannot be written: derived indexes are rebuilt by every run."""


_warned = False


def _warn_unwritable(folder: Path, exc: OSError) -> None:
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(f"cannot write the cache folder {folder} ({exc.strerror or exc}); indexes are rebuilt "
                      "each run (set CPWORDS_CACHE_DIR to a writable folder)", CacheWarning, stacklevel=4)


#: Written through the one writer (kept here under their old names for the cache's users).
write_atomically = writer.replace_bytes
remove_stale_temporaries = writer.remove_stale_temporaries


@contextlib.contextmanager
def build_lock(path: Path) -> Iterator[bool]:
    """Hold the exclusive lock of cache entry ``path`` while inside (other processes wait); yields
    False when the lock cannot be had (an unwritable folder: build without it)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock, concurrent builds just repeat the work
        yield False
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = writer.open_lock(path.with_name(path.name + ".lock"))
    except OSError as exc:
        _warn_unwritable(path.parent, exc)
        yield False
        return
    try:
        _wait_for_lock(fd, path, fcntl)
        yield True
    finally:
        os.close(fd)  # closing releases the lock


def _wait_for_lock(fd: int, path: Path, fcntl: Any) -> None:
    """Take the exclusive lock on ``fd``; while another process holds it (building the same
    entry), wait as a build stage of this run: a time limit ends the wait too."""
    from cpwords.engines.budget import build_checkpoint

    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            entry = path.name.split("-v")[0].replace("-", " ")
            build_checkpoint(f"the {entry}", elsewhere=True)
            time.sleep(0.05)


def _write(path: Path, key: tuple[str, int, str], value: object) -> None:
    try:
        payload = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return  # not storable: no cache is fine
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(path)
        write_atomically(path, MAGIC + hashlib.sha256(payload).digest() + payload)
    except OSError as exc:
        _warn_unwritable(path.parent, exc)


def cached(lexicon: Lexicon, name: str, build: Callable[[], T], *, version: int) -> T:
    """``build()``, stored on disk for ``lexicon``; later calls (any process) read it back.

    Parameters
    ----------
    lexicon:
        The lexicon the value is derived from; its ``content_hash`` is part of the key.
    name:
        What the value is, e.g. ``"ladder-links"``.
    build:
        Computes the value (must be picklable to be stored).
    version:
        Bump it when the value's format or meaning changes; older files are then ignored.

    Example
    -------
    >>> from cpwords.lexicon import Lexicon
    >>> cached(Lexicon.from_words(["cat", "cot"]), "doc-example", lambda: {"n": 2}, version=1)
    {'n': 2}
    """
    path = cache_path(lexicon, name, version)
    key = (name, version, lexicon.content_hash)
    ok, value = _read(path, key)
    if ok:
        return value  # type: ignore[return-value]
    with build_lock(path) as locked:
        if locked:  # another process may have built it while we waited for the lock
            ok, value = _read(path, key)
            if ok:
                return value  # type: ignore[return-value]
        value = build()
        _write(path, key, value)
    return value
