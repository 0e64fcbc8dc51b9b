"""Boggle letter dice: the shipped sets, rolling a board by seed, checking that a board is a roll,
and the ``dice`` field / ``--dice`` option as a user runs them."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from pace import HANG_S

from cpwords import api, verify
from cpwords.api import with_options
from cpwords.cli import main
from cpwords.puzzles.loading import parse_spec
from cpwords.puzzles.ruzzle.dice import load_dice, roll, rollable, shipped_dice


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``cpwords ARGS`` in a fresh interpreter, as a user runs it."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "cpwords", *args], capture_output=True, text=True,
                          encoding="utf-8", timeout=HANG_S, cwd=cwd, env=env)


def main_of(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    """``cpwords ARGS`` through ``cpwords.cli.main`` in this process: its exit code and printed text."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(list(args), code, out, err)


@pytest.mark.parametrize(("name", "shape"), [("boggle-new", (4, 4)), ("boggle-classic", (4, 4)),
                                             ("big-boggle", (5, 5))])
def test_shipped_dice_sets(name: str, shape: tuple[int, int]) -> None:
    assert name in shipped_dice()
    dice = load_dice(name)
    assert (dice.rows, dice.cols) == shape and len(dice.dice) == shape[0] * shape[1]
    assert all(len(die) == 6 for die in dice.dice) and dice.language == "english"
    faces = Counter(face for die in dice.dice for face in die)
    # Boggle's dice: one Qu face and no bare Q; E is the most frequent letter on every set
    assert faces["qu"] == 1 and faces["q"] == 0 and faces.most_common(1)[0][0] == "e"


# The sets as the sources list them (docs/ruzzle.md), one die a word, Q for the Qu face, in the
# sources' own order: the shipped files must hold the same dice.
LISTED = {
    "boggle-new": "AAEEGN ELRTTY AOOTTW ABBJOO EHRTVW CIMOTU DISTTY EIOSST DELRVY ACHOPS HIMNQU EEINSU EEGHNW "
                  "AFFKPS HLNNRZ DELIRX",
    "boggle-classic": "AACIOT AHMORS EGKLUY ABILTY ACDEMP EGINTV GILRUW ELPSTU DENOSW ACELRS ABJMOQ EEFHIY EHINPS "
                      "DKNOTU ADENVZ BIFORX",
    "big-boggle": "AAAFRS AAEEEE AAFIRS ADENNN AEEEEM AEEGMU AEGMNN AFIRSY BJKQXZ CCENST CEIILT CEILPT CEIPST "
                  "DDHNOT DHHLOR DHLNOR DHLNOR EIIITT EMOTTT ENSSSU FIPRSY GORRVW IPRRRY NOOTUW OOOTTU",
}


@pytest.mark.parametrize("name", list(LISTED))
def test_shipped_dice_are_the_listed_ones(name: str) -> None:
    # one face a letter in the listings, Q standing for the Qu face (HIMNQU: H I M N Qu U)
    listed = Counter(tuple(sorted("qu" if ch == "q" else ch for ch in die.lower())) for die in LISTED[name].split())
    shipped = Counter(tuple(sorted(die)) for die in load_dice(name).dice)
    assert shipped == listed


def test_rolls_are_rolls_of_the_dice_and_follow_the_seed() -> None:
    dice = load_dice("boggle-new")
    boards = [roll(dice, seed) for seed in range(300)]
    assert roll(dice, 5) == boards[5] and len({str(b) for b in boards}) == 300
    assert all(rollable(dice, b) for b in boards)
    # Each die is in the board once: the one die with Z shows it on one board in six, on average.
    z = sum(t == "z" for b in boards for row in b for t in row)
    assert 25 <= z <= 80


def _brute_rollable(dice: tuple[tuple[str, ...], ...], flat: list[str]) -> bool:
    return any(all(tile in die for tile, die in zip(flat, order, strict=True))
               for order in itertools.permutations(dice))


def test_rollable_equals_brute_force(tmp_path: Path) -> None:
    (tmp_path / "tiny.yaml").write_text("rows: 2\ncols: 2\ndice:\n  - a b c\n  - a a d\n  - b d qu\n  - c c c\n")
    dice = load_dice(str(tmp_path / "tiny.yaml"))
    tiles = sorted({f for die in dice.dice for f in die} | {"e"})
    for flat in itertools.product(tiles, repeat=4):
        board = [list(flat[:2]), list(flat[2:])]
        assert rollable(dice, board) == _brute_rollable(dice.dice, list(flat)), flat
    assert not rollable(dice, [["a", "b", "c"], ["a", "a", "d"]])  # wrong shape


def test_dice_field_rolls_the_grid_once() -> None:
    spec = parse_spec({"kind": "ruzzle", "dice": "boggle-new", "seed": 11, "scoring": "boggle"})
    assert spec.grid == roll(load_dice("boggle-new"), 11)
    # options that re-validate the spec keep the board, as does a given grid that is a roll
    assert with_options(spec, engine="active").grid == spec.grid
    assert parse_spec({"kind": "ruzzle", "dice": "boggle-new", "grid": spec.grid}).grid == spec.grid
    result = api.solve(spec)
    verify.verify(spec, result)
    assert result.solutions
    drawn = parse_spec({"kind": "ruzzle", "dice": "big-boggle"})
    assert drawn.seed is not None and drawn.grid == roll(load_dice("big-boggle"), drawn.seed)


def test_cli_rolls_a_boggle_board() -> None:
    """As a user runs it (the dice errors and one's own dice below go through ``cpwords.cli.main``)."""
    done = run_cli("ruzzle", "--dice", "boggle-new", "--seed", "4", "--boggle", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    rolled = roll(load_dice("boggle-new"), 4)
    spec = parse_spec({"kind": "ruzzle", "grid": rolled, "scoring": "boggle"})
    assert out["objective"] == api.solve(spec).objective


@pytest.mark.parametrize(("args", "message"), [
    (("ruzzle", "--dice", "boggle-new", "abcd"), "give the board's rows or --dice to roll one, not both"),
    (("ruzzle",), "give the board's rows (one argument a row), or --dice to roll a board"),
    (("ruzzle", "--dice", "nope"), "unknown dice set; shipped: big-boggle, boggle-classic, boggle-new"),
    (("ruzzle", "--dice", "boggle-new", "--dict", "italian"), "these are english dice and the dictionary is italian"),
])
def test_cli_dice_errors_are_one_line(args: tuple[str, ...], message: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    done = main_of(capsys, *args)
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_own_dice_file_for_another_language(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Dice of one's own (here Italian ones, accents folded as the game's tiles) from a YAML puzzle."""
    faces = ["a e i o u à", "c a s a m e", "r e s o l v", "i n o t a s"] * 4
    (tmp_path / "dadi.yaml").write_text("language: it\nrows: 4\ncols: 4\ndice:\n"
                                        + "".join(f"  - {f}\n" for f in faces), encoding="utf-8")
    (tmp_path / "round.yaml").write_text("kind: ruzzle\ndice: dadi.yaml\nseed: 2\ndictionary: italian\n",
                                         encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    done = main_of(capsys, "solve", "round.yaml", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["solutions"]
    (tmp_path / "bad.yaml").write_text("rows: 2\ncols: 2\ndice:\n  - a b\n  - c 7\n  - a\n  - b\n")
    (tmp_path / "round2.yaml").write_text("kind: ruzzle\ndice: bad.yaml\n")
    done = main_of(capsys, "solve", "round2.yaml")
    assert done.returncode == 2 and "bad.yaml" in done.stderr and "dice[1]" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
