"""A disk cache for indexes derived from a lexicon (e.g. ladder links), keyed by its content hash.

Files live in ``$CPWORDS_CACHE_DIR``, else ``$XDG_CACHE_HOME/cpwords``, else ``~/.cache/cpwords``.
Each file is ``MAGIC``, a SHA-256 of the payload, then the pickled payload ``(key, value)``; a file
whose magic, checksum or key does not match (stale, truncated, from another version) is rebuilt.
The cache is an optimisation only: an unwritable directory means the value is just not stored.
Pickles are loaded only from the user's own cache directory.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from cpwords.lexicon.core import Lexicon

T = TypeVar("T")
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


def _write(path: Path, key: tuple[str, int, str], value: object) -> None:
    try:
        payload = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Write then rename, so that a concurrent reader never sees half a file.
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(MAGIC + hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass  # no cache is fine


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
    value = build()
    _write(path, key, value)
    return value
