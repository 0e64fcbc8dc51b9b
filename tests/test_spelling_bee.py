"""Spelling Bee: the game's scoring and ranks, both engines agreeing, generation within bounds."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cpwords
from cpwords.lexicon.exclude import offensive_words
from cpwords.specs import parse_spec

#: Inline words over the hive ABCDEFG (centre A): hand-scored below. Nonsense words are fine.
WORDS = ["abed", "faced", "cabbage", "gabfced", "bbbb", "aaa", "abeh", "decaf"]
EXPECTED = {"gabfced": 14, "cabbage": 7, "faced": 5, "decaf": 5, "abed": 1}


def _bee(**fields: Any) -> dict[str, Any]:
    return {"kind": "spelling_bee", "letters": "abcdefg", "center": "a", "dictionary": {"words": WORDS}, **fields}


@pytest.mark.parametrize("engine", ["native", "cpsat"])
def test_words_scores_pangrams_and_ranks_by_hand(engine: str) -> None:
    result = cpwords.solve(_bee(engine=engine), check=True)
    assert result.status.value == "optimal"
    s = result.solutions[0]
    assert dict(zip(s.words, s.points, strict=True)) == EXPECTED
    assert s.words[0] == "gabfced" and s.pangrams == ["gabfced"]  # pangrams first
    assert s.total == result.objective == 32 and result.count == 5
    assert s.ranks["Beginner"] == 0 and s.ranks["Genius"] == 22 and s.ranks["Queen Bee"] == 32  # 70% of 32 = 22.4
    assert s.letters == "abcdefg" and s.center == "a"


def test_the_checker_catches_a_wrong_score_and_a_missing_word() -> None:
    result = cpwords.solve(_bee())
    spec, s = parse_spec(_bee()), result.solutions[0]
    from cpwords.puzzles import get

    kind = get("spelling_bee")
    assert kind.check(spec, s) == []
    bad = s.model_copy(update={"points": [1] + s.points[1:]})
    assert any("scores 14" in p for p in kind.check(spec, bad))
    short = s.model_copy(update={"words": s.words[:-1], "points": s.points[:-1]})
    assert any("missing" in p for p in kind.check(spec, short))


def test_a_real_hive_with_a_builtin_dictionary() -> None:
    result = cpwords.solve({"kind": "spelling_bee", "letters": "ocanlpt", "center": "o", "seed": 1}, check=True)
    s = result.solutions[0]
    assert result.status.value == "optimal" and result.count == len(s.words) > 30
    assert {"cotton", "platoon", "pontoon"} <= set(s.words)
    assert all("o" in w and set(w) <= set("ocanlpt") and len(w) >= 4 for w in s.words)


hives = st.lists(st.sampled_from("abcdefghij"), min_size=7, max_size=7, unique=True).map("".join)
small_words = st.lists(st.text("abcdefghij", min_size=3, max_size=9), min_size=1, max_size=40, unique=True)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hive=hives, words=small_words)
def test_engines_agree_on_the_words_of_random_hives(hive: str, words: list[str]) -> None:
    spec = {"kind": "spelling_bee", "letters": hive, "center": hive[0], "dictionary": {"words": words}}
    native = cpwords.solve({**spec, "engine": "native"}, check=True)
    solver = cpwords.solve({**spec, "engine": "cpsat"}, check=True)
    assert native.status.value == solver.status.value == "optimal"
    assert native.solutions[0].words == solver.solutions[0].words
    assert native.objective == solver.objective


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=small_words, pangram=hives, goal=st.sampled_from(["words", "points"]))
def test_engines_agree_on_the_best_generated_hive(words: list[str], pangram: str, goal: str) -> None:
    spec = {"kind": "spelling_bee", "task": "generate", "dictionary": {"words": [*words, pangram, pangram[::-1]]},
            "maximize": goal, "puzzles": 1, "min_word_length": 3, "avoid": ""}
    native = cpwords.solve({**spec, "engine": "native"}, check=True)
    solver = cpwords.solve({**spec, "engine": "cpsat"}, check=True)
    assert native.status.value == solver.status.value == "optimal"
    assert native.objective == solver.objective > 0


def test_generate_meets_the_bounds_avoids_s_and_leaves_offensive_words_out() -> None:
    result = cpwords.solve({"kind": "spelling_bee", "task": "generate", "min_words": 20, "max_words": 40,
                            "min_points": 60, "puzzles": 4, "seed": 7}, check=True)
    assert result.status.value == "optimal" and len(result.solutions) == 4
    assert result.stats["hives_in_range"] >= 4
    bad = offensive_words()
    for s in result.solutions:
        assert 20 <= len(s.words) <= 40 and s.total >= 60 and s.pangrams and "s" not in s.letters
        assert not set(s.words) & bad
    again = cpwords.solve({"kind": "spelling_bee", "task": "generate", "min_words": 20, "max_words": 40,
                           "min_points": 60, "puzzles": 4, "seed": 7})
    assert [s.letters for s in again.solutions] == [s.letters for s in result.solutions]  # same seed, same hives


@pytest.mark.parametrize(("fields", "needle"), [
    ({"letters": "abcdef"}, "7 letters"),
    ({"letters": "abcdefa"}, "repeats"),
    ({"center": "z"}, "not one of the letters"),
    ({"letters": "abc1efg"}, "holds '1'"),
    ({"engine": "sat"}, "engine"),
])
def test_bad_input_is_one_line_with_exit_2(tmp_path: Any, fields: dict[str, Any], needle: str) -> None:
    import yaml

    path = tmp_path / "bee.yaml"
    path.write_text(yaml.safe_dump({"kind": "spelling_bee", "letters": "abcdefg", "center": "a", **fields}))
    run = subprocess.run([sys.executable, "-m", "cpwords", "solve", str(path)], capture_output=True, text=True)
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "bee.yaml" in lines[0] and "Traceback" not in run.stderr


def test_shortcut_with_json_and_svg(tmp_path: Any) -> None:
    picture = tmp_path / "hive.svg"
    run = subprocess.run([sys.executable, "-m", "cpwords", "spelling-bee", "abcdefg", "--center", "a", "--json",
                          "--dict", str(_word_file(tmp_path)), "--svg", str(picture)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["kind"] == "spelling_bee" and data["count"] == 5 and data["objective"] == 32
    text = picture.read_text()
    assert text.startswith("<svg") and "GABFCED".lower() in text and ">A<" in text


def _word_file(tmp_path: Any) -> Any:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    return path
