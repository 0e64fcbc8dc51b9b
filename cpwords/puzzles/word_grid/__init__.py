"""Word grids (``kind: word_grid``): generate, fill, count, enumerate and unscramble.

The kind's descriptor. Engines: ``native`` (``native_tasks.py``: bitset backtracking of
``native.py``, sum-product counting of ``count.py``), ``cpsat`` (``cpsat.py``; also the
``unscramble`` game of ``unscramble.py``) and ``sat`` (``sat.py``).
"""

from cpwords.puzzles import PuzzleKind

_TASKS = ("generate", "fill", "count", "enumerate")

KIND = PuzzleKind(
    name="word_grid",
    command="grid",
    title="Word grid",
    summary="crossing-word grids (Gridle 5x5 and 7x7, any shape): generate, fill, count modulo symmetry, unscramble",
    package=__name__,
    capabilities={"native": _TASKS, "cpsat": (*_TASKS, "unscramble"), "sat": _TASKS},
    engine_modules={"native": "native_tasks", "cpsat:unscramble": "unscramble"},
    spec="spec:WordGridSpec",
    solution="solution:GridSolution",
    shards="shards:SHARDING",
)
