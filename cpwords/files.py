"""Reading the files a user names: puzzle files, word lists, shapes, layouts, fill files.

Every file goes through :func:`read_text` (standard input through :func:`read_stdin`), which reads with a byte cap (so ``/dev/zero`` or a
huge file cannot exhaust memory), refuses folders, FIFOs and devices before opening them (a FIFO
would block forever), strips a UTF-8 byte-order mark, and says clearly when a file is UTF-16,
binary or in another encoding. Every failure is an :class:`InputError` naming the file.

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "w.txt"
>>> _ = p.write_bytes(b"\\xef\\xbb\\xbfcat\\ndog\\n")
>>> read_text(p, what="word list")
'cat\\ndog\\n'
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from cpwords.errors import InputError

#: Largest file read by default (puzzle files, shapes, layouts).
MAX_FILE_BYTES = 4 * 1024 * 1024


def read_text(
    path: str | Path,
    *,
    what: str = "file",
    field: str | None = None,
    max_bytes: int = MAX_FILE_BYTES,
    latin1: bool = False,
    notes: list[str] | None = None,
) -> str:
    """The text of a user's file.

    Parameters
    ----------
    path: the file.
    what: what the file is, for messages (``word list``, ``board file`` …).
    field: the spec field or CLI option that named the file, for messages.
    max_bytes: refuse files larger than this.
    latin1: read a file that is not UTF-8 as Latin-1 instead of refusing it (word lists).
    notes: when given, a sentence is appended here if the file was read as Latin-1.

    Raises
    ------
    InputError
        Missing, a folder, a special file (FIFO, device, socket), unreadable, too large,
        UTF-16 or binary, or (unless ``latin1``) not UTF-8.
    """
    p = Path(path).expanduser()
    source = str(p)
    read = _READ.get()
    if read is not None:
        read.append(p)

    def fail(message: str) -> InputError:
        return InputError(message, source=source, field=field)

    try:
        info = p.stat()
    except FileNotFoundError:
        raise fail(f"no such {what}") from None
    except OSError as exc:
        raise fail(f"cannot read the {what}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL byte in the name
        raise fail(f"not a usable file name for a {what} (it holds a NUL byte)") from None
    if stat.S_ISDIR(info.st_mode):
        raise fail(f"is a folder, not a {what}")
    if not stat.S_ISREG(info.st_mode):
        raise fail(f"is a special file (device, FIFO or socket), not a {what}")
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise fail(f"cannot read the {what}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise fail(f"the {what} is larger than {_size(max_bytes)}")
    return decode(data, what=what, source=source, field=field, latin1=latin1, notes=notes)


#: The files read through :func:`read_text` while :func:`recording` (a command's inputs).
_READ: ContextVar[list[Path] | None] = ContextVar("cpwords_files_read", default=None)


@contextmanager
def recording() -> Iterator[list[Path]]:
    """While inside, every file :func:`read_text` reads is noted in the list yielded: the inputs
    of a command (puzzle, fill, shape, layout files …), which its outputs never write over."""
    token = _READ.set([])
    try:
        yield _READ.get() or []
    finally:
        _READ.reset(token)


def recorded() -> list[Path]:
    """The files read so far inside :func:`recording` (none outside it)."""
    return list(_READ.get() or [])


def named_in(value: Any) -> list[Path]:
    """The files a spec (or any mapping, list or pydantic model of specs) names: word lists,
    shapes, boards, layouts, dice files.

    >>> [str(p) for p in named_in({"dictionary": {"path": Path("words.txt")}, "words": ["cold", "warm"]})]
    ['words.txt']
    """
    found: list[Path] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Path):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            if item and isinstance(item[0], (str, int, float)):
                continue  # inline words or numbers: no file among them
            stack.extend(item)
        elif hasattr(type(item), "model_fields"):
            stack.extend(getattr(item, name, None) for name in type(item).model_fields)
    return found


def read_stdin(*, what: str = "puzzle", max_bytes: int = MAX_FILE_BYTES) -> str:
    """The text of standard input, read with the cap, checks and messages a file has (``-`` for a
    file name): ``/dev/zero`` on stdin is refused once the cap is passed, not read to the end of
    memory; a closed stdin is one line.

    Raises
    ------
    InputError
        Naming ``<stdin>``: closed, unreadable, too large, UTF-16 or binary, or not UTF-8.
    """
    source = "<stdin>"
    stream = sys.stdin
    if stream is None:
        raise InputError(f"standard input is closed; give the {what} file's name, or send the {what} to it",
                         source=source)
    try:
        buffer = getattr(stream, "buffer", None)
        data = buffer.read(max_bytes + 1) if buffer is not None else stream.read(max_bytes + 1).encode("utf-8")
    except (OSError, ValueError) as exc:  # a closed or unreadable descriptor
        raise InputError(f"cannot read standard input ({getattr(exc, 'strerror', None) or exc})",
                         source=source) from None
    if len(data) > max_bytes:
        raise InputError(f"the {what} is larger than {_size(max_bytes)}", source=source)
    return decode(data, what=what, source=source)


def exists(path: str | Path) -> bool:
    """Whether ``path`` names something, False for a name the system cannot even look up (too
    long, a loop of links): ``Path.exists`` raises on those before Python 3.12.

    >>> exists("x" * 5000)
    False
    """
    try:
        os.stat(Path(path).expanduser())
    except (OSError, ValueError):
        return False
    return True


def decode(data: bytes, *, what: str = "file", source: str | None = None, field: str | None = None,
           latin1: bool = False, notes: list[str] | None = None) -> str:
    """Bytes of a text file as text (see :func:`read_text` for the rules).

    >>> decode("ﬁ".encode("utf-16"))
    Traceback (most recent call last):
    ...
    cpwords.errors.InputError: the file is UTF-16; save it as UTF-8
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(f"the {what} is UTF-16; save it as UTF-8", source=source, field=field)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\x00" in data[:65536]:
        raise InputError(f"the {what} is binary, not text", source=source, field=field)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if latin1:
            if notes is not None:
                notes.append(f"{source or 'the ' + what}: not UTF-8 (byte {exc.start + 1}); read as Latin-1")
            return data.decode("latin-1")
        raise InputError(f"the {what} is not UTF-8 text (byte {exc.start + 1} is not valid UTF-8)",
                         source=source, field=field) from None


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n >= 1024 * 1024 else f"{n:,} bytes"
