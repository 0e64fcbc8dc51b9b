"""The template kind's test cases: what the shared sweeps of ``tests/`` run for this kind.

Every kind has a ``cases.py`` with the names below (plain data: specs as dicts, command lines as
lists); the sweeps read them through the registry (``KIND.test_cases()``), so a new kind touches
no shared test file. Only the tests import this module. Fill in each name for your kind; the
sweep that reads it fails, naming what is missing, when a task or an engine has no case.
"""

from __future__ import annotations

from typing import Any

#: The fields a spec of this kind cannot do without (tests/test_registry.py builds specs from them).
REQUIRED: dict[str, Any] = {"letters": "listen"}

#: (engine, task) -> a hard instance, for every engine and task of the capability table
#: (tests/test_time_limits.py): with ``time_limit: 1`` it must end within about a second and say
#: so when cut short. Pick the hardest input a user could give (here the whole alphabet twice
#: over the biggest dictionary: 300,000 words, seconds of work). A value may also be a function
#: that makes the spec from ``cpwords.solve``, handed in by the sweep (these cases sit on the
#: kinds' floor, below the API), as word_grid's ``scrambled_7x7``.
_ALPHABET_TWICE = "abcdefghijklmnopqrstuvwxyz" * 2
HARD: dict[tuple[str, str], Any] = {
    ("native", task): {"kind": "_template", "letters": _ALPHABET_TWICE, "min_length": 1, "dictionary": "scowl-95",
                       "task": task}
    for task in ("enumerate", "count")
}

#: The (engine, task) of HARD also run as a command from an empty cache: the first use of the
#: kind's dictionary must keep the limit too.
COLD_START = ("native", "enumerate")

#: A command line of the kind's shortcut, run with ``--dict`` a new list of 600,000 words and a
#: one-second limit (loading the list counts against the limit).
BIG_LIST = ["_template", "listen"]

#: Command lines that search far longer than a test, one at least for every engine not in
#: QUICK_ENGINES, by a unique name (tests/test_signals.py: Ctrl-C and SIGTERM must stop them
#: within a second, leaving no process behind).
LONG_RUNS: dict[str, list[str]] = {
    "native-_template": ["_template", _ALPHABET_TWICE, "--min-length", "1", "--dict", "scowl-95", "--engine", "native"],
}
#: Engines that end within a second on any input, so that no signal reaches them mid-search
#: (the ladder's breadth-first search); they need no long run.
QUICK_ENGINES: tuple[str, ...] = ()

#: A YAML puzzle with ``true`` in a numeric field: refused, naming the field
#: (tests/test_promises_input.py; None leaves the kind out).
BOOLEAN_IN_NUMBER = "kind: _template\nletters: listen\nmin_length: true\n"

#: The kind's example as YAML, for the tests that solve one example of every kind (the web API,
#: the browser pages). A kind users see has its examples in ``examples/<kind>.yaml`` (the example
#: tests require one) and leaves this None; the template, which users never see, keeps its here.
EXAMPLE: str | None = "kind: _template\nletters: listen\n"

#: A small spec of the kind's generating task (one that chooses words: ``generate``,
#: ``best_board``), whose answers must hold no offensive word (tests/test_offensive.py); None
#: without one.
GENERATE: dict[str, Any] | None = None

#: A quick command line of the kind's shortcut command (seconds at most), to which
#: tests/test_hostile_flags.py adds one hostile flag at a time: every flag of the command is walked
#: with hostile values, none may end in a traceback.
QUICK_COMMAND: list[str] = ["_template", "listen", "--dict", "common-2k"]
