"""Spelling Bee's test cases: what the shared sweeps of ``tests/`` run for this kind.

The names and what each sweep does with them are described in ``cpwords/puzzles/_template/cases.py``;
the sweeps read them through the registry (``KIND.test_cases()``). Only the tests import this module.
"""

from __future__ import annotations

from typing import Any

#: The fields a spec of this kind cannot do without.
REQUIRED: dict[str, Any] = {"letters": "abcdefg", "center": "a"}

# The richest hive of the biggest dictionary (2,079 words) is as hard as ``words`` gets; the native
# scan of every scowl-95 hive takes about 2 s; CP-SAT needs over 10 s to prove the best scowl-50 hive.
_BEE = {"kind": "spelling_bee", "letters": "aeinrst", "center": "e", "dictionary": "scowl-95"}

#: (engine, task) -> a hard instance (tests/test_time_limits.py).
HARD: dict[tuple[str, str], Any] = {
    **{(engine, "words"): {**_BEE, "engine": engine} for engine in ("native", "cpsat")},
    ("native", "generate"): {"kind": "spelling_bee", "dictionary": "scowl-95", "engine": "native", "task": "generate",
                             "avoid": "", "maximize": "points", "puzzles": 1},
    ("cpsat", "generate"): {"kind": "spelling_bee", "dictionary": "scowl-50", "engine": "cpsat", "task": "generate",
                            "maximize": "points", "puzzles": 3},
}

#: The case of HARD also run from an empty cache.
COLD_START = ("native", "words")

#: The shortcut's command line for a new list of 600,000 words.
BIG_LIST = ["spelling-bee", "aeinrst", "--center", "e"]

#: Searches far longer than a test, by name (tests/test_signals.py).
LONG_RUNS: dict[str, list[str]] = {
    f"{engine}-spelling-bee": ["spelling-bee", "--task", "generate", "--puzzles", "100", "--min-words", "400",
                               "--engine", engine, "--dict", "scowl-95"]
    for engine in ("native", "cpsat")
}
QUICK_ENGINES: tuple[str, ...] = ()

#: A boolean in a numeric field.
BOOLEAN_IN_NUMBER = "kind: spelling_bee\nletters: cejoprt\nmin_word_length: true\n"

#: The kind's example: in examples/ (see the template's cases.py).
EXAMPLE: str | None = None

#: A small generating spec for the offensive-word sweep.
GENERATE: dict[str, Any] | None = {"kind": "spelling_bee", "task": "generate", "puzzles": 2,
                                   "dictionary": "common-20k"}

#: A quick command line of the kind's shortcut command, to which tests/test_hostile_flags.py adds
#: one hostile flag at a time.
QUICK_COMMAND: list[str] = ["spelling-bee", "cejoprt"]
