"""Files written under a fresh temporary and renamed over their name: a claimed output
(:class:`NewFile`, :func:`write_text`) and a disk-cache entry (:func:`replace_bytes`), with the
cache's stale temporaries and lock files.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from cpwords.errors import InputError
from cpwords.writer.claims import Claim
from cpwords.writer.names import TEMP_SUFFIX, _file_mode, _folder, _temp_prefix


class NewFile:
    """A file written under a fresh temporary beside its claimed name and renamed over it at
    :meth:`commit` (a context manager: commit on success, :meth:`discard` on an exception).

    Raises
    ------
    InputError
        When the temporary cannot be made, or at :meth:`commit` when the name was taken while the
        run solved (without ``--force``) or the rename fails: the finished temporary is then kept
        and named in the message.
    """

    def __init__(self, claim: Claim, *, binary: bool = False) -> None:
        self.claim = claim
        self.path = claim.path
        try:
            fd, temp = tempfile.mkstemp(dir=_folder(self.path), prefix=_temp_prefix(self.path), suffix=TEMP_SUFFIX)
        except OSError as exc:
            raise InputError(f"cannot write there ({exc.strerror or exc})", source=str(self.path),
                             field=claim.option) from None
        self.temp = Path(temp)
        self.file: IO[Any] = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")
        self.done = False

    def commit(self) -> None:
        """Close the temporary and give it the claimed name."""
        if self.done:
            return
        self.done = True
        try:
            self.file.close()
            os.chmod(self.temp, _file_mode())
        except OSError as exc:
            self.temp.unlink(missing_ok=True)
            raise InputError(f"cannot write the file: {exc.strerror or exc}", source=str(self.path),
                             field=self.claim.option) from None
        try:
            if self.claim.force:
                os.replace(self.temp, self.path)
            else:
                self._create()
        except FileExistsError:
            raise InputError(f"the file appeared while this run solved (another run writing it?); it is left as it "
                             f"is, and this run's output is kept in {self.temp}; pass --force to replace it",
                             source=str(self.path), field=self.claim.option) from None
        except OSError as exc:
            raise InputError(f"cannot write the file: {exc.strerror or exc}; this run's output is kept in "
                             f"{self.temp}", source=str(self.path), field=self.claim.option) from None

    def _create(self) -> None:
        """Rename the temporary to a name that must not exist: a hard link is made only when the
        name is free (atomic), then the temporary is removed."""
        try:
            os.link(self.temp, self.path)
        except FileExistsError:
            raise
        except OSError:  # no hard links here (some network or FAT file systems): a check, then the rename
            if os.path.lexists(self.path):
                raise FileExistsError(self.path) from None
            os.replace(self.temp, self.path)
            return
        self.temp.unlink(missing_ok=True)

    def discard(self) -> None:
        """Close and remove the temporary (the run failed or was interrupted)."""
        if self.done:
            return
        self.done = True
        with contextlib.suppress(OSError):
            self.file.close()
        self.temp.unlink(missing_ok=True)

    def __enter__(self) -> NewFile:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.discard()


def write_text(claim: Claim, text: str) -> None:
    """Write ``text`` as the claimed file (see :class:`NewFile`)."""
    with NewFile(claim) as new:
        new.file.write(text)


# ---------------------------------------------------------------- the disk cache


def replace_bytes(path: Path, data: bytes) -> None:
    """Write a cache entry: a fresh temporary beside it (``NAME.PID.XXXXXXXX.tmp``: created
    exclusively, never through a link), renamed over it. A reader never sees half a file, and
    a build killed half-way leaves a temporary that :func:`remove_stale_temporaries` removes."""
    fd, temp = tempfile.mkstemp(dir=_folder(path), prefix=f"{path.name}.{os.getpid()}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temp, _file_mode())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def remove_stale_temporaries(path: Path) -> None:
    """Delete the temporaries of ``path`` (``NAME.PID.….tmp``) left by processes that no longer
    run (a killed build)."""
    for tmp in _folder(path).glob(f"{path.name}.*.tmp"):  # cache names hold no glob characters
        pid = tmp.name[len(path.name) + 1 : -len(".tmp")].split(".")[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            tmp.unlink(missing_ok=True)


def open_lock(path: Path) -> int:
    """Open (creating it) the lock file ``path`` for :func:`fcntl.flock`, never through a link.

    Raises
    ------
    OSError
        When it cannot be opened (an unwritable folder, a link in its place).
    """
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    return os.open(path, flags, 0o644)
