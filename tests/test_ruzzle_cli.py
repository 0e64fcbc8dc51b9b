"""The ``cpwords ruzzle`` shortcut and YAML examples end to end: exit codes, JSON, SVG."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpwords import verify
from cpwords.cli import main
from cpwords.puzzles.loading import load_specs
from cpwords.puzzles.ruzzle.solution import RuzzleSolution
from cpwords.results import Result

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SMALL = ["--dict", "common-10k"]


def test_shortcut_solves_and_prints(capsys):
    assert main(["ruzzle", "cats", "dogs", "quite", "emus", "--bonus", "TW:4,4", "--bonus", "dl:1,2", *SMALL]) == 0
    out = capsys.readouterr().out
    assert "Qu" in out and "optimal" in out and "cats" in out


def test_json_output_is_the_result_model(capsys):
    assert main(["ruzzle", "cats", "dogs", "quite", "emus", "--boggle", "--json", *SMALL]) == 0
    data = json.loads(capsys.readouterr().out)
    # Result.solutions holds the base Solution, which forbids the kind's own fields: check them apart.
    result = Result.model_validate({**data, "solutions": []})
    solutions = [RuzzleSolution.model_validate(s) for s in data["solutions"]]
    assert result.kind == "ruzzle" and result.status == "optimal" and result.count == len(solutions)
    words = {s.word for s in solutions}
    assert "cats" in words and all(len(w) >= 3 for w in words)
    assert result.objective == sum(s.score for s in solutions)
    assert all(s.words == [s.word] and len(s.path) >= 2 for s in solutions)


def test_count_paths_json(capsys):
    assert main(["ruzzle", "abc", "def", "ghi", "--task", "count_paths", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 10_296


def test_no_word_is_infeasible_exit_1(capsys):
    assert main(["ruzzle", "xq", "zx", *SMALL]) == 1
    assert "infeasible" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["ruzzle", "abc", "ab"],
    ["ruzzle", "abc", "ab1"],
    ["ruzzle", "abc", "abc", "--bonus", "DL:5,5"],
    ["ruzzle", "abc", "abc", "--bonus", "QQ:1,1"],
    ["ruzzle", "abc", "abc", "--dict", "no-such-dictionary"],
    ["ruzzle", "abc", "abc", "--bonuses", "nowhere"],
    ["ruzzle", "abc", "abc", "--min-length", "0"],
    ["ruzzle", "abc", "abc", "--boggle", "--scoring", "ruzzle"],
])
def test_bad_input_exits_2_with_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and err.startswith("cpwords: error:")


def test_svg_is_written_and_never_overwritten(tmp_path, capsys):
    target = tmp_path / "board.svg"
    argv = ["ruzzle", "cats", "dogs", "quite", "emus", "--bonuses", "ruzzle-4x4", "--svg", str(target), *SMALL]
    assert main(argv) == 0
    text = target.read_text()
    assert text.startswith("<svg") and "polyline" in text and "TW" in text
    assert main(argv) == 2  # exists: needs --force
    assert main([*argv, "--force"]) == 0


# the 3×3 Boggle best board climbs for seconds: under `sweep` (tests/test_examples.py solves and
# verifies every example; tests/test_ruzzle_climb.py runs this one as a user does)
@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.sweep) if p.name == "ruzzle-boggle-best-3x3.yaml"
                                  else p for p in sorted(EXAMPLES.glob("ruzzle*.yaml"))], ids=lambda p: p.name)
def test_examples_solve_and_verify(path, capsys):
    from cpwords import api

    for spec in load_specs(path):
        result = api.solve(spec)
        assert result.solved, result.message
        assert verify.check(spec, result) == []


def test_layout_file_is_read_next_to_the_puzzle(tmp_path, capsys):
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "mine.yaml").write_text("bonuses:\n  TW: [[1, 1]]\n  DL: [[2, 2]]\n")
    (tmp_path / "p.yaml").write_text(
        "kind: ruzzle\ngrid: [cat, ase, tsn]\nbonuses: layouts/mine.yaml\n"
        "dictionary: {words: [cat, cats, sat, east]}\n")
    [spec] = load_specs(tmp_path / "p.yaml")
    assert spec.bonus_cells() == {(1, 1): "TW", (2, 2): "DL"}
    assert main(["solve", str(tmp_path / "p.yaml"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    cats = next(s for s in data["solutions"] if s["word"] == "cats")
    assert cats["path"][0] == [1, 1] and cats["score"] % 3 == 0  # starts on the TW square
