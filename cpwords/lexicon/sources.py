"""Where words come from: built-in names (``scowl-N``, ``scowl-british-N``, ``common-N``, ``enable2k``,
and the languages ``italian``, ``spanish``, ``german``, ``french``) and user lists."""

from __future__ import annotations

import hashlib
import re
import warnings
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from cpwords.alphabet import ALPHABETS, ENGLISH, Alphabet, alphabet_of, language_name
from cpwords.errors import InputError
from cpwords.files import read_text
from cpwords.lexicon import builtin, core, plain, wordfile
from cpwords.lexicon.core import MAX_WORD_LETTERS, Lexicon
from cpwords.lexicon.exclude import GENERATING_EXCLUDE, excluded_words, is_generating
from cpwords.specs import DictionaryRef

DEFAULT_DICTIONARY = "scowl-70"
#: ``common-N`` draws on SCOWL up to this level (rarer words are rarely ones a person knows, even
#: frequent ones: ``haha``, ``dae``) ...
COMMON_MAX_LEVEL = 70
#: ... and its version: 1 was the frequency order of scowl-80 alone (names such as ``paris`` in);
#: 2 (issue 25) caps the level and leaves out names and abbreviations. Figures pinned on a common
#: list say which version they used (docs/benchmarks.md).
COMMON_VERSION = 2
COMMON_EXAMPLES = ("common-2k", "common-5k", "common-10k", "common-20k")
#: Built-in word lists shipped whole (not SCOWL selections): name -> data file in ``lexicon/data``.
WORD_LISTS = {"enable2k": "enable2k.txt.gz"}
MAX_USER_FILE_BYTES = 64 * 1024 * 1024

_SCOWL = re.compile(r"scowl-(?:(american|british)-)?(\d+)")
_COMMON = re.compile(r"common-(\d+)(k?)")


class LexiconWarning(UserWarning):
    """Something in a user word list was skipped (also listed in ``Lexicon.warnings``)."""


def known_dictionaries() -> list[str]:
    """Names of the built-in dictionaries (``common-N`` accepts any N; a few are listed)."""
    names = [f"scowl-{lv}" for lv in builtin.LEVELS]
    names += [f"scowl-british-{lv}" for lv in builtin.LEVELS]
    return names + list(COMMON_EXAMPLES) + list(WORD_LISTS) + list(LANGUAGES)


#: The built-in dictionaries of other languages (their ISO codes are aliases).
LANGUAGES: tuple[str, ...] = tuple(a.language for a in ALPHABETS.values() if a is not ENGLISH)


def _language(key: str) -> str | None:
    name = language_name(key)
    return name if name in LANGUAGES else None


def is_builtin_name(name: str) -> bool:
    """True when ``name`` has the form of a built-in dictionary name (it may still be unknown)."""
    key = name.strip().lower()
    return bool(_SCOWL.fullmatch(key) or _COMMON.fullmatch(key) or _language(key)) or key in WORD_LISTS


