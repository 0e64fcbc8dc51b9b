"""The shipped word data: SCOWL levels and wordfreq zipf of every word, decoded once per process.

``data/words.txt.gz`` (written by ``scripts/build_lexicon.py``) is ASCII text::

    cpwords-lexicon 1
    levels 10 20 35 40 50 55 60 70 80 95
    american <one level code per word, in word order: '0'..'9' index into levels, 'z' absent>
    british  <the same for english + british words>
    <centi-zipf> <word> <word> ...          one line per zipf value, most frequent first

so decoding is a handful of ``split`` calls. Words are in frequency order (zipf descending, then
level, then alphabetical); that order is the iteration order of every built-in dictionary.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import compress

FORMAT = "cpwords-lexicon 1"
LEVELS: tuple[int, ...] = (10, 20, 35, 40, 50, 55, 60, 70, 80, 95)
ABSENT = ord("z")
VARIANTS = ("american", "british")


@dataclass(frozen=True)
class BuiltinData:
    """All SCOWL words with per-word level codes and centi-zipf, in frequency order."""

    words: list[str]
    zipf_c: list[int]
    """Zipf frequency times 100 (wordfreq's own resolution); 0 when wordfreq does not know the word."""
    codes: dict[str, bytes]
    """Variant -> one byte per word: ord('0') + index into LEVELS, or ord('z') when absent."""


def _read_text(name: str) -> str:
    raw = resources.files("cpwords.lexicon.data").joinpath(name).read_bytes()
    return gzip.decompress(raw).decode("ascii")


def _zipf_groups(lines: list[str]) -> tuple[list[str], list[int]]:
    words: list[str] = []
    zipf_c: list[int] = []
    for line in lines:
        if not line:
            continue
        head, _, rest = line.partition(" ")
        group = rest.split(" ")
        words += group
        zipf_c += [int(head)] * len(group)
    return words, zipf_c


@cache
def builtin_data() -> BuiltinData:
    """The decoded ``words.txt.gz`` (cached for the life of the process)."""
    lines = _read_text("words.txt.gz").split("\n")
    if lines[0] != FORMAT:
        raise RuntimeError(f"cpwords lexicon data has format {lines[0]!r}, expected {FORMAT!r}")
    codes = {}
    for line in lines[2:4]:
        variant, _, text = line.partition(" ")
        codes[variant] = text.encode("ascii")
    words, zipf_c = _zipf_groups(lines[4:])
    return BuiltinData(words, zipf_c, codes)


@cache
def word_index() -> dict[str, int]:
    """Word -> position in :func:`builtin_data` (built only when a user list needs lookups)."""
    words = builtin_data().words
    return dict(zip(words, range(len(words)), strict=True))


@cache
def extra_zipf() -> dict[str, int]:
    """Centi-zipf of wordfreq words that SCOWL lacks, for words of user lists."""
    words, zipf_c = _zipf_groups(_read_text("extra-zipf.txt.gz").split("\n")[1:])
    return dict(zip(words, zipf_c, strict=True))


@cache
def word_list(name: str) -> list[str]:
    """The words of a shipped word list (``data/NAME``: gzipped, one word a line; ``enable2k.txt.gz``
    is written by ``scripts/build_enable2k.py``), in the file's order."""
    return _read_text(name).split()


@cache
def name_words() -> frozenset[str]:
    """Words of ``scowl-80`` that are mostly names or abbreviations (``paris``, ``texas``, ``ios``),
    from ``data/names.txt`` (SCOWL's cased lists; the rule is in ``scripts/build_lexicon.py``)."""
    text = resources.files("cpwords.lexicon.data").joinpath("names.txt").read_text(encoding="ascii")
    return frozenset(line.split(" ", 1)[0] for line in text.splitlines() if line and not line.startswith("#"))


def level_code(level: int) -> int:
    """The byte code of the largest SCOWL level <= ``level`` (ord('0') - 1 when below 10)."""
    return ord("0") + sum(1 for lv in LEVELS if lv <= level) - 1


def selection(variant: str, max_level: int) -> tuple[list[str], list[int], list[int]]:
    """Words of ``variant`` up to ``max_level`` in frequency order, with their levels and centi-zipf."""
    data = builtin_data()
    codes = data.codes[variant]
    limit = level_code(max_level)
    # Byte tables keep the per-word work in C (translate, compress): no Python loop over 435k words.
    mask = codes.translate(bytes(1 if 48 <= c <= limit else 0 for c in range(256)))
    to_level = bytes(LEVELS[c - 48] if 48 <= c < 48 + len(LEVELS) else 0 for c in range(256))
    levels = list(bytes(compress(codes, mask)).translate(to_level))
    return list(compress(data.words, mask)), levels, list(compress(data.zipf_c, mask))


def level_counts(variant: str) -> dict[int, int]:
    """Number of words of ``scowl-[variant-]N`` for each level N (cumulative), without decoding words."""
    codes = builtin_data().codes[variant]
    total = 0
    out = {}
    for i, level in enumerate(LEVELS):
        total += codes.count(48 + i)
        out[level] = total
    return out


# ---------------------------------------------------------------- other languages

LANGUAGE_FORMAT = "cpwords-language 1"


@cache
def language_data(code: str) -> tuple[list[str], list[int], list[int]]:
    """Words of a language list (``data/words-<code>.txt.gz``, built by ``scripts/build_languages.py``)
    in frequency order, with a level and centi-zipf per word.

    These lists have no SCOWL levels; a word's level comes from its frequency rank, with the cut-offs
    at the sizes of the American SCOWL levels: the ``scowl-35``-many most frequent words get level
    35, and so on (the rest 95). ``max_level: 50`` thus keeps about as many words as ``scowl-50``,
    and rareness follows the English formula.
    """
    raw = resources.files("cpwords.lexicon.data").joinpath(f"words-{code}.txt.gz").read_bytes()
    lines = gzip.decompress(raw).decode("utf-8").split("\n")
    if lines[0] != LANGUAGE_FORMAT:
        raise RuntimeError(f"cpwords {code} word data has format {lines[0]!r}, expected {LANGUAGE_FORMAT!r}")
    words, zipf_c = _zipf_groups(lines[2:])
    levels: list[int] = []
    start = 0
    for level, size in level_counts("american").items():
        levels += [level] * max(0, min(size, len(words)) - start)
        start = max(start, min(size, len(words)))
    levels += [LEVELS[-1]] * (len(words) - len(levels))
    return words, levels, zipf_c


@cache
def language_index(code: str) -> dict[str, int]:
    """Word -> position in :func:`language_data` (for user lists in that language)."""
    words = language_data(code)[0]
    return dict(zip(words, range(len(words)), strict=True))


def language_size(code: str) -> int:
    """Number of words of a language list, read without building the word list."""
    return len(language_data(code)[0])
