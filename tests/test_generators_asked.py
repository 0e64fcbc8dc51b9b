"""Every generator says when it gives fewer puzzles than asked for, and why (issue 34, E2).

``Result.from_search`` writes the one message: "N of the M <things> asked for: <why>", whatever
the kind, the engine and the status (``optimal`` when the search was complete and there are no
more, ``feasible`` when the generator gave up drawing). The ladder's own figures are in
``test_ladder_generate.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cpwords
from cpwords.cli import main

BEE_WORDS = ["cabbage", "abcdefg", "gadfbec", "bead", "face", "faced", "decaf"]
GRID_WORDS = ["at", "to", "ta", "oo", "ot", "ao", "aa", "tt"]


def cases(tmp: Path) -> list[tuple[str, dict[str, Any], str]]:
    """(name, spec, the noun) of generators asked for more than they can give."""
    shape = tmp / "two.yaml"
    shape.write_text('rows: ["..", ".."]\n', encoding="utf-8")
    grid = {"kind": "word_grid", "shape": str(shape), "count": 50, "seed": 1, "dictionary": {"words": GRID_WORDS[:5]}}
    fill = {**grid, "task": "fill", "given": ["a?", "??"], "dictionary": {"words": GRID_WORDS}}
    bee = {"kind": "spelling_bee", "task": "generate", "puzzles": 50, "seed": 1, "dictionary": {"words": BEE_WORDS}}
    board = {"kind": "prefix_suffix_board", "task": "generate", "count": 3, "unique": True, "seed": 2,
             "dictionary": "common-5k"}
    return [
        *((f"grid-{e}", {**grid, "task": "generate", "engine": e}, "grids") for e in ("native", "cpsat", "sat")),
        *((f"fill-{e}", {**fill, "engine": e}, "grids") for e in ("native", "cpsat", "sat")),
        *((f"bee-{e}", {**bee, "engine": e}, "hives") for e in ("native", "cpsat")),
        ("letter-boxed", {"kind": "letter_boxed", "task": "generate", "puzzles": 50, "attempts": 20, "seed": 1,
                          "dictionary": "common-5k"}, "puzzles"),
        *((f"fair-board-{e}", {**board, "engine": e}, "boards") for e in ("native", "cpsat", "sat")),
        ("board-3-completions", {**board, "unique": False, "max_completions": 3, "count": 10}, "boards"),
    ]


def test_every_generator_says_how_many_of_those_asked_for(tmp_path: Path) -> None:
    said = {}
    for name, spec, noun in cases(tmp_path):
        result = cpwords.solve(spec)
        asked = spec.get("count", spec.get("puzzles"))
        n = len(result.solutions)
        # solved: every answer passed the kind's checker (cpwords.solve checks them)
        assert result.status.solved and 0 < n < asked, (name, result.status, n)
        assert result.message and result.message.startswith(f"{n} of the {asked} {noun} asked for: "), (name, result.message)
        said[name] = result.message
    # a complete search says there are no more; a generator that gave up drawing says it was so
    assert said["fair-board-native"].endswith("no other board has at most 1 completion")
    assert said["bee-native"].endswith("no other hive with a pangram meets the bounds")
    assert "raise attempts" in said["letter-boxed"]


@pytest.mark.parametrize(("argv", "line"), [
    (["board", "--generate", "3", "--unique", "--dict", "common-5k"],
     "1 of the 3 boards asked for: every suffix placement was looked at: no other board has at most 1 completion"),
    (["board", "--generate", "10", "--max-completions", "3", "--dict", "common-5k"],
     "3 of the 10 boards asked for: every suffix placement was looked at: no other board has at most 3 completions"),
])
def test_fair_boards_fewer_than_asked_say_so(argv: list[str], line: str, capsys: pytest.CaptureFixture[str]) -> None:
    """E2: the fair-board generator gave 1 board of 3 (and 3 of 10) with status optimal and no
    message."""
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert line in out.splitlines(), out[-500:]