def _unknown(name: str) -> InputError:
    return InputError(
        "unknown dictionary; known: scowl-N and scowl-british-N for N in "
        + ", ".join(map(str, builtin.LEVELS))
        + "; common-N for any N (e.g. common-5k, common-3000); " + ", ".join(LANGUAGES)
        + " (it, es, de, fr); " + ", ".join(WORD_LISTS) + "; or {path: FILE} / {words: [...]}",
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
        return _common(n, key)
    if key in WORD_LISTS:
        # Each word gets the SCOWL level and zipf it has there (frequency order, as every built-in).
        return Lexicon._with_builtin_values(builtin.word_list(WORD_LISTS[key]), name=key)
    if language := _language(key):
        alphabet = alphabet_of(language)
        words, levels, zipf_c = builtin.language_data(alphabet.code)
        return Lexicon(words, levels, zipf_c, name=language, alphabet=alphabet)
    raise _unknown(name)


def _common(n: int, name: str) -> Lexicon:
    """The ``n`` most frequent words of scowl-american-:data:`COMMON_MAX_LEVEL` that are not mostly
    names or abbreviations (:func:`~cpwords.lexicon.builtin.name_words`), most frequent first."""
    words, levels, zipf_c = builtin.selection("american", COMMON_MAX_LEVEL)
    names = builtin.name_words()
    # Words without a wordfreq frequency have no rank: the list stops before them.
    keep = [i for i, (w, z) in enumerate(zip(words, zipf_c, strict=True)) if z > 0 and w not in names][:n]
    return Lexicon([words[i] for i in keep], [levels[i] for i in keep], [zipf_c[i] for i in keep], name=name)


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


#: Word-list files at least this big are kept, read and valued, in the disk cache
#: (:mod:`cpwords.lexicon.wordfile`): the next process loads two million words in a fraction of a second.
CACHED_FILE_BYTES = 1 << 20
_FILE_CACHE_VERSION = 2


def _read_file_lexicon(path: Path, alphabet: Alphabet,
                       check: Callable[[], None]) -> tuple[Lexicon, list[str], wordfile.Packed | None]:
    """A word-list file read and valued, the notes on reading it, and the lexicon packed for the
    disk cache: a big plain English list (one a-z word a line) with numpy
    (:mod:`cpwords.lexicon.plain`), any other line by line (to say what is skipped and why)."""
    if alphabet is ENGLISH:
        notes: list[str] = []
        text = read_text(path, what="word list", field="dictionary.path", max_bytes=MAX_USER_FILE_BYTES,
                         latin1=True, notes=notes)
        check()
        big = text.count("\n") >= core._ARRAY_WORDS  # a short list is quicker word by word (no numpy)
        if big and "#" in text:
            text = _COMMENT.sub("", text)  # as _read_word_file drops them, line by line
        if big and text.isascii() and (words := plain.plain_words(text.encode("ascii"), MAX_WORD_LETTERS)) is not None:
            del text
            check()
            packed = plain.valued_packed(words, check)
            return Lexicon(*packed.unpacked(), name=str(path)), notes, packed
    lines, notes = _read_word_file(path)
    check()
    lex = Lexicon._from_items(lines, str(path), alphabet=alphabet, check=check)
    check()
    return lex, notes, None


#: A comment: from ``#`` to the end of its line (any line break ``str.splitlines`` knows).
_COMMENT = re.compile("#[^\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]*")


def _never() -> None:
    return None


def _lexicon_of(path: Path) -> str:
    """What a word list's one-time load builds, for a message: ``the lexicon of the word list FILE``."""
    return f"the lexicon of the word list {path}"


def _file_lexicon(path: Path, alphabet: Alphabet = ENGLISH) -> tuple[Lexicon, list[str]]:
    """The lexicon of a user's word-list file (words of ``alphabet``) and the notes on reading
    it; a big file's from the disk cache when the same file (path, size, modification time) was
    read before with the same alphabet. Reading a big file is a one-time build: within a solve,
    its steps are build checkpoints (:func:`~cpwords.engines.budget.build_checkpoint`), so a list
    that cannot be read and valued by the solve's time limit (and its grace) ends the solve,
    naming the file. (A small file takes milliseconds: the kind's own builds are the ones to stop.)"""
    from cpwords.engines.budget import build_checkpoint
    from cpwords.lexicon import cache
    from cpwords.lexicon.rareness import FORMULA_VERSION

    what = _lexicon_of(path)

    def check() -> None:
        build_checkpoint(what)

    try:
        stat = path.stat()
    except OSError:
        stat = None  # read_text names the problem
    if stat is None or not path.is_file() or stat.st_size < CACHED_FILE_BYTES:
        return _read_file_lexicon(path, alphabet, _never)[:2]
    stamp = f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{FORMULA_VERSION}|{alphabet.code}"
    key = f"word-file|{_FILE_CACHE_VERSION}|{stamp}"
    entry = cache.cache_dir() / f"word-file-v{_FILE_CACHE_VERSION}-{hashlib.sha256(stamp.encode()).hexdigest()[:20]}.words"
    stored = wordfile.read_entry(entry, key)
    if stored is not None:
        return Lexicon(*stored[0].unpacked(), name=str(path), warnings=stored[2], alphabet=alphabet), stored[1]
    lex, notes, packed = _read_file_lexicon(path, alphabet, check)
    if (packed := packed or wordfile.Packed.of(lex._words, lex._levels, lex._zipf_c)) is not None:
        wordfile.write_entry(entry, key, packed, notes, lex.warnings)
    return lex, notes


def _load(ref: DictionaryRef) -> Lexicon:
    notes: list[str] = []
    if ref.name is not None:
        lex = _builtin(ref.name)
    elif ref.path is not None:
        lex, notes = _file_lexicon(ref.path, ref.alphabet())
    else:
        lex = Lexicon.from_words(ref.words or [], name="inline", alphabet=ref.alphabet())
    filters = dict(min_length=ref.min_length, max_length=ref.max_length, max_level=ref.max_level,
                   drop_plurals=ref.drop_plurals)
    filtering = any(v not in (None, False) for v in filters.values()) or bool(ref.exclude)
    if filtering and len(lex) >= core._ARRAY_WORDS and ref.path is not None:
        from cpwords.engines.budget import build_checkpoint

        build_checkpoint(_lexicon_of(ref.path))  # filtering millions of words takes a moment too
    if filtering:
        full = lex
        lex = lex.filtered(**filters, exclude=excluded_words(ref.exclude or ()),  # type: ignore[arg-type]
                           label=ref.label())
        if ref.exclude:
            # Counted one list at a time against the other filters alone (say what each took out).
            kept = full.filtered(**filters) if any(v not in (None, False) for v in filters.values()) else full  # type: ignore[arg-type]
            lex.left_out = {name: len(excluded_words([name]).intersection(kept)) for name in ref.exclude}
            lex.kept_label = ref.model_copy(update={"exclude": None}).label()
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


def dictionary_stat(spec: Any) -> str | None:
    """What a result's ``stats.dictionary`` says when words were left out of the spec's dictionary
    (a generating task, or an ``exclude`` the user set): ``common-5k, 12 offensive words left out``.
    ``None`` when nothing can have been left out (the kind's own label stands).

    >>> from types import SimpleNamespace
    >>> dictionary_stat(SimpleNamespace(dictionary=DictionaryRef(name="common-5k"), task="generate"))
    'common-5k, ... offensive words left out'
    """
    ref = getattr(spec, "dictionary", None)
    if not isinstance(ref, DictionaryRef):
        return None
    if not ref.exclude and not (ref.exclude is None and is_generating(getattr(spec, "task", None))):
        return None
    return lexicon_for(spec).described()


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
