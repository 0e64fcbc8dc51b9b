"""Letter Boxed's test cases: what the shared sweeps of ``tests/`` run for this kind.

The names and what each sweep does with them are described in ``cpwords/puzzles/_template/cases.py``;
the sweeps read them through the registry (``KIND.test_cases()``). Only the tests import this module.
"""

from __future__ import annotations

from typing import Any

#: The fields a spec of this kind cannot do without.
REQUIRED: dict[str, Any] = {"sides": ["lme", "iuf", "wcb", "oas"]}

_BIG_BOX = {"kind": "letter_boxed", "sides": ["abc", "def", "ghi", "jkl", "mno", "pqr"], "max_words": 6}

#: (engine, task) -> a hard instance (tests/test_time_limits.py).
HARD: dict[tuple[str, str], Any] = {}
for _engine in ("native", "cpsat", "sat"):
    HARD[_engine, "min_words"] = {**_BIG_BOX, "engine": _engine, "dictionary": "scowl-80"}
    HARD[_engine, "enumerate"] = {"kind": "letter_boxed", "sides": ["paf", "uot", "mie", "xlr"], "engine": _engine,
                                  "task": "enumerate", "limit": None}
    HARD[_engine, "count"] = {**_BIG_BOX, "engine": _engine, "task": "count", "max_words": 5}
HARD["native", "generate"] = {"kind": "letter_boxed", "task": "generate", "par": 4, "attempts": 100_000, "seed": 1}

#: The case of HARD also run from an empty cache.
COLD_START = ("native", "enumerate")

#: The shortcut's command line for a new list of 600,000 words.
BIG_LIST = ["letter-boxed", "lme", "iuf", "wcb", "oas"]

#: Searches far longer than a test, by name (tests/test_signals.py).
LONG_RUNS: dict[str, list[str]] = {
    f"{engine}-letter-boxed": ["letter-boxed", "abc", "def", "ghi", "jkl", "mno", "pqr", "--engine", engine,
                               "--task", "count", "--max-words", "8"]
    for engine in ("cpsat", "sat", "native")
}
QUICK_ENGINES: tuple[str, ...] = ()

#: A boolean in a numeric field.
BOOLEAN_IN_NUMBER = "kind: letter_boxed\nsides: [abc, def, ghi, jkl]\nmax_words: true\n"

#: The kind's example: in examples/ (see the template's cases.py).
EXAMPLE: str | None = None

#: A small generating spec for the offensive-word sweep.
GENERATE: dict[str, Any] | None = {"kind": "letter_boxed", "task": "generate", "puzzles": 2, "attempts": 20,
                                   "dictionary": "common-20k"}

#: A quick command line of the kind's shortcut command, to which tests/test_hostile_flags.py adds
#: one hostile flag at a time.
QUICK_COMMAND: list[str] = ["letter-boxed", "abc", "def", "ghi", "jkl"]
