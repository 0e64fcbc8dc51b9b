"""Prefix-suffix board's test cases: what the shared sweeps of ``tests/`` run for this kind.

The names and what each sweep does with them are described in ``cpwords/puzzles/_template/cases.py``;
the sweeps read them through the registry (``KIND.test_cases()``). Only the tests import this module.
"""

from __future__ import annotations

from typing import Any

#: The fields a spec of this kind cannot do without (``suffixes`` for ``solve``).
REQUIRED: dict[str, Any] = {"suffixes": {"s_n": "er"}}

_BOARD = {"kind": "prefix_suffix_board", "dictionary": "common-10k", "seed": 1}

#: (engine, task) -> a hard instance (tests/test_time_limits.py).
HARD: dict[tuple[str, str], Any] = {}
for _engine in ("native", "cpsat", "sat"):
    # the native engine counts common-10k in about a second; common-40k takes it over a minute
    _counted = {**_BOARD, "dictionary": "common-40k"} if _engine == "native" else _BOARD
    HARD[_engine, "count_boards"] = {**_counted, "engine": _engine, "task": "count_boards"}
    HARD[_engine, "count_suffix_sets"] = {**_counted, "engine": _engine, "task": "count_suffix_sets"}
    HARD[_engine, "enumerate"] = {**_BOARD, "engine": _engine, "task": "enumerate", "limit": None}
    HARD[_engine, "generate"] = {**_BOARD, "engine": _engine, "count": 10_000}
    HARD[_engine, "solve"] = {**_BOARD, "engine": _engine, "task": "solve", "limit": None, "dictionary": "common-20k",
                              "suffixes": {"s_n": "al", "s_e": "ed", "s_s": "ing", "s_w": "er"}}

#: The case of HARD also run from an empty cache.
COLD_START = ("native", "solve")

#: The shortcut's command line for a new list of 600,000 words.
BIG_LIST = ["board", "--generate", "1", "--seed", "1"]

#: Searches far longer than a test, by name (tests/test_signals.py); ``board-workers`` with local workers.
LONG_RUNS: dict[str, list[str]] = {
    **{f"{engine}-board": ["board", "--count", "--dict", "common-40k", "--engine", engine, "--workers", "1"]
       for engine in ("native", "cpsat", "sat")},
    "board-workers": ["board", "--count", "--dict", "common-40k", "--workers", "2"],
}
QUICK_ENGINES: tuple[str, ...] = ()

#: A boolean in a numeric field (none yet).
BOOLEAN_IN_NUMBER: str | None = None

#: The kind's example: in examples/ (see the template's cases.py).
EXAMPLE: str | None = None

#: A small generating spec for the offensive-word sweep.
GENERATE: dict[str, Any] | None = {"kind": "prefix_suffix_board", "task": "generate", "count": 3,
                                   "dictionary": "common-5k"}

#: A quick command line of the kind's shortcut command, to which tests/test_hostile_flags.py adds
#: one hostile flag at a time.
QUICK_COMMAND: list[str] = ["board"]
