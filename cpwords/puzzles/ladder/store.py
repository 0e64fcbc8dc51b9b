"""Where ladder indexes live: built once per dictionary, then read back from the disk cache.

The index is stored with :mod:`cpwords.lexicon.cache`, keyed by the lexicon's content hash. To skip
even loading the lexicon, a small *alias* file maps the dictionary reference (a built-in name with
the size and time of the shipped data file, or a word-list file with its own) to that content hash;
a later process reads the alias, then the index, and never decodes the word data. Any mismatch
(edited file, new data, corrupt cache) falls back to loading the lexicon and rebuilding.
"""

from __future__ import annotations

import hashlib
import os
import re
import warnings
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cpwords.puzzles.ladder.index import CACHE_NAME, CACHE_VERSION, LadderIndex, build_index
from cpwords.puzzles.ladder.index import ByHash as _ByHash

if TYPE_CHECKING:
    from cpwords.lexicon import Lexicon
    from cpwords.specs import DictionaryRef

#: Name and format version of the cached index (bump the version when the format changes).


def index_for(lexicon: Lexicon) -> LadderIndex:
    """The index of ``lexicon``, from the disk cache when it was built before."""
    from cpwords.lexicon.cache import cached

    payload = cached(lexicon, CACHE_NAME, lambda: build_index(lexicon).to_payload(), version=CACHE_VERSION)
    return LadderIndex.from_payload(payload)


# ---------------------------------------------------------------- finding the index without the lexicon


class _Stale(Exception):
    """The alias pointed at an index that is gone or belongs to other content."""


def _alias_key(ref: DictionaryRef) -> str | None:
    """What identifies a dictionary's content without reading it (None: inline words, just load them)."""
    from cpwords.lexicon.rareness import FORMULA_VERSION

    if ref.words is not None:
        return None
    source: object
    if ref.name is not None:
        from importlib import resources

        from cpwords.alphabet import alphabet_of, language_name

        language = language_name(ref.name)
        data = "words.txt.gz" if language in (None, "english") else f"words-{alphabet_of(language).code}.txt.gz"
        source = resources.files("cpwords.lexicon.data").joinpath(data)
    else:
        source = ref.path
    try:
        st = os.stat(str(source))
    except (OSError, TypeError):
        return None
    return f"{ref.model_dump_json()}|{st.st_size}|{st.st_mtime_ns}|{FORMULA_VERSION}|{CACHE_VERSION}"


def _alias_path(key: str) -> Path:
    from cpwords.lexicon.cache import cache_dir

    return cache_dir() / f"ladder-alias-{hashlib.sha256(key.encode()).hexdigest()[:24]}.txt"


def _write_alias(key: str, content_hash: str) -> None:
    from cpwords.lexicon.cache import remove_stale_temporaries, write_atomically

    path = _alias_path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(path)
        write_atomically(path, content_hash.encode("ascii"))
    except OSError:
        pass  # no alias: the next process loads the lexicon, which is only slower (the cache warned)


def _index_by_alias(key: str, ref: DictionaryRef) -> LadderIndex:
    from cpwords.lexicon.cache import cache_path, cached

    path = _alias_path(key)
    try:
        content_hash = path.read_bytes().decode("ascii").strip()
    except OSError:
        raise _Stale from None
    except UnicodeDecodeError:
        content_hash = "?"
    if content_hash and not re.fullmatch(r"[0-9a-f]{64}", content_hash):
        # Damaged (a crash, a disk error, a hand): rebuilt by the caller, and said once.
        warnings.warn(f"damaged cache file {path} is rebuilt", stacklevel=2)
        raise _Stale
    stand_in = _ByHash(content_hash)
    if not content_hash or not cache_path(stand_in, CACHE_NAME, CACHE_VERSION).is_file():
        raise _Stale

    def rebuild() -> dict[str, Any]:  # the file was unreadable: build it, if the content is still the same
        from cpwords.lexicon import load_lexicon

        lexicon = load_lexicon(ref)
        if lexicon.content_hash != content_hash:
            raise _Stale
        return build_index(lexicon).to_payload()

    payload = cached(stand_in, CACHE_NAME, rebuild, version=CACHE_VERSION)
    return LadderIndex.from_payload(payload)


def load_index(ref: DictionaryRef | str | None = None) -> LadderIndex:
    """The ladder index of a dictionary, built once and then read from the disk cache.

    A built-in name or a word-list file is first looked up through an alias (its name, the data
    file's size and time) so that a cached index loads without reading the lexicon at all.
    Kept per process too.

    Raises
    ------
    InputError
        For an unknown dictionary or an unreadable word list (from the lexicon).
    """
    from cpwords.specs import DictionaryRef

    if ref is None:
        ref = DictionaryRef(name="scowl-70")
    elif isinstance(ref, str):
        ref = DictionaryRef(name=ref)
    named = _named_key(ref)
    if named is not None:
        index = _BY_NAME.get(named)
        if index is not None:
            return index
    index = _load_index(ref.model_dump_json(), _alias_key(ref))
    if named is not None:
        _BY_NAME[named] = index
    return index


#: Indexes of built-in dictionaries already loaded by this process, by :func:`_named_key`. The
#: shipped word data does not change under a running process, so a hit needs neither the alias
#: (a stat of the data file) nor the JSON form of the reference: a few attribute reads a solve.
_BY_NAME: dict[tuple[Any, ...], LadderIndex] = {}


def _named_key(ref: DictionaryRef) -> tuple[Any, ...] | None:
    """Every field of a built-in dictionary's reference, hashable (None for a file or inline words)."""
    if ref.name is None:
        return None
    return tuple(tuple(v) if isinstance(v, list) else v for v in map(ref.__getattribute__, type(ref).model_fields))


@lru_cache(maxsize=8)
def _load_index(ref_json: str, key: str | None) -> LadderIndex:
    from cpwords.lexicon import load_lexicon
    from cpwords.specs import DictionaryRef

    ref = DictionaryRef.model_validate_json(ref_json)
    index = None
    if key is not None:
        try:
            index = _index_by_alias(key, ref)
        except _Stale:
            pass
    if index is None:
        lexicon = load_lexicon(ref)
        index = index_for(lexicon)
        if key is not None:
            _write_alias(key, lexicon.content_hash)
    # The index is shared by every dictionary with the same words (it is keyed by content):
    # messages must name the dictionary this run was given, not the one that built it.
    index.label = ref.label()
    return index
