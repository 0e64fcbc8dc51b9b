"""Letter Boxed: real puzzles with scowl-70, spec errors, generation, rendering and the CLI."""

from __future__ import annotations

import json

import pytest

from cpwords import api, verify
from cpwords.cli import main
from cpwords.errors import InputError
from cpwords.puzzles.letter_boxed.render import box_text
from cpwords.puzzles.loading import loads_spec, parse_spec
from cpwords.results import Result, Status

DAILY = ["lme", "iuf", "wcb", "oas"]


def _solve(**fields: object) -> tuple[object, Result]:
    spec = parse_spec({"kind": "letter_boxed", **fields})
    result = api.solve(spec, seed=1)
    assert verify.check(spec, result) == []
    return spec, result


@pytest.mark.parametrize("engine", ["native", "cpsat", "sat"])
def test_daily_puzzle_needs_two_words(engine: str) -> None:
    rank = "letters" if engine != "sat" else "common"  # keep the SAT test quick: few ties to enumerate
    _, result = _solve(sides=DAILY, engine=engine, rank=rank)
    assert result.status == Status.OPTIMAL
    assert result.objective == 2 and len(result.solutions[0].words) == 2
    if rank == "letters":
        assert result.solutions[0].words == ["blowflies", "sumac"]  # the only 14-letter pair
        assert result.solutions[0].letters == 14


def test_blowflies_sumac_is_among_the_two_word_answers() -> None:
    _, result = _solve(sides=DAILY, task="enumerate", max_words=2, limit=None)
    answers = [s.words for s in result.solutions]
    assert ["blowflies", "sumac"] in answers
    assert result.status == Status.OPTIMAL and result.count == len(answers) == 10
    assert answers == sorted(answers, key=lambda ws: (len(ws), sum(map(len, ws)), ws))


def test_counts_of_daily_puzzle_match_a_chain_enumeration() -> None:
    from cpwords.lexicon import load_lexicon
    from cpwords.puzzles.letter_boxed.words import Box, playable_words

    _, result = _solve(sides=DAILY, task="count", max_words=2)
    table = playable_words(Box.from_sides(DAILY), load_lexicon("scowl-70"))
    letters = set("".join(DAILY))
    one = sum(1 for w in table.words if set(w) == letters)
    two = sum(1 for a in table.words for b in table.words
              if a != b and a[-1] == b[0] and set(a) != letters and set(a + b) == letters)
    assert result.stats["count_by_words"] == {"1": one, "2": two}
    assert result.count == one + two == 10


def test_paf_uot_mie_xlr_counts_are_stable() -> None:
    # Our figures with scowl-70 (docs/letter_boxed.md); the published 84,964 four-word answers
    # came from another word list, so it is not asserted here.
    _, result = _solve(sides=["paf", "uot", "mie", "xlr"], task="count", max_words=3)
    assert result.stats["count_by_words"] == {"1": 0, "2": 55, "3": 27462}


def test_rank_common_prefers_common_words() -> None:
    _, by_letters = _solve(sides=DAILY, rank="letters")
    _, by_common = _solve(sides=DAILY, rank="common")
    assert by_common.solutions[0].rareness <= by_letters.solutions[0].rareness
    assert by_letters.solutions[0].letters <= by_common.solutions[0].letters


def test_infeasible_when_a_letter_has_no_word() -> None:
    _, result = _solve(sides=["ab", "cd", "ef"], dictionary={"words": ["ace", "eca"]})
    assert result.status == Status.INFEASIBLE and "b" in result.message
    _, result = _solve(sides=["ab", "cd", "ef"], dictionary={"words": ["ace", "bdf"]}, max_words=3)
    assert result.status == Status.INFEASIBLE and "max_words" in result.message


@pytest.mark.parametrize("sides, words", [
    (["abc", "de1", "fgh"], "letters a-z"),
    (["abc", "dea", "fgh"], "sides 1 and 2"),
    (["abc", "d", "fgh"], "at least 2"),
    (["abc", "def"], "at least 3 sides"),
    (["abb", "def", "ghi"], "twice on the same side"),
])
def test_bad_boxes_are_input_errors(sides: list[str], words: str) -> None:
    with pytest.raises(InputError, match=words):
        parse_spec({"kind": "letter_boxed", "sides": sides})


def test_empty_dictionary_and_missing_sides_are_input_errors() -> None:
    with pytest.raises(InputError, match="no words"):
        api.solve({"kind": "letter_boxed", "sides": DAILY, "dictionary": {"words": []}})
    with pytest.raises(InputError, match="sides"):
        loads_spec("kind: letter_boxed\ntask: count\n")


def test_generate_makes_verified_puzzles_at_par_deterministically() -> None:
    fields = dict(task="generate", par=2, puzzles=2, attempts=40, dictionary="common-20k")
    _, first = _solve(**fields)
    _, again = _solve(**fields)
    assert first.solved and first.solutions
    assert [s.sides for s in first.solutions] == [s.sides for s in again.solutions]
    counts = [s.answers_at_par for s in first.solutions]
    assert counts == sorted(counts)
    for s in first.solutions:
        assert len(s.words) == 2
        spec = parse_spec({"kind": "letter_boxed", "sides": s.sides, "dictionary": "common-20k",
                           "task": "count", "max_words": 2})
        check = api.solve(spec)
        assert check.stats["count_by_words"]["1"] == 0
        assert check.stats["count_by_words"]["2"] == s.answers_at_par


def test_box_text_draws_four_sides_clockwise() -> None:
    text = box_text(DAILY)
    lines = text.splitlines()
    assert lines[0].split() == ["L", "M", "E"]
    assert lines[-1].split() == ["B", "C", "W"]  # bottom side read right to left
    assert lines[2].split()[0] == "S" and lines[2].split()[-1] == "I"
    assert box_text(["abc", "def", "ghi"]).startswith("side 1: A B C")


# ------------------------------------------------------------------ command line


def test_cli_solves_and_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["letter-boxed", *DAILY]) == 0
    out = capsys.readouterr().out
    assert "BLOWFLIES → SUMAC" in out and "optimal" in out


def test_cli_json_matches_the_result_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["letter-boxed", "paf", "uot", "mie", "xlr", "--task", "count", "--max-words", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    result = Result.model_validate(data)
    assert result.count == 55 + 27462 and result.count_exact is True
    assert data["stats"]["count_by_words"]["2"] == 55


def test_cli_infeasible_exits_1(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("ace\neca\n")
    assert main(["letter-boxed", "ab", "cd", "ef", "--dict", str(words)]) == 1
    assert "infeasible" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["letter-boxed", "paf", "uot", "mie", "x"],
    ["letter-boxed", "paf", "uot", "mie", "xlp"],
    ["letter-boxed", "pa1", "uot", "mie", "xl"],
    ["letter-boxed", "paf", "uot", "mie", "xlr", "--dict", "nosuch-dict"],
    ["letter-boxed", "paf", "uot", "mie", "xlr", "--max-words", "0"],
])
def test_cli_bad_input_exits_2_with_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("cpwords: error:") and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_cli_svg_and_yaml_solve(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    puzzle = tmp_path / "box.yaml"
    puzzle.write_text("kind: letter_boxed\nsides: [lme, iuf, wcb, oas]\nrank: common\n")
    target = tmp_path / "box.svg"
    assert main(["solve", str(puzzle), "--svg", str(target)]) == 0
    svg = target.read_text()
    assert svg.startswith("<svg") and svg.count("<polyline") == 2 and ">L</text>" in svg
    capsys.readouterr()
    assert main(["solve", str(puzzle), "--svg", str(target)]) == 2  # never over an existing file
