"""Spelling Bee: the game's scoring and ranks, both engines agreeing, generation within bounds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cpwords
from cpwords import cli, verify
from cpwords.lexicon import Lexicon
from cpwords.lexicon.exclude import offensive_words
from cpwords.puzzles import get
from cpwords.puzzles.loading import parse_spec
from cpwords.puzzles.spelling_bee import check as checker
from cpwords.results import Result

ENGINES = ("native", "cpsat")

#: Inline words over the hive ABCDEFG (centre A), scored by hand below. Nonsense words are fine.
#: "bbbb" and "defg" lack the centre A, "aaa" is too short, "abeh" has an H.
WORDS = ["abed", "faced", "cabbage", "gabfced", "bbbb", "aaa", "abeh", "decaf", "defg", "cabbaged"]
#: abed: 4 letters, 1 point; faced, decaf: 5; cabbage: 7 letters but only a,b,c,e,g: 7;
#: gabfced: a pangram, 7 + 7; cabbaged: 8 letters, a,b,c,d,e,g (no f): 8.
EXPECTED = {"gabfced": 14, "cabbaged": 8, "cabbage": 7, "faced": 5, "decaf": 5, "abed": 1}


def _bee(**fields: Any) -> dict[str, Any]:
    return {"kind": "spelling_bee", "letters": "abcdefg", "center": "a", "dictionary": {"words": WORDS}, **fields}


def _solve(data: dict[str, Any], **options: Any) -> Result:
    """Solve and re-check every answer with cpwords.verify (which raises on a broken rule)."""
    result = cpwords.solve(data, **options)
    verify.verify(parse_spec(data), result)
    return result


# ---------------------------------------------------------------- known figures, by hand


@pytest.mark.parametrize("engine", ENGINES)
def test_words_scores_pangrams_and_ranks_by_hand(engine: str) -> None:
    result = _solve(_bee(engine=engine))
    assert result.status == "optimal" and result.engine == engine
    s = result.solutions[0]
    assert dict(zip(s.words, s.points, strict=True)) == EXPECTED
    assert s.words == ["gabfced", "cabbaged", "cabbage", "decaf", "faced", "abed"]  # pangrams first, then points
    assert s.pangrams == ["gabfced"] and s.letters == "abcdefg" and s.center == "a"
    assert s.total == result.objective == 40 and result.count == 6
    # 40 points: 2 % = 0.8 -> 1, 5 % = 2, 8 % = 3.2 -> 3, 15 % = 6, 25 % = 10, 40 % = 16, 50 % = 20,
    # 70 % = 28, 100 % = 40
    assert s.ranks == {"Beginner": 0, "Good Start": 1, "Moving Up": 2, "Good": 3, "Solid": 6, "Nice": 10,
                       "Great": 16, "Amazing": 20, "Genius": 28, "Queen Bee": 40}


def test_ranks_round_halves_up() -> None:
    from cpwords.puzzles.spelling_bee.solve import ranks

    # 50 points: 5 % = 2.5 -> 3, 15 % = 7.5 -> 8, 25 % = 12.5 -> 13
    assert ranks(50) == {"Beginner": 0, "Good Start": 1, "Moving Up": 3, "Good": 4, "Solid": 8, "Nice": 13,
                         "Great": 20, "Amazing": 25, "Genius": 35, "Queen Bee": 50}
    assert set(ranks(0).values()) == {0}


@pytest.mark.parametrize("engine", ENGINES)
def test_the_centre_decides_the_words(engine: str) -> None:
    # Centre F: only the words with an F: gabfced 14, faced 5, decaf 5, and defg (no A needed) 1.
    s = _solve(_bee(engine=engine, center="f")).solutions[0]
    assert s.letters == "fabcdeg" and sorted(s.words) == ["decaf", "defg", "faced", "gabfced"] and s.total == 25


def test_shorter_words_count_when_asked_and_score_one_point() -> None:
    s = _solve(_bee(min_word_length=3, dictionary={"words": ["bad", "dab", "abed", "faced"]})).solutions[0]
    assert dict(zip(s.words, s.points, strict=True)) == {"faced": 5, "abed": 1, "bad": 1, "dab": 1}


@pytest.mark.parametrize("engine", ENGINES)
def test_no_word_is_infeasible(engine: str) -> None:
    result = cpwords.solve(_bee(engine=engine, dictionary={"words": ["bbbb", "hello"]}))
    assert result.status == "infeasible" and result.count == 0 and "no word" in (result.message or "")


#: Two pangram letter sets. Hive ABCDEFG: gabfced (pangram, 14), bead (1), faded (a d e f: 5);
#: hive HIJKLMN: hijklmn (pangram, 14), hilk (1).
GEN_WORDS = ["gabfced", "bead", "faded", "hijklmn", "hilk"]


def _generate(**fields: Any) -> dict[str, Any]:
    return {"kind": "spelling_bee", "task": "generate", "dictionary": {"words": GEN_WORDS}, "avoid": "",
            "puzzles": 20, **fields}


def _hives(result: Result) -> set[tuple[str, str, int, int]]:
    return {("".join(sorted(s.letters)), s.center, len(s.words), s.total) for s in result.solutions}


@pytest.mark.parametrize("engine", ENGINES)
def test_generate_finds_exactly_the_hives_in_range_by_hand(engine: str) -> None:
    # Centres a, d, e of ABCDEFG allow all three words (20 points); no other hive has 3 words.
    result = _solve(_generate(engine=engine, min_words=3, seed=1))
    assert _hives(result) == {("abcdefg", c, 3, 20) for c in "ade"}
    assert result.status == "optimal" and "3" in (result.message or "")  # fewer hives than asked for
    # 15 points: centre b of ABCDEFG (gabfced + bead), centres h, i, k, l of HIJKLMN (hijklmn + hilk)
    result = _solve(_generate(engine=engine, min_points=15, max_points=15, seed=1))
    assert _hives(result) == {("abcdefg", "b", 2, 15)} | {("hijklmn", c, 2, 15) for c in "hikl"}
    if engine == "native":
        assert result.stats["hives_in_range"] == 5


@pytest.mark.parametrize(("engine", "goal", "best"), [(e, g, b) for e in ENGINES for g, b in (("words", 3),
                                                                                                ("points", 20))])
def test_generate_maximizes(engine: str, goal: str, best: int) -> None:
    result = _solve(_generate(engine=engine, maximize=goal, puzzles=2, seed=1))
    assert result.status == "optimal" and result.objective == best
    first = result.solutions[0]
    assert (len(first.words) if goal == "words" else first.total) == best


@pytest.mark.parametrize("engine", ENGINES)
def test_generate_needs_a_pangram_and_avoids_letters(engine: str) -> None:
    # Avoiding H leaves ABCDEFG only; avoiding A and H leaves nothing.
    assert {h[0] for h in _hives(_solve(_generate(engine=engine, avoid="h", seed=1)))} == {"abcdefg"}
    result = cpwords.solve(_generate(engine=engine, avoid="ah", seed=1))
    assert result.status == "infeasible" and not result.solutions
    no_pangram = cpwords.solve(_generate(engine=engine, dictionary={"words": ["bead", "faded", "hilk"]}, seed=1))
    assert no_pangram.status == "infeasible"


# ---------------------------------------------------------------- the engines agree

letters = "abcdefghi"
hives = st.lists(st.sampled_from(letters), min_size=7, max_size=7, unique=True).map("".join)
#: Words over nine letters: most of them fit some hive, many use the centre.
small_words = st.lists(st.text(letters, min_size=3, max_size=7), min_size=5, max_size=40, unique=True)


@st.composite
def hive_and_words(draw: st.DrawFn) -> tuple[str, str, list[str]]:
    """A hive, its centre and words mostly over its letters (plus ``x``, which it lacks)."""
    hive = draw(hives)
    words = draw(st.lists(st.text(hive + "x", min_size=3, max_size=8), min_size=5, max_size=40, unique=True))
    return hive, draw(st.sampled_from(hive)), words


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=hive_and_words())
def test_engines_agree_on_the_words_of_random_hives(case: tuple[str, str, list[str]]) -> None:
    hive, centre, words = case
    spec = {"kind": "spelling_bee", "letters": hive, "center": centre, "dictionary": {"words": words}}
    native = _solve({**spec, "engine": "native"})
    solver = _solve({**spec, "engine": "cpsat"})
    assert native.status == solver.status
    assert native.solutions == solver.solutions and native.objective == solver.objective


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=small_words, pangrams=st.lists(hives, min_size=1, max_size=3), low=st.integers(0, 8),
       span=st.integers(0, 40), on=st.sampled_from(["words", "points"]))
def test_engines_agree_on_every_hive_in_range(words: list[str], pangrams: list[str], low: int, span: int,
                                              on: str) -> None:
    spec = {"kind": "spelling_bee", "task": "generate", "dictionary": {"words": [*words, *pangrams]},
            f"min_{on}": low, f"max_{on}": low + span, "puzzles": 100, "min_word_length": 3, "avoid": "", "seed": 1}
    native = _solve({**spec, "engine": "native"})
    solver = _solve({**spec, "engine": "cpsat"})
    assert native.status == solver.status and native.status in ("optimal", "infeasible")
    assert _hives(native) == _hives(solver) and len(native.solutions) == native.stats["hives_in_range"]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=small_words, pangram=hives, goal=st.sampled_from(["words", "points"]))
def test_engines_agree_on_the_best_generated_hive(words: list[str], pangram: str, goal: str) -> None:
    spec = {"kind": "spelling_bee", "task": "generate", "dictionary": {"words": [*words, pangram, pangram[::-1]]},
            "maximize": goal, "puzzles": 1, "min_word_length": 3, "avoid": ""}
    native = _solve({**spec, "engine": "native"})
    solver = _solve({**spec, "engine": "cpsat"})
    assert native.status == solver.status == "optimal"
    assert native.objective == solver.objective > 0


# ---------------------------------------------------------------- the checker


def test_the_checker_catches_broken_rules() -> None:
    spec = parse_spec(_bee())
    s = _solve(_bee()).solutions[0]
    kind = get("spelling_bee")
    assert kind.check(spec, s) == []
    broken = {
        "scores 14": {"points": [1, *s.points[1:]], "total": s.total - 13},
        "missing": {"words": s.words[:-1], "points": s.points[:-1], "total": s.total - s.points[-1]},
        "is a pangram": {"pangrams": []},
        "total says": {"total": s.total + 1},
        "ranks": {"ranks": {**s.ranks, "Genius": 1}},
        "not in the dictionary": {"words": [*s.words[:-1], "gabbed"]},
        "not the puzzle's": {"letters": "abcdefh"},
    }
    for needle, change in broken.items():
        problems = kind.check(spec, s.model_copy(update=change))
        assert any(needle in p for p in problems), (needle, problems)
    gen = parse_spec(_generate(min_words=3))
    hive = _solve(_generate(min_words=3, puzzles=1, seed=1)).solutions[0]
    assert kind.check(gen, hive) == []
    assert any("avoided" in p for p in kind.check(parse_spec(_generate(avoid=hive.center)), hive))
    assert any("outside max_words" in p for p in kind.check(parse_spec(_generate(max_words=2)), hive))


def test_the_checker_finds_the_same_words_by_scan_and_by_index() -> None:
    lexicon = Lexicon.from_words(["noon", "loon", "nylon", "lolly", "onion", "on", "lino", "loin", "oil"])
    by_scan = checker.allowed_words(lexicon, "olnabci", "o", 3)
    checker._index(lexicon, 3)
    assert checker.allowed_words(lexicon, "olnabci", "o", 3) == by_scan == {"noon", "loon", "onion", "lino",
                                                                             "loin", "oil"}


def test_a_real_hive_with_a_builtin_dictionary() -> None:
    result = _solve({"kind": "spelling_bee", "letters": "cejoprt", "center": "c", "seed": 1})
    s = result.solutions[0]
    assert result.status == "optimal" and result.count == len(s.words) > 30
    assert s.pangrams == ["projector", "project"] and {"protect", "correct", "coop"} <= set(s.words)


def test_generate_meets_the_bounds_avoids_s_and_leaves_offensive_words_out() -> None:
    data = {"kind": "spelling_bee", "task": "generate", "min_words": 20, "max_words": 40, "min_points": 60,
            "puzzles": 4, "seed": 7}
    result = _solve(data)
    assert result.status == "optimal" and len(result.solutions) == 4 and result.stats["hives_in_range"] >= 4
    bad = offensive_words()
    for s in result.solutions:
        assert 20 <= len(s.words) <= 40 and s.total >= 60 and s.pangrams and "s" not in s.letters
        assert not set(s.words) & bad
    again = cpwords.solve(data, check=False)
    assert [s.letters for s in again.solutions] == [s.letters for s in result.solutions]  # same seed, same hives


# ---------------------------------------------------------------- input, CLI, JSON, pictures


@pytest.mark.parametrize(("fields", "needle"), [
    ({"letters": "abcdef"}, "field 'letters', value 'abcdef': a hive has 7 letters"),
    ({"letters": "abcdefa"}, "repeats 'a'"),
    ({"center": "z"}, "field 'center', value 'z': the centre must be one of the letters"),
    ({"letters": "abc1efg"}, "holds '1'"),
    ({"engine": "sat"}, "field 'engine'"),
    ({"task": "generate", "min_words": 9, "max_words": 3}, "field 'max_words', value 3"),
    ({"task": "generate", "avoid": "abcdefghijklmnopqrstu"}, "field 'avoid'"),
])
def test_bad_input_is_one_line_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           fields: dict[str, Any], needle: str) -> None:
    import yaml

    path = tmp_path / "bee.yaml"
    path.write_text(yaml.safe_dump({"kind": "spelling_bee", "letters": "abcdefg", "center": "a", **fields}))
    assert cli.main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and "bee.yaml:" in err, err


def test_the_command_exits_2_in_one_line_without_a_traceback() -> None:
    run = subprocess.run([sys.executable, "-m", "cpwords", "spelling-bee", "abcdefg", "--center", "q"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1 and "--center" in run.stderr and "'q'" in run.stderr


def test_shortcut_with_json_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words, picture = tmp_path / "words.txt", tmp_path / "hive.svg"
    words.write_text("\n".join(WORDS) + "\n")
    assert cli.main(["spelling-bee", "ABCDEFG", "--center", "A", "--json", "--dict", str(words),
                     "--svg", str(picture)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "spelling_bee" and data["count"] == 6 and data["objective"] == 40
    hive = data["solutions"][0]
    assert hive["letters"] == "abcdefg" and hive["pangrams"] == ["gabfced"] and hive["ranks"]["Queen Bee"] == 40
    assert dict(zip(hive["words"], hive["points"], strict=True)) == EXPECTED
    text = picture.read_text()
    assert text.startswith("<svg") and text.count("<polygon") == 7 and "#f7da21" in text  # the yellow centre
    assert '<text x="310" y="50" font-size="14" font-weight="bold">gabfced' in text  # the pangram, in bold


def test_shortcut_generates_and_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(GEN_WORDS) + "\n")
    assert cli.main(["spelling-bee", "--task", "generate", "--min-words", "3", "--puzzles", "2", "--avoid", "",
                     "--seed", "3", "--engine", "cpsat", "--dict", str(words)]) == 0
    out = capsys.readouterr().out
    assert out.count("hive ") == 2 and out.count("3 words, 20 points, pangrams: gabfced") == 2
