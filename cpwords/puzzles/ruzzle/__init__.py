"""Ruzzle / Boggle: every word on a letter board, path counts, and a search for rich boards.

The kind's descriptor. Its three word finders are its engines (``engines/``): ``trie`` (a board
walk pruned by a double-array trie; the fastest), ``active`` (each dictionary word that the
board's letters allow, looked for on the board) and ``enumerate`` (every path of the board, no
pruning; it also counts paths exactly). Boards are checked all at once (``check:check_all``),
and ``cpwords.solve_many(..., scores_only=True)`` scores many boards in one array search
(``batch.py``).
"""

from cpwords.puzzles import PuzzleKind

KIND = PuzzleKind(
    name="ruzzle",
    command="ruzzle",
    title="Ruzzle / Boggle",
    command_help="every word on a Ruzzle / Boggle board",
    summary="every word on the board with its best-scoring path, exact path counts, a search for rich boards",
    package=__name__,
    capabilities={
        "trie": ("words", "best_board"),
        "active": ("words",),
        "enumerate": ("words", "count_paths"),
    },
    engine_modules={"trie": "engines.trie", "active": "engines.active", "enumerate": "engines.enumerate"},
    spec="spec:RuzzleSpec",
    solution="solution:RuzzleSolution",
    shards="shards:SHARDING",
    checker_all="check:check_all",
    batch="batch:solve_batch",
)
