"""Word grids (``kind: word_grid``): generate, fill, count, enumerate and unscramble.

The kind's descriptor. Engines: ``native`` (``native_tasks.py``: bitset backtracking of
``native.py``, sum-product counting of ``count.py``), ``cpsat`` (``cpsat.py``; also the
``unscramble`` game of ``unscramble.py``) and ``sat`` (``sat.py``). ``puzzle`` (``puzzle.py``)
makes boards for players; cpsat or sat proves each answer unique, CP-SAT proves the par.
"""

from cpwords.puzzles import PuzzleKind

_TASKS = ("generate", "fill", "count", "enumerate")

KIND = PuzzleKind(
    name="word_grid",
    command="grid",
    title="Word grid",
    command_help="word grids (Gridle): generate, fill, count, unscramble",
    summary="crossing-word grids (Gridle 5x5 and 7x7, any shape): generate, fill, count modulo symmetry, unscramble, "
            "make Waffle-style puzzles with a proven unique answer and par",
    package=__name__,
    capabilities={"native": _TASKS, "cpsat": (*_TASKS, "unscramble", "puzzle"), "sat": (*_TASKS, "puzzle")},
    engine_modules={"native": "native_tasks", "cpsat:unscramble": "unscramble", "cpsat:puzzle": "puzzle",
                    "sat:puzzle": "puzzle"},
    spec="spec:WordGridSpec",
    solution="solution:GridSolution",
    shards="shards:SHARDING",
)
