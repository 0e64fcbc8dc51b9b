"""Names and what they lead to, for the writer: the longest name a file system takes, the
temporary beside a file, the mode of a new file, and which file a name is (:class:`Where`,
compared by real path and by file identity).
"""

from __future__ import annotations

import contextlib
import functools
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The longest file name, in bytes, when the file system does not say (most say 255).
NAME_MAX = 255
#: The temporary of an output ends so; its name is ``.NAME.XXXXXXXX.part`` (NAME cut to fit).
TEMP_SUFFIX = ".part"


def name_max(folder: str | Path) -> int:
    """The longest file name (bytes) the file system of ``folder`` takes."""
    try:
        n = int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):  # no pathconf (Windows), or no such folder
        return NAME_MAX
    return n if n > 0 else NAME_MAX


def _fits(name: str, limit: int) -> str:
    """``name`` cut (by whole characters) to at most ``limit`` bytes."""
    while len(os.fsencode(name)) > limit:
        name = name[:-1]
    return name


def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _temp_prefix(path: Path) -> str:
    """The prefix of a temporary beside ``path``: ``.NAME.``, NAME cut so that the whole
    temporary (8 random characters and :data:`TEMP_SUFFIX` follow) fits the file system."""
    room = name_max(_folder(path)) - len(".." + TEMP_SUFFIX) - 8
    return "." + _fits(path.name, max(room, 1)) + "."


@functools.cache
def _file_mode() -> int:
    """The mode a new file gets (0o666 less the umask), read once: the umask can only be read by
    setting it, so it is read from /proc where there is one (other threads may be creating files)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return 0o666 & ~int(line.split()[1], 8)
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


# ---------------------------------------------------------------- which file a name is


@dataclass(frozen=True)
class Where:
    """A file as compared with another: its real path and, when it exists, its identity
    (device and inode, the same for every link and hard link to it)."""

    real: str
    ident: tuple[int, int] | None

    @classmethod
    def of(cls, path: str | os.PathLike[str]) -> Where | None:
        """Where ``path`` leads; None for a name the system cannot look up."""
        try:
            real = os.path.realpath(path)
        except (OSError, ValueError):
            return None
        try:
            st = os.stat(path)
            ident: tuple[int, int] | None = (st.st_dev, st.st_ino)
        except (OSError, ValueError):
            ident = None
        return cls(real, ident)

    def same(self, other: Where) -> bool:
        """Whether both name one file."""
        return self.real == other.real or (self.ident is not None and self.ident == other.ident)


def _look(path: Path, refuse: Any) -> tuple[os.stat_result | None, os.stat_result | None]:
    """What is at ``path`` (None: nothing) and, for a link, what it points to (None: nothing):
    a folder or a special file there (or behind the link) is refused."""
    try:
        st: os.stat_result | None = os.lstat(path)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise refuse("folder does not exist (a part of the name is a file)") from None
    except OSError as exc:  # a name too long for the system, a loop of links, no permission
        raise refuse(f"cannot write there ({exc.strerror or exc})") from None
    pointed: os.stat_result | None = None
    if st is not None and stat.S_ISLNK(st.st_mode):
        with contextlib.suppress(OSError, ValueError):
            pointed = os.stat(path)
    for s in (st, pointed):
        if s is not None and stat.S_ISDIR(s.st_mode):
            raise refuse("is a folder; give a file name")
        if s is not None and not stat.S_ISREG(s.st_mode) and not stat.S_ISLNK(s.st_mode):
            raise refuse("is a special file (device, FIFO or socket); cpwords writes only regular files")
    return st, pointed
