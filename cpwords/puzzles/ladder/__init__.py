"""Word ladders: change START into TARGET one letter at a time, every step a dictionary word.

The kind's descriptor. Native engine only (``native.py``): links and groups are precomputed per
dictionary (:mod:`.index`), a shortest ladder comes from a bidirectional breadth-first search and
a least-rare ladder from Dijkstra (:mod:`.search`). No CP solver is imported on this path. The
tasks are the spec's ``mode``; ``generate`` (:mod:`.generate`) makes ladder puzzles at a par.
"""

from cpwords.puzzles import PuzzleKind

KIND = PuzzleKind(
    name="ladder",
    command="ladder",
    title="Word ladder",
    command_help="word ladder: change START into TARGET one letter at a time",
    summary="the shortest ladder and the least-rare (common words) ladder, word groups, definitions",
    package=__name__,
    capabilities={"native": ("both", "shortest", "common", "generate")},
    spec="spec:LadderSpec",
    solution="solution:LadderSolution",
    word_facts="dictinfo:word_rows",
    draws=False,
)
