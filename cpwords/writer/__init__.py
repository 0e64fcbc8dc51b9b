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

The rooms: :mod:`.names` (what a name leads to), :mod:`.claims` (the names a run writes, checked
before solving) and :mod:`.new_files` (writing them, and the disk cache's entries); every name
below is importable from here.

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

from cpwords.writer.claims import Claim, Outputs
from cpwords.writer.names import NAME_MAX, TEMP_SUFFIX, Where, name_max
from cpwords.writer.new_files import NewFile, open_lock, remove_stale_temporaries, replace_bytes, write_text

__all__ = ["NAME_MAX", "TEMP_SUFFIX", "Claim", "NewFile", "Outputs", "Where", "name_max", "open_lock",
           "remove_stale_temporaries", "replace_bytes", "write_text"]
