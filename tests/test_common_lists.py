"""``common-N`` holds words a person knows: no names or abbreviations, everyday words in (issue 25)."""

from __future__ import annotations

from importlib import resources

import pytest

from cpwords.lexicon import builtin, load_lexicon
from cpwords.lexicon.sources import COMMON_MAX_LEVEL

#: Names and abbreviations that the version-1 lists held (frequent only because wordfreq folds case).
NAMES = ("james paul russia texas paris joe jones boston virginia spain haha ny un ios dae mae york english "
         "german louis henry brazil vegas batman honda tesla easter olympics").split()
#: Everyday words, some of them also names or titles (doctor, god, bill, mark, turkey, china).
EVERYDAY = ("cat house water mother doctor god bill mark turkey china bread river music cold warm word "
            "ladder garden orange apple kill fat organ strip gun congress").split()


def test_no_name_or_abbreviation_is_in_common_20k() -> None:
    common = set(load_lexicon("common-20k"))
    assert [w for w in NAMES if w in common] == []


def test_everyday_words_are_in_common_20k() -> None:
    common = set(load_lexicon("common-20k"))
    assert [w for w in EVERYDAY if w not in common] == []


def test_common_lists_follow_the_documented_rule() -> None:
    """Independently of the loader: the words of scowl-70 in frequency order, names out, the first N."""
    names = builtin.name_words()
    scowl = load_lexicon(f"scowl-{COMMON_MAX_LEVEL}")
    ranked = [w for w in scowl if scowl.zipf(w) > 0 and w not in names]
    for n in (2000, 10000):
        lex = load_lexicon(f"common-{n // 1000}k")
        assert lex.words == ranked[:n]
        assert max(lex.level(w) for w in lex) <= COMMON_MAX_LEVEL


def test_the_names_file_gives_its_evidence() -> None:
    """Each line of names.txt: word, its SCOWL level (50 or rarer), the cased form, a lower level."""
    text = resources.files("cpwords.lexicon.data").joinpath("names.txt").read_text(encoding="ascii")
    rows = [line.split() for line in text.splitlines() if line and not line.startswith("#")]
    assert len(rows) == len(builtin.name_words()) > 1000
    for word, level, form, cased_level, kind in rows:
        assert form.lower() == word and int(cased_level) < int(level) and int(level) >= 50
        assert kind in ("upper", "proper-names", "abbreviations")
    assert ["york", "70", "York", "50", "upper"] in rows


@pytest.mark.parametrize("word", ["doctor", "god", "congress"])
def test_common_words_that_are_also_titles_are_not_names(word: str) -> None:
    assert word not in builtin.name_words()
