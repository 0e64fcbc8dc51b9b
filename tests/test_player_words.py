"""Every word a player meets is one they know (issue 25): generators default to a common list with
offensive words out, the user's dictionary still wins, the grid seed counts with ``--common``, and
``stats.dictionary`` says what was left out. Offensive words are written in ROT13 (see test_offensive)."""

from __future__ import annotations

import codecs
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pace import HANG_S

import cpwords
from cpwords.cli import main
from cpwords.lexicon import load_lexicon, offensive_words
from cpwords.puzzles import loading
from cpwords.puzzles.word_grid.problem import COST_SPREAD, prepare
from cpwords.specs import PLAYER_DICTIONARY
from cpwords.verify import verify

CPWORDS = str(Path(sys.executable).parent / "cpwords")

#: Generate tasks without a dictionary, one per kind that generates puzzles, and the list each uses.
GENERATE: dict[str, tuple[dict[str, Any], str]] = {
    "letter_boxed": ({"kind": "letter_boxed", "task": "generate", "puzzles": 3, "attempts": 40}, PLAYER_DICTIONARY),
    "word_grid": ({"kind": "word_grid", "task": "generate", "count": 3, "engine": "native"}, PLAYER_DICTIONARY),
    "spelling_bee": ({"kind": "spelling_bee", "task": "generate", "puzzles": 2}, PLAYER_DICTIONARY),
    "prefix_suffix_board": ({"kind": "prefix_suffix_board", "task": "generate", "count": 2}, "common-10k"),
}


def words_of(result: Any) -> set[str]:
    return {w for s in result.solutions for w in s.words}


@pytest.mark.parametrize("kind", GENERATE)
def test_generated_puzzles_use_only_words_of_the_default_common_list(kind: str) -> None:
    data, default = GENERATE[kind]
    result = cpwords.solve(data, seed=7)
    allowed = set(load_lexicon(default)) - offensive_words()
    assert result.solutions and words_of(result) <= allowed, sorted(words_of(result) - allowed)
    verify(loading.parse_spec({**data, "seed": 7}), result)
    left_out = len(set(load_lexicon(default)) & offensive_words())
    assert result.stats["dictionary"] == f"{default}, {left_out} offensive words left out"


@pytest.mark.parametrize("kind", ["letter_boxed", "word_grid", "spelling_bee"])
def test_the_users_dictionary_still_wins(kind: str) -> None:
    data, _ = GENERATE[kind]
    spec = loading.parse_spec({**data, "dictionary": "scowl-50"})
    assert spec.dictionary.name == "scowl-50"
    assert loading.parse_spec(data).dictionary.name == PLAYER_DICTIONARY
    # A task that is not generate keeps the kind's own default.
    if kind == "word_grid":
        assert loading.parse_spec({**data, "task": "fill"}).dictionary.name == "scowl-70"


def test_the_issues_letter_boxed_command_gives_common_words() -> None:
    """`cpwords letter-boxed --task generate --puzzles 3 --seed 7` once gave HAFNIUM, SOLEMNIFIES, TEREFAH."""
    run = subprocess.run([CPWORDS, "letter-boxed", "--task", "generate", "--puzzles", "3", "--seed", "7", "--json"],
                         capture_output=True, text=True, timeout=HANG_S, check=False)  # as a user runs it
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    words = {w for s in result["solutions"] for w in s["words"]}
    assert len(result["solutions"]) == 3 and words <= set(load_lexicon(PLAYER_DICTIONARY))
    assert not words & {"hafnium", "madwort", "solemnifies", "terefah"}
    assert result["stats"]["dictionary"].startswith(f"{PLAYER_DICTIONARY}, ")


def test_grid_seeds_differ_with_common_among_the_least_rare(capsys: pytest.CaptureFixture[str]) -> None:
    """`cpwords grid --generate 2 --common` gave the same grids for seeds 3, 4 and 5."""
    firsts, rareness = [], []
    for seed in (3, 4, 5):
        assert main(["grid", "--generate", "2", "--common", "--seed", str(seed), "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        firsts.append(tuple(result["solutions"][0]["rows"]))
        grids = {tuple(s["rows"]) for s in result["solutions"]}
        assert len(grids) == 2
        rareness += [s["rareness"] for s in result["solutions"]]
    assert len(set(firsts)) == 3
    # Among the least rare: within COST_SPREAD times the least total rareness (the fill task's
    # least-rare grid of the same list is not seeded).
    least = cpwords.solve({"kind": "word_grid", "task": "fill", "objective": "common",
                           "dictionary": {"name": PLAYER_DICTIONARY, "exclude": ["offensive"]}}).objective
    assert all(r < COST_SPREAD * least for r in rareness)


@pytest.mark.parametrize("seed", [1, *(pytest.param(s, marks=pytest.mark.sweep) for s in (2, 3))])
def test_seeded_common_grids_agree_between_engines(seed: int) -> None:
    spec = {"kind": "word_grid", "shape": "ring-3x3", "task": "generate", "objective": "common", "count": 2,
            "dictionary": "common-5k", "seed": seed}
    native, cpsat = (cpwords.solve({**spec, "engine": e}) for e in ("native", "cpsat"))
    problem = prepare(loading.parse_spec(spec))
    costs = problem.objective_costs()

    def cost(words: list[str]) -> int:  # the seeded objective, recomputed from the words
        return sum(costs[len(w)][problem.words[len(w)].index(w)] for w in words)

    # The same optimum of the seeded costs (grids of equal cost may come in either order).
    assert [cost(s.words) for s in native.solutions] == [cost(s.words) for s in cpsat.solutions]
    assert cost(native.solutions[0].words) <= cost(native.solutions[1].words)


def test_the_filter_catches_slurs_and_keeps_everyday_words() -> None:
    bad = offensive_words()
    for word in ("juber", "puvax", "juberf"):
        assert codecs.decode(word, "rot13") in bad
    for word in ("kill", "fat", "organ", "strip", "gun", "taco", "tom", "screw", "snatch", "shag", "vulgar"):
        assert word not in bad  # everyday words, some with one obscene sense among many (rule 5 keeps them)
    for word in ("nff", "cvff", "pbba", "snaal", "cvffrq"):  # rule 5: an offensive sense among few
        assert codecs.decode(word, "rot13") in bad


def test_word_grid_fill_leaves_offensive_words_out_unless_exclude_is_empty() -> None:
    """A fill is a generated grid: the filter applies; ``exclude: []`` keeps every word."""
    word = codecs.decode("juber", "rot13")
    spec = {"kind": "word_grid", "task": "fill", "shape": "gridle-5x5", "given": [word, "?#?#?", "?????", "?#?#?",
                                                                                    "?????"]}
    filtered = cpwords.solve(spec)
    assert filtered.status == "infeasible" and "offensive" in filtered.stats["dictionary"]
    kept = cpwords.solve({**spec, "dictionary": {"name": "scowl-70", "exclude": []}})
    assert kept.solutions and word in kept.solutions[0].words
    assert kept.stats["dictionary"] == "scowl-70 (exclude=)" or "left out" not in kept.stats["dictionary"]
