"""The ladder command line: exit codes, text and JSON output, bad input in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT
from pace import HANG_S

from cpwords.cli import main
from cpwords.puzzles.ladder.solution import LadderSolution
from cpwords.results import Result

WORDS = ["cold", "cord", "card", "ward", "warm", "word", "worm", "corm", "wold", "zzzz", "cool", "pool"]


def parse_result(payload: dict) -> Result:
    """The JSON output as the Result model (the base Solution forbids extra fields, so the ladder
    solutions are validated as LadderSolution)."""
    result = Result.model_validate({**payload, "solutions": []})
    result.solutions = [LadderSolution.model_validate(s) for s in payload["solutions"]]
    return result


@pytest.fixture
def word_file(tmp_path: Path) -> str:
    path = tmp_path / "words.txt"
    path.write_text("# a tiny dictionary\n" + "\n".join(WORDS) + "\n")
    return str(path)


def test_ladder_text(word_file, capsys):
    assert main(["ladder", "cold", "warm", "--dict", word_file, "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "shortest ladder: 4 steps" in out and "common ladder" in out
    assert "least-rare ladder" in out


def test_ladder_json_matches_result_model(word_file, capsys):
    assert main(["ladder", "cold", "warm", "--dict", word_file, "--json", "--mode", "shortest", "--all"]) == 0
    payload = json.loads(capsys.readouterr().out)
    result = parse_result(payload)
    assert result.kind == "ladder" and result.count == 6 and result.count_exact
    assert all(s["mode"] == "shortest" and s["steps"] == 4 for s in payload["solutions"])
    assert payload["solutions"][0]["words"][0] == "cold"


def test_ladder_define(word_file, capsys):
    assert main(["ladder", "cold", "cord", "--dict", word_file, "--define", "--mode", "shortest"]) == 0
    assert "definition" in capsys.readouterr().out


def test_different_groups_exit_1(word_file, capsys):
    assert main(["ladder", "cold", "zzzz", "--dict", word_file]) == 1
    out = capsys.readouterr().out
    assert "no ladder: COLD is in group" in out and "ZZZZ in group" in out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["ladder", "colt", "warm"], "nearest dictionary words: cold"),
        (["ladder", "cold", "warmer"], "same length"),
        (["ladder", "cold", "wa1m"], "letters a-z"),
        (["ladder", "cold", "warm", "--mode", "longest"], "invalid choice"),
        (["ladder", "cold", "warm", "--limit", "0"], "limit"),
    ],
)
def test_bad_input_exit_2_one_line(word_file, capsys, args, needle):
    try:
        code = main([*args, "--dict", word_file])
    except SystemExit as stop:  # argparse reports usage mistakes by exiting
        code = stop.code
    assert code == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0]
    assert "Traceback" not in captured.err


def test_missing_dictionary_file_exit_2(tmp_path, capsys):
    assert main(["ladder", "cold", "warm", "--dict", str(tmp_path / "nope.txt")]) == 2
    assert "no such word-list file" in capsys.readouterr().err


def test_example_cold_warm_subprocess():
    """The README demo, from a fresh process, default dictionary (scowl-70)."""
    proc = subprocess.run(
        [sys.executable, "-m", "cpwords", "solve", str(EXAMPLES / "ladder-cold-warm.yaml"), "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=HANG_S,
    )
    assert proc.returncode == 0, proc.stderr
    result = parse_result(json.loads(proc.stdout))
    shortest, common = result.solutions
    assert shortest.words[0] == "cold" and shortest.words[-1] == "warm"
    assert shortest.steps == 4 and common.rareness <= shortest.rareness


def test_dict_groups(word_file, capsys):
    assert main(["ladder", "--groups", "4", "--dict", word_file]) == 0
    out = capsys.readouterr().out
    assert "12 words, 13 links, 3 groups" in out  # {cold ... corm}, {cool, pool}, {zzzz}
    assert "Largest 3 groups" in out


def test_dict_groups_bad_length(word_file, capsys):
    assert main(["ladder", "--groups", "9", "--dict", word_file]) == 2
    assert "no word of 9 letters" in capsys.readouterr().err


def test_dict_info_shows_links_and_group(word_file, capsys):
    main(["dict", "info", "cold", "--dict", word_file])
    out = capsys.readouterr().out
    assert "ladder group" in out and "2: cord, wold" in out
