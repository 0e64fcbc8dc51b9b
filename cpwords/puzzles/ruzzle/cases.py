"""Ruzzle's test cases: what the shared sweeps of ``tests/`` run for this kind.

The names and what each sweep does with them are described in ``cpwords/puzzles/_template/cases.py``;
the sweeps read them through the registry (``KIND.test_cases()``). Only the tests import this module.
"""

from __future__ import annotations

import random
from typing import Any

#: The fields a spec of this kind cannot do without.
REQUIRED: dict[str, Any] = {"grid": ["cats", "dogs"]}

_RUZZLE = {"kind": "ruzzle", "grid": ["serst", "alpet", "inrat", "edsol", "mocer"], "dictionary": "scowl-80"}

#: (engine, task) -> a hard instance (tests/test_time_limits.py).
HARD: dict[tuple[str, str], Any] = {
    **{(engine, "words"): {**_RUZZLE, "engine": engine} for engine in ("trie", "active")},
    ("enumerate", "words"): {**_RUZZLE, "grid": ["sers", "alpe", "inra", "edso"], "engine": "enumerate"},
    ("enumerate", "count_paths"): {**_RUZZLE, "task": "count_paths", "grid": ["abcd"] * 4},
    ("trie", "best_board"): {**_RUZZLE, "task": "best_board", "iterations": 10_000_000, "seed": 1},
}

#: The case of HARD also run from an empty cache.
COLD_START = ("trie", "best_board")

#: The shortcut's command line for a new list of 600,000 words.
BIG_LIST = ["ruzzle", "serst", "alpet", "inrat", "edsol", "mocer"]

#: A 20x20 board (random letters, seeded): the ``active`` engine looks for every allowed word.
BIG_RUZZLE = ["".join(random.Random(row).choice("EEEEAAAIIOOUTTTNNSSRRLLDDHCMPBGFYWKV") for _ in range(20))
              for row in range(20)]

#: Searches far longer than a test, by name (tests/test_signals.py).
LONG_RUNS: dict[str, list[str]] = {
    "trie-ruzzle": ["ruzzle", "RATES", "ONIEL", "ENDTR", "APSEA", "LINTS", "--task", "best_board",
                    "--iterations", "10000000", "--engine", "trie"],
    "active-ruzzle": ["ruzzle", *BIG_RUZZLE, "--engine", "active", "--dict", "scowl-95"],
    "enumerate-ruzzle": ["ruzzle", "ABCD", "EFGH", "IJKL", "MNOP", "QRST", "--task", "count_paths",
                         "--engine", "enumerate"],
}
QUICK_ENGINES: tuple[str, ...] = ()

#: A boolean in a numeric field.
BOOLEAN_IN_NUMBER = "kind: ruzzle\ngrid: [cats, dogs]\nworkers: true\n"

#: The kind's example: in examples/ (see the template's cases.py).
EXAMPLE: str | None = None

#: A small generating spec (``best_board`` chooses the words) for the offensive-word sweep.
GENERATE: dict[str, Any] | None = {"kind": "ruzzle", "task": "best_board", "grid": ["RATE", "SONI", "LEND", "TRAP"],
                                   "iterations": 60, "dictionary": "scowl-70"}

#: A quick command line of the kind's shortcut command, to which tests/test_hostile_flags.py adds
#: one hostile flag at a time.
QUICK_COMMAND: list[str] = ["ruzzle", "cats", "dogs"]
