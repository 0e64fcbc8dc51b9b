"""Where words come from: built-in names (``scowl-N``, ``scowl-british-N``, ``common-N``) and user lists."""

from __future__ import annotations

import re
import warnings
from functools import lru_cache
from pathlib import Path

from cpwords.errors import InputError
from cpwords.lexicon import builtin
from cpwords.lexicon.core import Lexicon
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


def _read_word_file(path: Path) -> list[str]:
    try:
        if path.is_dir():
            raise InputError("is a folder, not a word list", source=str(path), field="dictionary.path")
        if path.stat().st_size > MAX_USER_FILE_BYTES:
            raise InputError("word list is larger than 64 MiB", source=str(path), field="dictionary.path")
        text = path.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        raise InputError("no such word-list file", source=str(path), field="dictionary.path") from None
    except OSError as exc:
        raise InputError(f"cannot read word list: {exc.strerror}", source=str(path),
                         field="dictionary.path") from None
    lines = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return lines


def _load(ref: DictionaryRef) -> Lexicon:
    if ref.name is not None:
        lex = _builtin(ref.name)
    elif ref.path is not None:
        lex = Lexicon.from_words(_read_word_file(ref.path), name=str(ref.path))
    else:
        lex = Lexicon.from_words(ref.words or [], name="inline")
    filters = dict(min_length=ref.min_length, max_length=ref.max_length, max_level=ref.max_level,
                   drop_plurals=ref.drop_plurals)
    filtering = any(v not in (None, False) for v in filters.values())
    if filtering:
        lex = lex.filtered(**filters, label=ref.label())  # type: ignore[arg-type]
    if len(lex) == 0:
        raise InputError(
            "the dictionary has no words" + (" left after filtering" if filtering else ""),
            source=str(ref.path) if ref.path is not None else None,
            field="dictionary",
            value=ref.label(),
        )
    for message in lex.warnings:
        warnings.warn(message, LexiconWarning, stacklevel=3)
    return lex


@lru_cache(maxsize=32)
def _load_cached(key: str, stamp: tuple[int, int] | None) -> Lexicon:
    # ``stamp`` (mtime, size of a user file) makes an edited file load afresh.
    return _load(DictionaryRef.model_validate_json(key))


def load_lexicon(ref: DictionaryRef | str | None = None) -> Lexicon:
    """The lexicon a dictionary reference names; ``None`` is the default, ``scowl-70``.

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
    stamp = None
    if ref.path is not None:
        try:
            st = ref.path.stat()
            stamp = (st.st_mtime_ns, st.st_size)
        except OSError:
            pass  # reported by the reader
    return _load_cached(ref.model_dump_json(), stamp)
