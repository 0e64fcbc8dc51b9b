"""NYT Spelling Bee: every word of 4+ letters made from seven letters, always using the centre one.

The kind's descriptor; the parts live in ``spec.py``, ``solution.py``, ``solve.py`` (the one place
that builds results), ``check.py``, ``render.py``, ``cli.py``, the shared word table ``words.py``
and one module per engine: ``native.py`` (bit masks and subset sums) and ``cpsat.py`` (a CP-SAT
model choosing the letters, with a word-count or point-count objective).
"""

from cpwords.puzzles import PuzzleKind

KIND = PuzzleKind(
    name="spelling_bee",
    command="spelling-bee",
    title="Spelling Bee",
    command_help="Spelling Bee: every word of seven letters with the centre",
    summary="every word of a hive with the game's scoring, pangrams and ranks; generate letter sets",
    package=__name__,
    capabilities={
        "native": ("words", "generate"),
        "cpsat": ("words", "generate"),
    },
    spec="spec:SpellingBeeSpec",
    solution="solution:SpellingBeeSolution",
    checker_all="check:check_all",
)
