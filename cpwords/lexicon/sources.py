"""Where words come from: built-in names (``scowl-N``, ``scowl-british-N``, ``common-N``) and user lists."""

from __future__ import annotations

import hashlib
import re
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

from cpwords.errors import InputError
from cpwords.files import read_text
from cpwords.lexicon import builtin
from cpwords.lexicon.core import Lexicon
from cpwords.lexicon.exclude import GENERATING_EXCLUDE, excluded_words, is_generating
from cpwords.specs import DictionaryRef

DEFAULT_DICTIONARY = "scowl-70"
COMMON_EXAMPLES = ("common-2k", "common-5k", "common-10k", "common-20k")
MAX_USER_FILE_BYTES = 64 * 1024 * 1024

_SCOWL = re.compile(r"scowl-(?:(american|british)-)?(\d+)")
_COMMON = re.compile(r"common-(\d+)(k?)")


class LexiconWarning(UserWarning):
    """Something in a user word list was skipped (also listed in ``Lexicon.warnings``)."""


def known_dictionaries() -> list[str]:
    """Names of the built-in dictionaries (``common-N`` accepts any N; a few are listed)."""
    names = [f"scowl-{lv}" for lv in builtin.LEVELS]
    names += [f"scowl-british-{lv}" for lv in builtin.LEVELS]
    return names + list(COMMON_EXAMPLES)


def is_builtin_name(name: str) -> bool:
    """True when ``name`` has the form of a built-in dictionary name (it may still be unknown)."""
    key = name.strip().lower()
    return bool(_SCOWL.fullmatch(key) or _COMMON.fullmatch(key))


def _unknown(name: str) -> InputError:
    return InputError(
        "unknown dictionary; known: scowl-N and scowl-british-N for N in "
        + ", ".join(map(str, builtin.LEVELS))
        + "; common-N for any N (e.g. common-5k, common-3000); or {path: FILE} / {words: [...]}",
        field="dictionary",
        value=name,
    )


def _builtin(name: str) -> Lexicon:
    key = name.strip().lower()
    if m := _SCOWL.fullmatch(key):
        level = int(m.group(2))
        if level not in builtin.LEVELS:
            raise _unknown(name)
        words, levels, zipf_c = builtin.selection(m.group(1) or "american", level)
        return Lexicon(words, levels, zipf_c, name=key)
    if m := _COMMON.fullmatch(key):
        n = int(m.group(1)) * (1000 if m.group(2) else 1)
        if n < 1:
            raise InputError("common-N needs N >= 1", field="dictionary", value=name)
        words, levels, zipf_c = builtin.selection("american", 80)
        # Words without a wordfreq frequency have no rank: the list stops before them.
        n = min(n, sum(1 for z in zipf_c if z > 0))
        return Lexicon(words[:n], levels[:n], zipf_c[:n], name=key)
    raise _unknown(name)


def _read_word_file(path: Path) -> tuple[list[str], list[str]]:
    """The non-comment lines of a word-list file, and notes about how it was read (Latin-1)."""
    notes: list[str] = []
    text = read_text(path, what="word list", field="dictionary.path", max_bytes=MAX_USER_FILE_BYTES,
                     latin1=True, notes=notes)
    lines = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return lines, notes


#: Word-list files at least this big are kept, read and valued, in the disk cache: the next
#: process loads two million words in a second instead of ten.
CACHED_FILE_BYTES = 1 << 20
_FILE_CACHE_VERSION = 1


def _file_lexicon(path: Path) -> tuple[Lexicon, list[str]]:
    """The lexicon of a user's word-list file and the notes on reading it; a big file's from
    the disk cache when the same file (path, size, modification time) was read before."""
    from cpwords.lexicon import cache
    from cpwords.lexicon.rareness import FORMULA_VERSION

    try:
        stat = path.stat()
    except OSError:
        stat = None  # read_text names the problem
    if stat is None or not path.is_file() or stat.st_size < CACHED_FILE_BYTES:
        lines, notes = _read_word_file(path)
        return Lexicon.from_words(lines, name=str(path)), notes
    stamp = f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{FORMULA_VERSION}"
    key = ("word-file", _FILE_CACHE_VERSION, stamp)
    entry = cache.cache_dir() / f"word-file-v{_FILE_CACHE_VERSION}-{hashlib.sha256(stamp.encode()).hexdigest()[:20]}.pickle"
    ok, value = cache._read(entry, key)
    if ok:
        stored: tuple[list[str], list[int], list[int], list[str], tuple[str, ...]] = value  # type: ignore[assignment]
        return Lexicon(*stored[:3], name=str(path), warnings=stored[4]), stored[3]
    lines, notes = _read_word_file(path)
    lex = Lexicon.from_words(lines, name=str(path))
    cache._write(entry, key, (lex._words, lex._levels, lex._zipf_c, notes, lex.warnings))
    return lex, notes


