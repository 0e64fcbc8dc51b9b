#!/usr/bin/env python3
"""Build ``cpwords/lexicon/data/offensive.txt``: the words of the ``offensive`` dictionary filter.

Sources (none is needed at run time):

* WordNet 3.0 (Debian package ``wordnet-base``, ``/usr/share/wordnet/``; the shipped definitions
  come from it too). A sense is *offensive* when WordNet labels it: a usage-domain pointer from
  the synsets "ethnic slur" or "obscenity, smut, vulgarism, filth, dirty word" (to the word
  itself, or to its whole synset), or a gloss that calls it an offensive, obscene, vulgar,
  disparaging or derogatory term, word, name or slang, or starts "(ethnic slur)".
* ``wordfilter`` 0.2.6 by Darius Kazemi (npm, MIT licence): ``lib/badwords.json``, a short list
  of slurs kept for text generators.
* ``better-profanity`` 0.7.0 by snguyenthanh (PyPI, MIT licence): ``profanity_wordlist.txt``, a
  broad list of swear words and sexual terms.

Rule (why: each list alone is either too narrow or too broad for word games; better-profanity
lists ``fat``, ``kill``, ``organ`` and ``strip``, and WordNet's sense order alone would drop
``taco`` and ``tom``). A word is filtered when

1. every WordNet sense of it is offensive; or
2. its most frequent sense (first in WordNet's index, in any part of speech) is offensive and
   one of the two lists names it too; or
3. wordfilter names it; or
4. better-profanity names it and WordNet does not know the word or any base form of it; or
5. one of the two lists names it, a noun or verb sense of it is offensive, and the offensive senses
   are at least a quarter of all its senses (a slur or obscenity among few innocent senses: ``ass``,
   ``piss``, ``coon``; everyday words with one offensive sense among many stay: ``screw`` 1 of 10,
   ``snatch`` 1 of 8, ``shag`` 1 of 6; an adjective sense alone does not count: ``vulgar``);

and an inflected form is filtered with its base (WordNet's morphy rules: ``faggots``, ``fucking``),
for every word of SCOWL up to level 95.

The output is one word a line (``[a-z]+``, sorted) followed by the rules that caught it
(``all``, ``first``, ``wordfilter``, ``profanity``, ``share``, ``form``), after a comment header.

Usage::

    python3 scripts/build_offensive.py --wordfilter package/lib/badwords.json \\
        --profanity better_profanity/profanity_wordlist.txt [--wordnet /usr/share/wordnet] [--out FILE]

(``npm pack wordfilter@0.2.6`` and ``pip download --no-deps better-profanity==0.7.0`` fetch the
two lists; unpack them and point the options at the files.)
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path

WORD = re.compile(r"[a-z]+")
POS_FILES = ("noun", "verb", "adj", "adv")
POS_OF = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}
#: WordNet 3.0 usage-domain synsets (noun offsets) whose members are offensive.
USAGE_LABELS = {"06718862": "ethnic slur", "07124340": "obscenity"}
GLOSS = re.compile(
    r"^\((?:ethnic slur|offensive slang)\)"
    r"|\b(?:offensive|obscene|vulgar|disparaging|derogatory) (?:term|word|name|slang|expression)s? for\b",
    re.I,
)
HEADER = """\
# cpwords offensive-word filter (exclude: [offensive]); built by scripts/build_offensive.py.
# Sources: WordNet 3.0 usage labels and glosses (Princeton University, WordNet licence),
# wordfilter 0.2.6 (Darius Kazemi, MIT) and better-profanity 0.7.0 (snguyenthanh, MIT); see
# LICENSE-WordNet.txt, LICENSE-wordfilter.txt and LICENSE-better-profanity.txt beside this file.
# One word a line, then the rules that caught it: all, first, wordfilter, profanity, share, form.
"""

#: Rule 5: the least share of offensive senses that puts a listed word in the filter.
SHARE = 0.25


def read_wordnet(folder: Path) -> tuple[dict[str, list[bool]], set[str], dict[str, set[str]]]:
    """Word -> for each of its senses in WordNet's order (nouns, verbs, adjectives, adverbs, each
    most frequent first) whether that sense is offensive; every word WordNet knows; and word -> the
    parts of speech of its offensive senses."""
    synsets: dict[tuple[str, str], tuple[list[str], str]] = {}
    labelled: dict[tuple[str, str], set[int]] = defaultdict(set)  # synset -> lemma numbers (0: all)
    for pos in POS_FILES:
        for line in (folder / f"data.{pos}").read_text(encoding="latin-1").splitlines():
            if line.startswith(" "):
                continue
            head, _, gloss = line.partition(" | ")
            f = head.split()
            n = int(f[3], 16)
            lemmas = [re.sub(r"\(.*\)$", "", f[4 + 2 * i]).lower() for i in range(n)]
            synsets[(pos, f[0])] = (lemmas, gloss.strip())
            at = 4 + 2 * n
            if pos == "noun" and f[0] in USAGE_LABELS:
                for k in range(int(f[at])):
                    symbol, offset, target_pos, numbers = f[at + 1 + 4 * k : at + 5 + 4 * k]
                    if symbol == "-u":
                        labelled[(POS_OF[target_pos], offset)].add(int(numbers[2:], 16))
    senses: dict[str, list[bool]] = defaultdict(list)
    offensive_pos: dict[str, set[str]] = defaultdict(set)
    for pos in POS_FILES:
        for line in (folder / f"index.{pos}").read_text(encoding="latin-1").splitlines():
            if line.startswith(" "):
                continue
            f = line.split()
            lemma, pointers = f[0], int(f[3])
            for offset in f[4 + pointers + 2 :]:
                lemmas, gloss = synsets[(pos, offset)]
                marks = labelled.get((pos, offset), set())
                offensive = bool(GLOSS.search(gloss)) or 0 in marks or any(
                    lemmas[m - 1] == lemma for m in marks if m)
                senses[lemma].append(offensive)
                if offensive:
                    offensive_pos[lemma].add(pos)
    return dict(senses), set(senses), dict(offensive_pos)


def build(wordnet: Path, wordfilter: Path, profanity: Path) -> dict[str, set[str]]:
    """Word -> the rules that put it in the filter."""
    from cpwords.lexicon import load_lexicon
    from cpwords.lexicon.definitions import base_forms

    senses, known, offensive_pos = read_wordnet(wordnet)
    listed_wf = {w.lower() for w in json.loads(wordfilter.read_text(encoding="utf-8"))}
    listed_bp = {w.strip().lower() for w in profanity.read_text(encoding="utf-8").splitlines()}
    lists = listed_wf | listed_bp
    why: dict[str, set[str]] = defaultdict(set)
    for word, flags in senses.items():
        if not WORD.fullmatch(word):
            continue
        if all(flags):
            why[word].add("all")
        elif flags[0] and word in lists:
            why[word].add("first")
        elif (word in lists and offensive_pos.get(word, set()) & {"noun", "verb"}
              and sum(flags) >= SHARE * len(flags)):
            why[word].add("share")
    for word in listed_wf:
        if WORD.fullmatch(word):
            why[word].add("wordfilter")
    for word in listed_bp:
        if WORD.fullmatch(word) and word not in known and not any(b in known for _, b in base_forms(word)):
            why[word].add("profanity")
    for word in load_lexicon("scowl-95"):
        if word not in why and any(base in why for _, base in base_forms(word)):
            why[word].add("form")
    return why


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    parser.add_argument("--wordfilter", type=Path, required=True, help="wordfilter's lib/badwords.json")
    parser.add_argument("--profanity", type=Path, required=True, help="better-profanity's profanity_wordlist.txt")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent.parent / "cpwords/lexicon/data/offensive.txt")
    args = parser.parse_args()
    why = build(args.wordnet, args.wordfilter, args.profanity)
    lines = [f"{w} {','.join(sorted(why[w]))}" for w in sorted(why)]
    args.out.write_text(HEADER + "\n".join(lines) + "\n", encoding="ascii")
    print(f"wrote {args.out}: {len(lines)} words")


if __name__ == "__main__":
    main()
