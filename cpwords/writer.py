"""The one writer: every file cpwords writes goes through this module.

SQLite's rule (never write a file you do not own) for every file a run writes: ``--out``,
``--svg`` and the names derived from it (``box-1.svg`` …), ``--checkpoint``, and the disk cache
(its entries, aliases and locks; the background builder and the server write only there).

* **Claimed before solving.** :class:`Outputs` checks every name of a run together, derived ones
  included, before anything is solved: an empty name, one the file system cannot take (too long,
  a NUL byte), a folder, a special file (FIFO, device, socket), an input of the run (compared by
  real path and by file identity, so a link or a hard link to it is the same file), two options
  naming one file, a folder that does not exist or cannot be written are refused in one line,
  even with ``--force``; an existing file, or a link (dangling too), only with ``--force``. A
  checkpoint is never a link (SQLite would write through it), and an existing checkpoint is
  resumed, not replaced.
* **A fresh temporary, renamed.** :class:`NewFile` writes under a fresh name beside the target,
  created exclusively and never through a link (:func:`tempfile.mkstemp`), then renames it over
  the target: a link named as the target is replaced itself, never written through, and a
  ``FILE.part`` of the user's is never touched. Two runs on one output each have their own
  temporary, so each finishes with its own answers.
* **Nothing clobbered that appeared meanwhile.** Without ``--force`` the rename is exclusive (a
  hard link, then the temporary removed): a file that appeared under the name while the run
  solved (another run's) stays, and this run's answers stay in their temporary, named in the
  one-line error.
* **Cache entries** (:func:`replace_bytes`) are written the same way, with the process id in
  the temporary's name so that the next build removes what a killed one left
  (:func:`remove_stale_temporaries`); lock files are opened without following links
  (:func:`open_lock`).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> outputs = Outputs(force=False, inputs=[])
>>> claim = outputs.claim(str(folder / "answers.txt"), "--out")
>>> with NewFile(claim) as new:
...     _ = new.file.write("cold cord card ward warm\\n")
>>> (folder / "answers.txt").read_text()
'cold cord card ward warm\\n'
>>> Outputs(force=False, inputs=[]).claim(str(folder / "answers.txt"), "--out")
Traceback (most recent call last):
...
cpwords.errors.InputError: ...answers.txt: field '--out': file exists; pass --force to replace it
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import stat
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from cpwords.errors import InputError

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


@dataclass
class Claim:
    """A name a run may write, checked (see :meth:`Outputs.claim`)."""

    path: Path
    option: str
    force: bool
    where: Where
    #: The names derived from it (``box-1.svg``, ``box-1-2.svg`` …), when the run may write several.
    derived: re.Pattern[str] | None = None
    #: The claim this name was derived from.
    parent: Claim | None = None

    def may_be(self, path: Path) -> bool:
        """Whether ``path`` is one of this claim's derived names."""
        return (self.derived is not None and self.derived.fullmatch(path.name) is not None
                and os.path.realpath(_folder(path)) == os.path.realpath(_folder(self.path)))


