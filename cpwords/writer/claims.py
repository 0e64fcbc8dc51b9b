"""The names a run writes, claimed before solving (:class:`Outputs`, :class:`Claim`): every name
of a run checked together, derived ones included, and refused in one line when it must not be
written (see :mod:`cpwords.writer`).
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cpwords.errors import InputError
from cpwords.writer.names import TEMP_SUFFIX, Where, _folder, _look, _temp_prefix, name_max


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
