"""No slurs or obscenities where cpwords chooses the words; every word where the user typed the puzzle.

Offensive words are written here in ROT13, so that the test source does not print them.
"""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Any

import pytest

import cpwords
from cpwords import puzzles
from cpwords.lexicon import offensive_words
from cpwords.lexicon.exclude import GENERATING_EXCLUDE
from cpwords.puzzles import loading
from cpwords.verify import verify

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.yaml"))


def rot13(text: str) -> str:
    return codecs.decode(text, "rot13")


def shown_words(result: Any) -> set[str]:
    """Every word a result shows: its answers' words, and the tokens' words of a board."""
    return {w for s in result.solutions for w in s.words}


def test_the_list_holds_what_the_examples_used_to_print() -> None:
    bad = offensive_words()
    # The slur examples/word_grid.yaml printed, a profanity, a slur of WordNet's "ethnic slur" labels.
    for word in ("avttn", "shpx", "shpxvat", "xvxr", "ergneq"):
        assert rot13(word) in bad
    for word in ("fat", "kill", "organ", "strip", "taco", "tom", "ball", "cold", "warm"):
        assert word not in bad  # everyday words stay


# The 3×3 Boggle best board climbs for seconds to one known board: under `sweep` (the best_board
# generators below keep the filter checked in part 1)
SLOW_EXAMPLES = {"ruzzle-boggle-best-3x3.yaml"}


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.sweep) if p.name in SLOW_EXAMPLES else p
                                  for p in EXAMPLES], ids=[p.name for p in EXAMPLES])
def test_no_example_result_contains_an_offensive_word(path: Path) -> None:
    bad = offensive_words()
    for spec in loading.load_specs(path):
        result = cpwords.solve(spec, seed=spec.seed if spec.seed is not None else 7)
        assert not shown_words(result) & bad, path.name


#: A small spec of each kind's generating task (its cases' ``GENERATE``).
GENERATE = {kind.name: kind.test_cases().GENERATE for kind in puzzles.kinds().values()
            if kind.test_cases().GENERATE is not None}


@pytest.mark.parametrize("kind", GENERATE)
def test_generate_with_exclude_offensive_never_shows_one(kind: str) -> None:
    bad = offensive_words()
    data = dict(GENERATE[kind])
    data["dictionary"] = {"name": data["dictionary"], "exclude": ["offensive"]}
    result = cpwords.solve(data, seed=2)
    assert result.solutions and not shown_words(result) & bad
    verify(loading.parse_spec(data), result)  # raises when an answer breaks the rules


@pytest.mark.parametrize("kind", GENERATE)
def test_generate_leaves_offensive_words_out_by_default(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The generator loads its dictionary with the filter (seen by watching the lexicon loader),
    so no answer it gives can hold such a word."""
    from cpwords.lexicon import sources

    loaded: list[str] = []
    real = sources._load_cached

    def watch(key: str, stamp: Any) -> Any:
        loaded.append(key)
        return real(key, stamp)

    monkeypatch.setattr(sources, "_load_cached", watch)
    result = cpwords.solve(GENERATE[kind], seed=1)
    assert result.solutions and not shown_words(result) & offensive_words()
    verify(loading.parse_spec(GENERATE[kind]), result)
    assert any(f'"exclude":["{GENERATING_EXCLUDE[0]}"]' in key for key in loaded), loaded


def test_generating_tasks_and_the_public_helper() -> None:
    """``lexicon_for`` is what every kind calls: a generating task gets the filter unless the spec
    sets ``exclude`` (even ``[]``), any other task gets every word."""
    from types import SimpleNamespace

    from cpwords.lexicon import is_generating, lexicon_for
    from cpwords.specs import DictionaryRef

    word = rot13("shpx")
    plain = DictionaryRef(name="scowl-70")
    assert is_generating("generate") and is_generating("best_board") and not is_generating("words")
    assert word not in lexicon_for(SimpleNamespace(dictionary=plain, task="generate"))
    assert word in lexicon_for(SimpleNamespace(dictionary=plain, task="words"))
    kept = DictionaryRef(name="scowl-70", exclude=[])
    assert word in lexicon_for(SimpleNamespace(dictionary=kept, task="generate"))
    assert word not in lexicon_for(SimpleNamespace(dictionary=DictionaryRef(name="scowl-70", exclude=["offensive"]),
                                                   task="words"))


def test_a_puzzle_the_user_typed_keeps_every_word() -> None:
    word = rot13("shpx")  # on a 2x2 Ruzzle board
    board = {"kind": "ruzzle", "grid": [word[:2].upper(), word[:1:-1].upper()], "dictionary": "scowl-70"}
    assert word in shown_words(cpwords.solve(board))
    board["dictionary"] = {"name": "scowl-70", "exclude": ["offensive"]}
    assert word not in shown_words(cpwords.solve(board))


def test_web_pages_leave_them_out_for_every_task() -> None:
    """``chosen_for_others`` (what the server applies to a page's spec): the filter whatever the task,
    and an explicit ``exclude`` kept."""
    from cpwords.lexicon import chosen_for_others

    board = loading.parse_spec({"kind": "ruzzle", "grid": ["AB", "CD"], "dictionary": "scowl-70"})
    assert chosen_for_others(board).dictionary.exclude == list(GENERATING_EXCLUDE)
    assert board.dictionary.exclude is None  # the user's spec is not changed
    kept = loading.parse_spec({"kind": "ruzzle", "grid": ["AB", "CD"], "dictionary": {"name": "scowl-70", "exclude": []}})
    assert chosen_for_others(kept).dictionary.exclude == []
