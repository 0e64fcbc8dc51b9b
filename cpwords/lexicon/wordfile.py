"""A user's word-list file as the disk cache keeps it once read and valued: one flat file that
loads without unpickling two million strings.

An entry is ``MAGIC``, a SHA-256 of the rest, then the rest: the length of a JSON header (8 bytes,
little-endian), the header (the key, the number of words, the notes and warnings of reading the
file), the words joined by newlines (UTF-8), one byte per word for its SCOWL level and four
(little-endian ``int32``) for its centi-zipf. Reading it back is one ``split`` and two
``array.frombytes``: a fifth of the time pickle took, and writing it a fiftieth.

An entry whose magic, checksum or key does not match (another file, an edited file, another
version) is ignored and rewritten, as every entry of :mod:`cpwords.lexicon.cache`; entries live in
the cache folder only, never beside the user's file.

>>> import tempfile
>>> from pathlib import Path
>>> entry = Path(tempfile.mkdtemp()) / "demo.words"
>>> write_entry(entry, "key", (["cat", "zzxq"], [10, 100], [503, 0], ["a note"], ()))
>>> read_entry(entry, "key")
(['cat', 'zzxq'], [10, 100], [503, 0], ['a note'], ())
>>> read_entry(entry, "another key") is None
True
"""

from __future__ import annotations

import hashlib
import json
import sys
from array import array
from pathlib import Path

from cpwords.lexicon import cache

MAGIC = b"cpwords-word-file 2\n"
#: What an entry holds: words, levels, centi-zipf, notes of reading the file, the lexicon's warnings.
Entry = tuple[list[str], list[int], list[int], list[str], tuple[str, ...]]


def _int32(values: list[int]) -> bytes:
    a = array("i", values)
    if a.itemsize != 4:  # pragma: no cover (every platform Python runs on has 4-byte ints)
        a = array("l", values)
    if sys.byteorder == "big":  # pragma: no cover
        a.byteswap()
    return a.tobytes()


def _from_int32(data: bytes) -> list[int]:
    a = array("i")
    if a.itemsize != 4:  # pragma: no cover
        a = array("l")
    a.frombytes(data)
    if sys.byteorder == "big":  # pragma: no cover
        a.byteswap()
    return a.tolist()


def read_entry(path: Path, key: str) -> Entry | None:
    """The entry at ``path`` when it is whole and stored under ``key``; None otherwise."""
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    start = len(MAGIC) + 32
    if blob[: len(MAGIC)] != MAGIC or hashlib.sha256(memoryview(blob)[start:]).digest() != blob[len(MAGIC) : start]:
        return None
    try:
        size = int.from_bytes(blob[start : start + 8], "little")
        header = json.loads(blob[start + 8 : start + 8 + size])
        if header["key"] != key:
            return None
        n, text_bytes = header["count"], header["text_bytes"]
        at = start + 8 + size
        words = blob[at : at + text_bytes].decode("utf-8").split("\n") if n else []
        at += text_bytes
        levels = list(blob[at : at + n])
        zipf_c = _from_int32(blob[at + n : at + 5 * n])
        if len(words) != n or len(levels) != n or len(zipf_c) != n:
            return None
        return words, levels, zipf_c, list(header["notes"]), tuple(header["warnings"])
    except (ValueError, KeyError, TypeError):  # a damaged header: rebuild
        return None


def write_entry(path: Path, key: str, entry: Entry) -> None:
    """Store ``entry`` at ``path`` (atomically; an unwritable folder only warns, once)."""
    words, levels, zipf_c, notes, warnings = entry
    if any(not 0 <= lv < 256 for lv in (min(levels, default=0), max(levels, default=0))):
        return  # not storable in a byte: no cache is fine
    text = "\n".join(words).encode("utf-8")
    header = json.dumps({"key": key, "count": len(words), "text_bytes": len(text), "notes": list(notes),
                         "warnings": list(warnings)}).encode("utf-8")
    payload = b"".join([len(header).to_bytes(8, "little"), header, text, bytes(levels), _int32(zipf_c)])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        cache.remove_stale_temporaries(path)
        cache.write_atomically(path, MAGIC + hashlib.sha256(payload).digest() + payload)
    except OSError as exc:
        cache._warn_unwritable(path.parent, exc)