def _load(ref: DictionaryRef) -> Lexicon:
    notes: list[str] = []
    if ref.name is not None:
        lex = _builtin(ref.name)
    elif ref.path is not None:
        lex, notes = _file_lexicon(ref.path)
    else:
        lex = Lexicon.from_words(ref.words or [], name="inline")
    filters = dict(min_length=ref.min_length, max_length=ref.max_length, max_level=ref.max_level,
                   drop_plurals=ref.drop_plurals)
    filtering = any(v not in (None, False) for v in filters.values()) or bool(ref.exclude)
    if filtering:
        lex = lex.filtered(**filters, exclude=excluded_words(ref.exclude or ()),  # type: ignore[arg-type]
                           label=ref.label())
    if len(lex) == 0:
        # Say why (every line skipped, a Latin-1 file of accented words) in the one error line.
        why = "; ".join(m.removeprefix(f"{lex.name}: ") for m in (*notes, *lex.warnings))
        message = ("the dictionary has no words" + (" left after filtering" if filtering else "")
                   + (f" ({why})" if why else ""))
        if ref.path is not None:
            raise InputError(message, source=str(ref.path), field="dictionary")
        raise InputError(message, field="dictionary", value=ref.label())
    lex.warnings = (*notes, *lex.warnings)
    for message in lex.warnings:
        warnings.warn(message, LexiconWarning, stacklevel=3)
    return lex


@lru_cache(maxsize=32)
def _load_cached(key: str, stamp: tuple[int, int] | None) -> Lexicon:
    # ``stamp`` (mtime, size of a user file) makes an edited file load afresh.
    return _load(DictionaryRef.model_validate_json(key))


def load_lexicon(ref: DictionaryRef | str | None = None, *, generating: bool = False) -> Lexicon:
    """The lexicon a dictionary reference names; ``None`` is the default, ``scowl-70``.

    ``generating=True`` is for callers that choose the words themselves (a ``generate`` task): a
    reference that leaves ``exclude`` unset then leaves out :data:`GENERATING_EXCLUDE` (offensive
    words). Otherwise only what ``ref.exclude`` names is left out.

    Results are cached per process (treat the returned object as read-only).

    Raises
    ------
    InputError
        Unknown name, missing or unreadable file, or no words left after filtering
        (field ``dictionary``).

    Example
    -------
    >>> len(load_lexicon("scowl-35"))
    39095
    """
    if ref is None:
        ref = DEFAULT_DICTIONARY
    if isinstance(ref, str):
        ref = DictionaryRef(name=ref)
    if generating:
        ref = ref.with_default_exclude(GENERATING_EXCLUDE)
    stamp = None
    if ref.path is not None:
        try:
            st = ref.path.stat()
            stamp = (st.st_mtime_ns, st.st_size)
        except OSError:
            pass  # reported by the reader
    return _load_cached(ref.model_dump_json(), stamp)


def lexicon_for(spec: Any) -> Lexicon:
    """The lexicon of a spec's ``dictionary``, as its task should see it: a task in which cpwords
    chooses the words (``generate``, ``best_board``; see :func:`~cpwords.lexicon.exclude.is_generating`)
    leaves offensive words out unless the spec sets ``exclude`` itself; any other task keeps every word.
    Every kind loads its dictionary through this (a new kind with a ``generate`` task gets the filter).

    >>> from types import SimpleNamespace
    >>> ref = DictionaryRef(name="common-2k")
    >>> len(lexicon_for(SimpleNamespace(dictionary=ref, task="generate"))) < len(lexicon_for(
    ...     SimpleNamespace(dictionary=ref, task="solve")))
    True
    """
    return load_lexicon(spec.dictionary, generating=is_generating(getattr(spec, "task", None)))
