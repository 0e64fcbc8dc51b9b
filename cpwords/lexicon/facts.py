"""What is known about the dictionaries and their words, as plain data.

``cpwords dict …`` prints these (:mod:`cpwords.commands.dictionary`) and the web API sends them;
the facts a puzzle kind adds about a word (a ladder's group and links) come on top of
:func:`word_facts` through the registry (:func:`cpwords.puzzles.word_facts`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cpwords.errors import InputError

if TYPE_CHECKING:
    from cpwords.specs import DictionaryRef


def dictionary_list() -> list[dict[str, Any]]:
    """The built-in dictionaries: name, number of words, what they are."""
    from cpwords.alphabet import alphabet_of
    from cpwords.lexicon import builtin
    from cpwords.lexicon.sources import (
        COMMON_MAX_LEVEL,
        COMMON_VERSION,
        DEFAULT_DICTIONARY,
        LANGUAGES,
        WORD_LISTS,
    )

    rows: list[dict[str, Any]] = []
    for variant, prefix in (("american", "scowl-"), ("british", "scowl-british-")):
        for level, count in builtin.level_counts(variant).items():
            name = f"{prefix}{level}"
            rows.append({"name": name, "words": count, "what": f"SCOWL {variant} English, levels <= {level}",
                         "default": name == DEFAULT_DICTIONARY})
    rows.append({"name": "common-N", "words": None, "default": False,
                 "what": f"the N most frequent words (wordfreq) of scowl-{COMMON_MAX_LEVEL} that are not mostly names or "
                         f"abbreviations, e.g. common-5k (list version {COMMON_VERSION})"})
    rows.append({"name": "enable2k", "words": len(builtin.word_list(WORD_LISTS["enable2k"])), "default": False,
                 "what": "ENABLE2K (public domain), the word-game solvers' reference list"})
    for language in LANGUAGES:
        alphabet = alphabet_of(language)
        rows.append({"name": language, "words": builtin.language_size(alphabet.code), "default": False,
                     "language": language, "letters": alphabet.describe(),
                     "what": f"{language.capitalize()} ({alphabet.code}): wordfreq words that Hunspell "
                             f"accepts; letters {alphabet.describe()}"})
    return rows


def dictionary_facts(ref: DictionaryRef) -> dict[str, Any]:
    """Size, words by length, the most common words and the content hash of a dictionary."""
    from cpwords.lexicon import load_lexicon

    lex = load_lexicon(ref)
    return {"dictionary": ref.label(), "language": lex.language, "letters": lex.alphabet.describe(),
            "folding": lex.alphabet.rule(), "words": len(lex), "by_length": {str(n): c for n, c in lex.length_counts().items()},
            "most_common": lex.words[:12], "warnings": list(lex.warnings), "content_hash": lex.content_hash}


def word_facts(word: str, ref: DictionaryRef) -> dict[str, Any]:
    """What the dictionary knows about ``word``: in it or not, level, zipf, rareness, definitions.

    ``more`` is left empty for the rows the puzzle kinds add (:func:`cpwords.puzzles.word_facts`).

    Raises
    ------
    InputError
        For a word longer than any word may be (field ``WORD``).
    """
    from cpwords.lexicon import Lexicon, define, load_lexicon

    lex = load_lexicon(ref)
    found = word in lex
    # A word outside the dictionary still shows what the built-in data knows about it.
    source = lex if found else Lexicon.from_words([word], alphabet=lex.alphabet)
    if word not in source:
        from cpwords.lexicon.core import MAX_WORD_LETTERS

        raise InputError(f"a word of {len(word):,} letters; words have at most {MAX_WORD_LETTERS} letters",
                         field="WORD", value=word)
    known = True  # (a word the alphabet cannot spell was refused above)
    return {"word": word, "dictionary": ref.label(), "in_dictionary": found,
            "level": source.level(word) if known else None,
            "zipf": round(source.zipf(word), 2) if known else None,
            "rareness": source.rareness(word) if known else None, "more": [],
            # WordNet is English: an Italian "mare" is not a female horse.
            "definitions": define(word) if lex.language == "english" else []}
