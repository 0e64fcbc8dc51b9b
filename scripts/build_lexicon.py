#!/usr/bin/env python3
"""Build the lexicon data files shipped in ``cpwords/lexicon/data/``.

Sources (none is needed at run time):

* SCOWL level files, Debian package ``scowl`` (``/usr/share/dict/scowl/``), Latin-1 encoded;
* word frequencies from ``wordfreq`` (a dev dependency);
* WordNet 3.0, Debian package ``wordnet-base`` (``/usr/share/wordnet/``), for definitions.

Outputs:

* ``words.txt.gz``: every lowercase ``[a-z]+`` SCOWL word (english + american + british) with
  its smallest american and british level and its zipf frequency, in frequency order;
* ``extra-zipf.txt.gz``: zipf of ``[a-z]+`` wordfreq words that SCOWL lacks (for user lists);
* ``definitions.txt.gz``: WordNet glosses of the words of ``scowl-80`` plus morphology exceptions;
* ``names.txt``: the words of ``scowl-80`` that are mostly names or abbreviations (left out of
  ``common-N``; the rule is at :func:`build_names`);
* ``LICENSE-SCOWL.txt`` and ``LICENSE-WordNet.txt``: the notices both licences ask us to ship.

The format is described in ``cpwords/lexicon/builtin.py`` (reader) and ``docs/dictionaries.md``.

Usage: ``python3 scripts/build_lexicon.py [--scowl DIR] [--wordnet DIR] [--out DIR]``
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
from collections import defaultdict
from pathlib import Path

LEVELS = (10, 20, 35, 40, 50, 55, 60, 70, 80, 95)
ABSENT = "z"  # level code of a word missing from a variant; sorts after the digits
WORD = re.compile(r"[a-z]+")
FORMAT = "cpwords-lexicon 1"
DEF_FORMAT = "cpwords-definitions 1"
#: SCOWL's files of words that are written capitalised, proper names, and abbreviations.
CASED_KINDS = ("upper", "proper-names", "abbreviations")
#: A lowercase word this rare (SCOWL level) or rarer counts as a name when a cased form is commoner.
NAME_MIN_LEVEL = 50
NAMES_HEADER = """\
# Words that are mostly names or abbreviations, left out of common-N; built by scripts/build_lexicon.py
# from SCOWL (see LICENSE-SCOWL.txt). A word is here when SCOWL lists it lowercase at level 50 or rarer
# and a capitalised or abbreviated form of it (english/american -upper, -proper-names, -abbreviations)
# at a lower level: `york` is a level-70 word, `York` is in english-upper.50.
# word, SCOWL level of the lowercase word, the cased form, its level and file kind
"""
POS_NAMES = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}
WN_FILES = {"noun": "noun", "verb": "verb", "adj": "adj", "adv": "adv"}


def read_scowl(scowl: Path, variant: str) -> dict[str, int]:
    """Word -> index of the smallest level it appears at, for ``english`` + ``variant`` files."""
    levels: dict[str, int] = {}
    for code, level in enumerate(LEVELS):
        for part in ("english", variant):
            text = (scowl / f"{part}-words.{level}").read_text(encoding="latin-1")
            for word in text.split("\n"):  # not split(): Latin-1 has \xa0 inside words
                if WORD.fullmatch(word) and word not in levels:
                    levels[word] = code
    return levels


def gzip_write(path: Path, text: str) -> None:
    # mtime=0 keeps the build reproducible byte for byte.
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f:
        f.write(text.encode("ascii"))


def build_words(scowl: Path, out: Path) -> dict[str, int]:
    import wordfreq

    american = read_scowl(scowl, "american")
    british = read_scowl(scowl, "british")
    words = set(american) | set(british)
    freq = wordfreq.get_frequency_dict("en")
    # wordfreq stores frequencies in centibel bins, so centi-zipf integers are exact.
    zipf = {w: round(wordfreq.zipf_frequency(w, "en") * 100) for w in words}

    def best_level(w: str) -> int:
        return min(american.get(w, 99), british.get(w, 99))

    order = sorted(words, key=lambda w: (-zipf[w], best_level(w), w))
    groups: dict[int, list[str]] = defaultdict(list)
    for w in order:
        groups[zipf[w]].append(w)
    lines = [
        FORMAT,
        "levels " + " ".join(map(str, LEVELS)),
        "american " + "".join(str(american[w]) if w in american else ABSENT for w in order),
        "british " + "".join(str(british[w]) if w in british else ABSENT for w in order),
    ]
    lines += [f"{z} {' '.join(ws)}" for z, ws in groups.items()]
    gzip_write(out / "words.txt.gz", "\n".join(lines) + "\n")

    extra: dict[int, list[str]] = defaultdict(list)
    for w in sorted(freq, key=lambda w: (-freq[w], w)):
        if WORD.fullmatch(w) and w not in words:
            z = round(wordfreq.zipf_frequency(w, "en") * 100)
            if z > 0:
                extra[z].append(w)
    lines = [FORMAT + " extra-zipf"] + [f"{z} {' '.join(ws)}" for z, ws in extra.items()]
    gzip_write(out / "extra-zipf.txt.gz", "\n".join(lines) + "\n")
    print(f"words: {len(words)} ({sum(1 for c in american.values() if c <= 7)} in scowl-70), "
          f"extra zipf: {sum(map(len, extra.values()))}")
    return american


def read_cased(scowl: Path) -> dict[str, tuple[int, str, str]]:
    """Lowercased form -> (smallest level, the form as SCOWL writes it, file kind) over SCOWL's
    english + american files of capitalised words, proper names and abbreviations."""
    cased: dict[str, tuple[int, str, str]] = {}
    for level in LEVELS:
        for part in ("english", "american"):
            for kind in CASED_KINDS:
                path = scowl / f"{part}-{kind}.{level}"
                if not path.exists():  # not every level has every kind
                    continue
                for form in path.read_text(encoding="latin-1").split("\n"):
                    key = form.lower()
                    if form and WORD.fullmatch(key) and key not in cased:
                        cased[key] = (level, form, kind)
    return cased


def build_names(scowl: Path, american: dict[str, int], out: Path) -> None:
    """Write ``names.txt``: the lowercase words of ``scowl-80`` that are mostly a name or an
    abbreviation. wordfreq folds case, so ``paris``, ``texas`` or ``ios`` rank as frequent as the
    names; SCOWL says which form is the usual one. A word counts as a name when its lowercase form
    is at level :data:`NAME_MIN_LEVEL` or rarer and a cased form is at a lower (commoner) level.
    The level floor keeps everyday words that are also titles or names (``doctor`` 20 against
    ``Doctor`` 10, ``god``, ``congress``, ``bill``)."""
    cased = read_cased(scowl)
    lines = []
    for word in sorted(american):
        level = LEVELS[american[word]]
        if level > 80 or level < NAME_MIN_LEVEL or word not in cased:
            continue
        cased_level, form, kind = cased[word]
        if cased_level < level:
            lines.append(f"{word} {level} {form} {cased_level} {kind}")
    (out / "names.txt").write_text(NAMES_HEADER + "\n".join(lines) + "\n", encoding="ascii")
    print(f"names: {len(lines)} words of scowl-80 are mostly names or abbreviations")


def clean_gloss(gloss: str) -> str:
    """The definition part of a WordNet gloss: examples (quoted, after ';') are dropped."""
    parts = [p.strip() for p in gloss.split(";")]
    kept = [p for p in parts if p and not p.startswith('"')]
    return "; ".join(kept) or gloss.strip()


def build_definitions(wordnet: Path, keep: set[str], out: Path) -> None:
    glosses: dict[tuple[str, int], str] = {}
    for pos in WN_FILES.values():
        with open(wordnet / f"data.{pos}", encoding="latin-1") as f:
            for line in f:
                if line.startswith("  "):  # licence header
                    continue
                head, _, gloss = line.partition(" | ")
                glosses[(pos, int(head.split(" ", 1)[0]))] = clean_gloss(gloss)

    ids: dict[tuple[str, int], int] = {}
    gloss_lines: list[str] = []
    entries: dict[str, list[int]] = defaultdict(list)
    for pos in WN_FILES.values():
        with open(wordnet / f"index.{pos}", encoding="latin-1") as f:
            for line in f:
                if line.startswith("  "):
                    continue
                fields = line.split()
                lemma = fields[0]
                if lemma not in keep:
                    continue
                n_synsets = int(fields[2])
                # Offsets close the line, most frequent sense first.
                for offset in fields[-n_synsets:]:
                    key = (pos, int(offset))
                    if key not in ids:
                        ids[key] = len(gloss_lines)
                        gloss_lines.append(f"{pos} {glosses[key]}")
                    entries[lemma].append(ids[key])

    exceptions: list[str] = []
    for pos in WN_FILES.values():
        with open(wordnet / f"{pos}.exc", encoding="latin-1") as f:
            for line in f:
                form, *bases = line.split()
                bases = [b for b in bases if b in entries]
                if WORD.fullmatch(form) and bases:
                    exceptions.append(f"{form} {pos} {' '.join(bases)}")

    lines = [DEF_FORMAT, f"glosses {len(gloss_lines)}", *gloss_lines, f"exceptions {len(exceptions)}",
             *exceptions, f"words {len(entries)}"]
    lines += [f"{w} {' '.join(map(str, entries[w]))}" for w in sorted(entries)]
    gzip_write(out / "definitions.txt.gz", "\n".join(lines) + "\n")
    print(f"definitions: {len(entries)} words, {len(gloss_lines)} glosses, {len(exceptions)} exceptions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scowl", type=Path, default=Path("/usr/share/dict/scowl"))
    parser.add_argument("--scowl-copyright", type=Path, default=Path("/usr/share/doc/scowl/copyright"))
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    parser.add_argument("--wordnet-copyright", type=Path,
                        default=Path("/usr/share/doc/wordnet-base/copyright"))
    default_out = Path(__file__).resolve().parent.parent / "cpwords" / "lexicon" / "data"
    parser.add_argument("--out", type=Path, default=default_out)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    american = build_words(args.scowl, args.out)
    build_names(args.scowl, american, args.out)
    scowl80 = {w for w, code in american.items() if code <= LEVELS.index(80)}
    build_definitions(args.wordnet, scowl80, args.out)
    shutil.copyfile(args.scowl_copyright, args.out / "LICENSE-SCOWL.txt")
    shutil.copyfile(args.wordnet_copyright, args.out / "LICENSE-WordNet.txt")


if __name__ == "__main__":
    main()
