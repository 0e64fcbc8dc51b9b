"""Word grid's test cases: what the shared sweeps of ``tests/`` run for this kind.

The names and what each sweep does with them are described in ``cpwords/puzzles/_template/cases.py``;
the sweeps read them through the registry (``KIND.test_cases()``). Only the tests import this module.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

#: The fields a spec of this kind cannot do without (``scrambled`` for ``unscramble``).
REQUIRED: dict[str, Any] = {"scrambled": ["abcde"] * 5}


def scrambled_7x7(solve: Callable[..., Any]) -> dict[str, Any]:
    """Unscrambling a real 7×7 Gridle grid whose movable letters are shuffled (by seed): a hard
    instance. ``solve`` is ``cpwords.solve``, handed in by the sweep (the cases sit on the kinds'
    floor, below the API)."""
    grid = solve({"kind": "word_grid", "shape": "gridle-7x7", "seed": 5}).solutions[0].rows
    fixed = {(1, 3), (1, 5), (3, 1), (3, 3), (3, 5), (3, 7), (5, 1), (5, 3), (5, 5), (5, 7), (7, 3), (7, 5)}
    cells = [(r, c) for r in range(7) for c in range(7) if grid[r][c] != "#" and (r + 1, c + 1) not in fixed]
    letters = [grid[r][c] for r, c in cells]
    random.Random(3).shuffle(letters)
    rows = [list(row) for row in grid]
    for (r, c), ch in zip(cells, letters, strict=True):
        rows[r][c] = ch
    return {"kind": "word_grid", "shape": "gridle-7x7", "task": "unscramble", "scrambled": ["".join(row) for row in rows]}


_GRID7 = {"kind": "word_grid", "shape": "gridle-7x7", "seed": 1}

#: (engine, task) -> a hard instance, or a function of ``cpwords.solve`` making one (tests/test_time_limits.py).
HARD: dict[tuple[str, str], Any] = {}
for _engine in ("native", "cpsat", "sat"):
    HARD[_engine, "generate"] = {**_GRID7, "engine": _engine, "count": 10_000}
    HARD[_engine, "fill"] = {**_GRID7, "engine": _engine, "task": "fill", "count": 10_000,
                             "given": ["s??????", "?#?#?#?", "???????", "?#?#?#?", "???????", "?#?#?#?", "??????s"]}
    HARD[_engine, "count"] = {**_GRID7, "engine": _engine, "task": "count"}
    HARD[_engine, "enumerate"] = {**_GRID7, "engine": _engine, "task": "enumerate", "limit": None}
for _engine in ("cpsat", "sat"):
    HARD[_engine, "puzzle"] = {**_GRID7, "engine": _engine, "task": "puzzle", "count": 100}
HARD["cpsat", "unscramble"] = scrambled_7x7

#: The case of HARD also run from an empty cache.
COLD_START = ("cpsat", "fill")

#: The shortcut's command line for a new list of 600,000 words.
BIG_LIST = ["grid", "--shape", "gridle-5x5"]

#: Searches far longer than a test, by name (tests/test_signals.py).
LONG_RUNS: dict[str, list[str]] = {
    "cpsat-grid": ["grid", "--shape", "gridle-7x7", "--engine", "cpsat", "--generate", "50", "--dict", "scowl-95"],
    "sat-grid": ["grid", "--shape", "gridle-7x7", "--engine", "sat", "--generate", "50", "--dict", "scowl-95"],
    "native-grid": ["grid", "--shape", "gridle-7x7", "--engine", "native", "--count", "--dict", "scowl-95"],
}
QUICK_ENGINES: tuple[str, ...] = ()

#: A boolean in a numeric field.
BOOLEAN_IN_NUMBER = "kind: word_grid\nshape: gridle-5x5\ntask: generate\ncount: true\n"

#: The kind's example: in examples/ (see the template's cases.py).
EXAMPLE: str | None = None

#: A small generating spec for the offensive-word sweep.
GENERATE: dict[str, Any] | None = {"kind": "word_grid", "task": "generate", "count": 4, "engine": "native",
                                   "dictionary": "scowl-50"}

#: A quick command line of the kind's shortcut command, to which tests/test_hostile_flags.py adds
#: one hostile flag at a time.
QUICK_COMMAND: list[str] = ["grid", "--shape", "ring-3x3", "--dict", "common-2k"]
