"""Words and what is known about them: built-in dictionaries, user lists, rareness, definitions.

>>> from cpwords.lexicon import load_lexicon
>>> lex = load_lexicon("scowl-70")
>>> len(lex), "silver" in lex, lex.rareness("silver")
(111593, True, 1)

Importing this package is light: data files are read on first use, definitions only by
:func:`define`, and wordfreq is never needed at run time.
"""

from __future__ import annotations

from cpwords.lexicon.core import Lexicon
from cpwords.lexicon.definitions import define
from cpwords.lexicon.exclude import (
    GENERATING_EXCLUDE,
    GENERATING_TASKS,
    chosen_for_others,
    excluded_words,
    is_generating,
    offensive_words,
)
from cpwords.lexicon.rareness import UNKNOWN_LEVEL, rareness_of
from cpwords.lexicon.sources import (
    DEFAULT_DICTIONARY,
    LexiconWarning,
    known_dictionaries,
    lexicon_for,
    load_lexicon,
)

__all__ = [
    "DEFAULT_DICTIONARY",
    "GENERATING_EXCLUDE",
    "GENERATING_TASKS",
    "Lexicon",
    "LexiconWarning",
    "UNKNOWN_LEVEL",
    "chosen_for_others",
    "define",
    "excluded_words",
    "is_generating",
    "known_dictionaries",
    "lexicon_for",
    "load_lexicon",
    "offensive_words",
    "rareness_of",
]
