#!/usr/bin/env python3
"""Build the Italian, Spanish, German and French word lists shipped in ``cpwords/lexicon/data/``.

Each list is the words of wordfreq's ``large`` list for the language (every form seen in real
text, with its frequency) that the language's Hunspell dictionary spells correctly, folded onto
the language's alphabet (:mod:`cpwords.alphabet`). wordfreq brings inflected forms and
frequencies; Hunspell removes what wordfreq also holds: fragments, typos, foreign words, names
(written with a capital in Hunspell; German nouns are capitalised too, so German keeps a
capitalised form, and with it some names), and one-letter elision fragments (``l'``, ``d'``). Folding may join two spellings (``è`` and ``e``); the
folded word gets the sum of their frequencies.

Sources (none is needed at run time):

* ``wordfreq`` (a dev dependency; its word data is CC BY-SA 4.0);
* Hunspell dictionaries, Debian packages ``hunspell-it``, ``hunspell-es``, ``hunspell-de-de``,
  ``hunspell-fr`` (``/usr/share/hunspell/``), checked with the ``hunspell`` command (package
  ``hunspell``).

Outputs: ``words-it.txt.gz`` (and ``-es``, ``-de``, ``-fr``), UTF-8 text::

    cpwords-language 1
    language italian
    <centi-zipf> <word> <word> ...        one line per zipf value, most frequent first

and ``LICENSE-hunspell-<code>.txt`` (the dictionary's Debian copyright file) beside them; the
wordfreq notice is ``LICENSE-wordfreq.txt``.

Usage: ``python3 scripts/build_languages.py [--only it,de] [--out DIR]``
"""

from __future__ import annotations

import argparse
import gzip
import math
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpwords.alphabet import alphabet_of

FORMAT = "cpwords-language 1"
#: language code -> (Hunspell dictionary, Debian package)
HUNSPELL = {"it": ("it_IT", "hunspell-it"), "es": ("es_ES", "hunspell-es"),
            "de": ("de_DE", "hunspell-de-de"), "fr": ("fr_FR", "hunspell-fr")}
WORDFREQ_NOTICE = """\
Word frequencies: wordfreq (https://github.com/rspeer/wordfreq), by Robyn Speer.

The wordfreq code is under the Apache License 2.0; its word-frequency data is licensed under the
Creative Commons Attribution-ShareAlike 4.0 license (CC BY-SA 4.0,
https://creativecommons.org/licenses/by-sa/4.0/). The data draws on Wikipedia, OpenSubtitles,
SUBTLEX, the Google Books Ngrams, the Leeds Internet Corpus, Twitter, Reddit and the Common Crawl
(see wordfreq's README for the full credits).

cpwords' files words-*.txt.gz and extra-zipf.txt.gz hold words and zipf frequencies taken from
wordfreq and are shared under the same CC BY-SA 4.0 license.
"""


def copyright_notice(package: str, dictionary: str) -> str:
    """The parts of a Debian copyright file that concern one dictionary: the header, the stanza
    of the dictionary's files and the full text of the licences that stanza names (the LibreOffice
    dictionaries package holds some hundred dictionaries in one file)."""
    text = Path(f"/usr/share/doc/{package}/copyright").read_text(encoding="utf-8")
    stanzas = text.split("\n\n")
    if len(stanzas) < 8:  # a file about this dictionary alone
        return text
    folder = dictionary.split("_")[0]
    mine = [s for s in stanzas if s.startswith("Files:") and (f"dictionaries/{dictionary}/" in s
                                                                or f"dictionaries/{folder}/*" in s)][:1]
    names = {line.split(":", 1)[1].strip() for s in mine for line in s.splitlines() if line.startswith("License:")}
    names = {n for name in names for n in name.replace(" or ", ",").split(",")} | names
    licences = [s for s in stanzas if s.startswith("License:") and s.split("\n", 1)[0][8:].strip() in names]
    return "\n\n".join([stanzas[0], *mine, *licences]) + "\n"


def misspelled(words: list[str], dictionary: str) -> set[str]:
    """The words Hunspell's ``dictionary`` rejects (``hunspell -l``: one word a line in and out)."""
    proc = subprocess.run(["hunspell", "-i", "utf-8", "-d", dictionary, "-l"], input="\n".join(words) + "\n",
                          capture_output=True, text=True, encoding="utf-8", check=True)
    return set(proc.stdout.split("\n")) - {""}


def _german_retry(rejected: set[str], dictionary: str) -> set[str]:
    """The German words still rejected when tried as nouns (capitalised) and, since wordfreq writes
    ``ß`` as ``ss``, with each ``ss`` as ``ß`` (``strasse`` is ``Straße``; folding makes it
    ``strasse`` again)."""
    variants: dict[str, list[str]] = {}
    for w in rejected:
        forms = [w]
        if "ss" in w:
            parts = w.split("ss")
            for i in range(1, len(parts)):
                forms.append("ss".join(parts[:i]) + "ß" + "ss".join(parts[i:]))
        variants[w] = forms + [f[:1].upper() + f[1:] for f in forms]
    still = misspelled(sorted({v for forms in variants.values() for v in forms}), dictionary)
    return {w for w, forms in variants.items() if all(f in still for f in forms)}


#: One-letter words kept (every other one-letter token of wordfreq is an elision fragment: l', d').
ONE_LETTER = {"it": "aeio", "es": "aeouy", "de": "", "fr": "ay"}


def build(code: str, out: Path) -> dict[str, int]:
    """Write ``words-<code>.txt.gz``; returns a few counts for the build log and the docs."""
    import wordfreq

    alphabet = alphabet_of(code)
    dictionary, _package = HUNSPELL[code]
    freq = wordfreq.get_frequency_dict(code, "large")
    tokens = [w for w in freq if w.isalpha()]
    rejected = misspelled(tokens, dictionary)
    if code == "de":
        rejected = _german_retry(rejected, dictionary)
    folded: dict[str, float] = defaultdict(float)
    for w in tokens:
        if w in rejected:
            continue
        f = alphabet.fold(w)
        if alphabet.is_word(f) and (len(f) > 1 or f in ONE_LETTER[code]):
            folded[f] += freq[w]
    zipf = {w: round(100 * (math.log10(f) + 9)) for w, f in folded.items()}
    order = sorted(zipf, key=lambda w: (-zipf[w], w))
    groups: dict[int, list[str]] = defaultdict(list)
    for w in order:
        groups[zipf[w]].append(w)
    lines = [FORMAT, f"language {alphabet.language}"] + [f"{z} {' '.join(ws)}" for z, ws in groups.items()]
    path = out / f"words-{code}.txt.gz"
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f:
        f.write(("\n".join(lines) + "\n").encode("utf-8"))
    return {"wordfreq": len(freq), "alphabetic": len(tokens), "rejected": len(rejected & set(tokens)),
            "words": len(order), "bytes": path.stat().st_size}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(HUNSPELL), help="language codes, comma-separated")
    default_out = Path(__file__).resolve().parent.parent / "cpwords" / "lexicon" / "data"
    parser.add_argument("--out", type=Path, default=default_out)
    args = parser.parse_args()
    for code in args.only.split(","):
        counts = build(code, args.out)
        print(code, " ".join(f"{k}={v}" for k, v in counts.items()))
        package = HUNSPELL[code][1]
        notice = copyright_notice(package, HUNSPELL[code][0])
        (args.out / f"LICENSE-hunspell-{code}.txt").write_text(notice, encoding="utf-8")
    (args.out / "LICENSE-wordfreq.txt").write_text(WORDFREQ_NOTICE, encoding="utf-8")


if __name__ == "__main__":
    main()