class Outputs:
    """The files one run writes, checked together before anything is solved.

    Parameters
    ----------
    force:
        An existing file (or a link, dangling too) may be replaced (``--force``).
    inputs:
        Every file the run reads (the puzzle file, word lists, shapes, layouts, fill files …):
        never written over, even with ``force``.
    """

    def __init__(self, *, force: bool = False, inputs: Iterable[str | os.PathLike[str]] = ()) -> None:
        self.force = force
        self.inputs = [w for w in (Where.of(p) for p in inputs) if w is not None]
        self.claims: list[Claim] = []

    def claim(self, name: str | os.PathLike[str] | None, option: str, *, resumable: bool = False,
              pictures: tuple[int, int] | None = None, parent: Claim | None = None) -> Claim | None:
        """Check ``name``, given by ``option`` (``--out``, ``--svg``, ``--checkpoint``), as a file
        this run writes; None when no name is given.

        ``resumable``: a file the run updates in place (a checkpoint): an existing regular file is
        taken as it is (its owner judges its content), a link never. ``pictures``: the run may
        write several files derived from the name, at most (batch documents, files per document);
        their names are checked too. ``parent``: the claim this derived name belongs to.

        Raises
        ------
        InputError
            One line naming the file and the option: why it is not written.
        """
        if name is None:
            return None
        text = os.fspath(name)
        if text == "":
            raise InputError("an empty file name; give the name of a file to write", field=option, value="")
        if "\x00" in text:
            raise InputError("not a usable file name (it holds a NUL byte)", field=option, value=text)
        path = Path(text).expanduser() if resumable else Path(text)

        def refuse(message: str, at: Path = path) -> InputError:
            return InputError(message, source=str(at), field=option)

        st, pointed = _look(path, refuse)
        link = st is not None and stat.S_ISLNK(st.st_mode)
        where = Where.of(path) or Where(os.path.abspath(path), None)
        self._apart(path, where, parent, refuse)
        if resumable and link:
            raise refuse("is a link; name the checkpoint file itself (it is never written through a link)")
        if st is not None and not resumable and not self.force:
            if link and pointed is None:
                raise refuse("is a link to nothing (a dangling link); pass --force to replace the link")
            raise refuse("file exists; pass --force to replace it")
        folder = _folder(path)
        if not folder.is_dir():
            raise refuse("folder does not exist")
        if st is not None and not link and not resumable and not os.access(path, os.W_OK):
            raise refuse("cannot write there (no permission)")
        self._probe(folder, path, refuse)
        claim = Claim(path, option, self.force, where, parent=parent)
        if pictures is not None:
            self._derive(claim, pictures, refuse)
        self.claims.append(claim)
        return claim

    def _apart(self, path: Path, where: Where, parent: Claim | None, refuse: Any) -> None:
        """Refuse an input of the run, or a file another option of the run writes."""
        if any(where.same(i) for i in self.inputs):
            raise refuse("is an input of this run; refusing to write over an input file, even with --force")
        for other in self.claims:
            if other is parent:
                continue
            if where.same(other.where):
                raise refuse(f"names the same file as {other.option}; give each option its own file")
            if other.may_be(path):
                raise refuse(f"may be one of the files {other.option} writes ({other.path.stem}-1"
                             f"{other.path.suffix}, …); give each option its own file")

    @staticmethod
    def _probe(folder: Path, path: Path, refuse: Any) -> None:
        """Create and remove a temporary where the file goes: ``os.access`` says yes to root on a
        read-only file system, only creating a file tells. Nothing is left behind."""
        try:
            fd, temp = tempfile.mkstemp(dir=folder, prefix=_temp_prefix(path), suffix=TEMP_SUFFIX)
        except OSError as exc:
            raise refuse(f"cannot write there ({exc.strerror or exc})") from None
        os.close(fd)
        os.unlink(temp)

    def _derive(self, claim: Claim, pictures: tuple[int, int], refuse: Any) -> None:
        """The names ``STEM-N.svg`` / ``STEM-N-M.svg`` a run of ``pictures`` = (documents, files
        per document) may write: the longest must fit the file system, and without ``--force``
        none may exist already."""
        documents, per = pictures
        if documents <= 1 and per <= 1:
            return
        path = claim.path
        claim.derived = re.compile(re.escape(path.stem) + r"(-\d+){1,2}" + re.escape(path.suffix))
        tags = ([str(documents)] if documents > 1 else []) + ([str(per)] if per > 1 else [])
        longest = f"{path.stem}-{'-'.join(tags)}{path.suffix}"
        limit = name_max(_folder(path))
        if len(os.fsencode(longest)) > limit:
            raise refuse(f"the names of this run's files ({path.stem}-{'-'.join('1' for _ in tags)}{path.suffix} "
                         f"…) are longer than the file system takes ({limit} bytes); choose a shorter name")
        if self.force:
            return
        import glob

        folder = _folder(path)
        clash = sorted(p.name for p in folder.glob(f"{glob.escape(path.stem)}-*{path.suffix}")
                       if claim.derived.fullmatch(p.name))
        if clash:
            raise refuse(f"file exists and may be one of the files of this run ({path.stem}-1{path.suffix}, …); "
                         f"pass --force to replace it, or choose another {claim.option} name", at=folder / clash[0])


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
