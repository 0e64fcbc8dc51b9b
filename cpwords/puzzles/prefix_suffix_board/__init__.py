"""Prefix/suffix boards: every edge joins a prefix slot and a suffix slot into a dictionary word.

The kind's descriptor. Engines: ``native`` (``native_tasks.py`` over the propagation search and
exact counting of ``native.py`` and ``counting.py``), ``cpsat`` and ``sat`` (their models, with
lex-leader symmetry breaking, in ``cpsat_models.py`` and ``sat_models.py``). ``shards.py`` splits
the native counts for the cluster runner.
"""

from cpwords.puzzles import PuzzleKind

_TASKS = ("generate", "solve", "enumerate", "count_boards", "count_suffix_sets")

KIND = PuzzleKind(
    name="prefix_suffix_board",
    command="board",
    title="Prefix/suffix board",
    command_help="prefix/suffix boards: count, solve, generate",
    summary="boards where every edge joins a prefix and a suffix into a word: count modulo symmetry, solve, generate",
    package=__name__,
    capabilities={"native": _TASKS, "cpsat": _TASKS, "sat": _TASKS},
    engine_modules={"native": "native_tasks"},
    spec="spec:PrefixSuffixBoardSpec",
    solution="solution:BoardSolution",
    shards="shards:SHARDING",
)
