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
>>> write_entry(entry, "key", Packed.of(["cat", "zzxq"], [10, 100], [503, 0]), ["a note"], ())
>>> packed, notes, warnings = read_entry(entry, "key")
>>> packed.unpacked(), notes, warnings
((['cat', 'zzxq'], [10, 100], [503, 0]), ['a note'], ())
>>> read_entry(entry, "another key") is None
True
"""

from __future__ import annotations

import hashlib
import json
import sys
from array import array
from dataclasses import dataclass
from pathlib import Path

from cpwords.lexicon import cache

MAGIC = b"cpwords-word-file 2\n"


@dataclass(frozen=True)
class Packed:
    """A valued word list as bytes: what an entry stores, and what the numpy loader makes."""

    count: int
    text: bytes
    """The words joined by newlines (UTF-8)."""
    levels: bytes
    """One byte per word: its SCOWL level."""
    zipf_c: bytes
    """Four bytes per word (little-endian ``int32``): its centi-zipf."""

    @classmethod
    def of(cls, words: list[str], levels: list[int], zipf_c: list[int]) -> Packed | None:
        """The lists packed; None when a level does not fit in a byte (then nothing is stored)."""
        if levels and not (0 <= min(levels) and max(levels) < 256):
            return None
        return cls(len(words), "\n".join(words).encode("utf-8"), bytes(levels), _int32(zipf_c))

    def unpacked(self) -> tuple[list[str], list[int], list[int]]:
        """The words, levels and centi-zipf as lists (what a :class:`Lexicon` holds)."""
        words = self.text.decode("utf-8").split("\n") if self.count else []
        return words, list(self.levels), _from_int32(self.zipf_c)


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


def read_entry(path: Path, key: str) -> tuple[Packed, list[str], tuple[str, ...]] | None:
    """The entry at ``path`` (the words, the notes of reading the file, the lexicon's warnings)
    when it is whole and stored under ``key``; None otherwise."""
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
        packed = Packed(n, blob[at : at + text_bytes], blob[at + text_bytes : at + text_bytes + n],
                        blob[at + text_bytes + n : at + text_bytes + 5 * n])
        if len(packed.levels) != n or len(packed.zipf_c) != 4 * n or packed.text.count(b"\n") != max(0, n - 1):
            return None
        return packed, list(header["notes"]), tuple(header["warnings"])
    except (ValueError, KeyError, TypeError):  # a damaged header: rebuild
        return None


def write_entry(path: Path, key: str, packed: Packed, notes: list[str], warnings: tuple[str, ...]) -> None:
    """Store ``packed`` and what was said about the file at ``path`` (atomically; an unwritable
    folder only warns, once)."""
    header = json.dumps({"key": key, "count": packed.count, "text_bytes": len(packed.text), "notes": list(notes),
                         "warnings": list(warnings)}).encode("utf-8")
    payload = b"".join([len(header).to_bytes(8, "little"), header, packed.text, packed.levels, packed.zipf_c])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        cache.remove_stale_temporaries(path)
        cache.write_atomically(path, MAGIC + hashlib.sha256(payload).digest() + payload)
    except OSError as exc:
        cache._warn_unwritable(path.parent, exc)
