"""Letter Boxed: chain words over the letters of a box, using every letter in the fewest words.

The kind's descriptor; the parts live in ``spec.py``, ``solution.py``, ``solve.py`` (the one
place that builds results), ``check.py``, ``render.py``, ``cli.py`` and one module per engine:
``native_tasks.py`` (over the algorithms of ``native.py`` and ``counting.py``), ``cpsat.py`` (over
the models of ``cpsat_models.py``) and ``sat.py``, the two solver engines sharing their loops over
word counts (``sizes.py``).
"""

from cpwords.puzzles import PuzzleKind

KIND = PuzzleKind(
    name="letter_boxed",
    command="letter-boxed",
    title="Letter Boxed",
    command_help="Letter Boxed: fewest words using every letter of a box",
    summary="the fewest-word answer, every answer within k words and how many, puzzle generation",
    package=__name__,
    capabilities={
        "native": ("min_words", "enumerate", "count", "generate"),
        "cpsat": ("min_words", "enumerate", "count"),
        "sat": ("min_words", "enumerate", "count"),
    },
    engine_modules={"native": "native_tasks"},
    spec="spec:LetterBoxedSpec",
    solution="solution:LetterBoxedSolution",
    shards="shards:SHARDING",
    checker_all="check:check_all",
)
