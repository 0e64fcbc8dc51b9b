"""Ladder's test cases: what the shared sweeps of ``tests/`` run for this kind.

The names and what each sweep does with them are described in ``cpwords/puzzles/_template/cases.py``;
the sweeps read them through the registry (``KIND.test_cases()``). Only the tests import this module.
"""

from __future__ import annotations

from typing import Any

#: The fields a spec of this kind cannot do without.
REQUIRED: dict[str, Any] = {"start": "cold", "target": "warm"}

#: (engine, task) -> a hard instance (tests/test_time_limits.py).
HARD: dict[tuple[str, str], Any] = {
    **{("native", mode): {"kind": "ladder", "start": "chaos", "target": "order", "mode": mode,
                          "dictionary": "scowl-80", "all_shortest": True, "limit": 1_000_000}
       for mode in ("shortest", "common", "both")},
    ("native", "generate"): {"kind": "ladder", "mode": "generate", "count": 1000, "par": 8, "length": 5,
                             "dictionary": "scowl-80", "seed": 1},
}

#: The case of HARD also run from an empty cache.
COLD_START = ("native", "shortest")

#: The shortcut's command line for a new list of 600,000 words.
BIG_LIST = ["ladder", "cold", "warm"]

#: No long run: the one engine, a breadth-first search, ends within a second on any input.
LONG_RUNS: dict[str, list[str]] = {}
QUICK_ENGINES = ("native",)

#: A boolean in a numeric field.
BOOLEAN_IN_NUMBER = "kind: ladder\nstart: cold\ntarget: warm\ntime_limit: true\n"

#: The kind's example: in examples/ (see the template's cases.py).
EXAMPLE: str | None = None

#: A small generating spec for the offensive-word sweep (none yet for the ladder's generate mode).
GENERATE: dict[str, Any] | None = None

#: A quick command line of the kind's shortcut command, to which tests/test_hostile_flags.py adds
#: one hostile flag at a time.
QUICK_COMMAND: list[str] = ["ladder", "cold", "warm"]
