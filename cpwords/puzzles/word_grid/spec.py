"""The ``word_grid`` spec: crossing words in a grid of open and black cells.

Example
-------
>>> spec = WordGridSpec.model_validate({"kind": "word_grid", "shape": "gridle-5x5", "task": "generate", "count": 2})
>>> spec.task, spec.count, spec.distinct_words
('generate', 2, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field, field_validator, model_validator

from cpwords.specs import PLAYER_DICTIONARY, BaseSpec, DictionaryRef, ShapeRef, field_error, spec_alphabet

if TYPE_CHECKING:
    from cpwords.puzzles import PuzzleKind

#: The dictionary of ``task: puzzle`` when the spec names none: common words a player knows (each
#: slot takes the words of its length from it; offensive words are left out).
PUZZLE_DICTIONARY = "common-10k"

#: ``task: puzzle``'s par (fewest swaps) by grid size when the spec sets none: Waffle's daily
#: 5x5 (par 10) and deluxe 7x7 (par 20). Other shapes: :func:`default_par`.
DEFAULT_PARS = {(5, 5): 10, (7, 7): 20}

#: Characters of a ``given`` row that say "no letter given here".
UNKNOWN_MARKS = "?_."
#: Characters of a ``given`` or ``scrambled`` row that mark a black cell.
BLACK_MARK = "#"


def _clean_rows(rows: list[str], *, allow_unknown: bool, what: str) -> list[str]:
    out = []
    alphabet = spec_alphabet()  # the dictionary's letters (a-z in English)
    allowed = alphabet.letters + BLACK_MARK + (UNKNOWN_MARKS if allow_unknown else "")
    for i, row in enumerate(rows):
        # Accents fold cell by cell (Italian à -> a); a letter that folds to two (ß) is refused.
        row = "".join(f if len(f := alphabet.fold(ch)) == 1 else ch for ch in row.strip())
        bad = sorted(set(row) - set(allowed))
        if bad:
            letters = f"letters {alphabet.describe()}"
            hint = f"{letters}, '?' (or '.', '_') for an unknown letter and '#' for a black cell" if allow_unknown \
                else f"{letters} and '#' for a black cell"
            raise ValueError(f"{what} row {i + 1} ({row!r}) has {''.join(bad)!r}; use {hint}")
        out.append(row)
    if out and len({len(r) for r in out}) != 1:
        raise ValueError(f"all {what} rows must have the same length")
    return out


class WordGridSpec(BaseSpec):
    """Fill a grid of open and black cells with crossing dictionary words.

    Every maximal run of two or more open cells, across or down, is a slot that must hold a
    word. Tasks: ``generate`` random grids, ``fill`` a partly given grid, ``count`` or
    ``enumerate`` all grids (modulo symmetry), ``unscramble`` a scrambled grid with the fewest swaps,
    or make ``puzzle`` boards for players (a scramble with a proven unique answer and a proven par).
    """

    player_dictionary = PLAYER_DICTIONARY

    @classmethod
    def descriptor(cls) -> PuzzleKind:
        """This kind's entry in the registry: its engines and tasks."""
        from cpwords.puzzles.word_grid import KIND

        return KIND

    kind: Literal["word_grid"] = "word_grid"
    """The puzzle kind."""
    engine: Literal["native", "cpsat", "sat"] | None = None
    """Solver: ``native`` (bitset backtracking, the fastest; counts by a sum-product over the
    crossing letters; the default), ``cpsat`` (OR-Tools CP-SAT) or ``sat`` (PySAT). ``unscramble``
    is solved by CP-SAT only; ``objective: common`` needs native or cpsat. ``puzzle``: the engine
    (cpsat, the default, or sat) that proves each answer unique; par is proven by CP-SAT."""
    shape: ShapeRef = "gridle-5x5"
    """A shipped grid (``gridle-5x5``, ``gridle-7x7``) or a grid YAML file (rows of ``.``/``#``)."""
    dictionary: DictionaryRef = Field(default_factory=lambda: DictionaryRef(name="scowl-70"))
    """Where the words come from; each slot takes words of its own length. Default ``scowl-70``;
    ``task: generate`` defaults to ``common-20k`` (words players know), ``task: puzzle`` to the
    common words of :data:`PUZZLE_DICTIONARY` (``common-10k``). ``generate``, ``fill`` and ``puzzle``
    leave offensive words out unless ``exclude`` is set (``[]`` keeps them)."""
    distinct_words: bool = True
    """No word may appear twice in a grid."""
    given: list[str] | None = None
    """Given letters, one string a row: a letter is given, ``?`` (or ``.``/``_``) is open, ``#``
    is a black cell. Whole words are given by writing them into their row or column."""
    task: Literal["generate", "fill", "count", "enumerate", "unscramble", "puzzle"] = "generate"
    """``generate`` N random grids; ``fill`` complete the given letters (most common words first);
    ``count`` all grids; ``enumerate`` list them (up to ``limit``); ``unscramble`` the game itself;
    ``puzzle`` N scrambled boards for players, each with a proven unique answer and par."""
    count: int = Field(default=1, ge=1, le=10_000)
    """How many different grids to generate (different modulo symmetry), or puzzles to make."""
    par: int | None = Field(default=None, ge=1)
    """For ``puzzle``: the fewest swaps that solve each board, proven (default 10 on 5x5 grids,
    20 on 7x7, else 5/8 of the movable cells)."""
    limit: int | None = Field(default=100, ge=1)
    """Most grids to list for ``enumerate`` (None: all)."""
    objective: Literal["none", "common"] = "none"
    """``common``: prefer common words (least total rareness) for generate and fill."""
    scrambled: list[str] | None = None
    """For ``unscramble``: the rows of the scrambled grid (every open cell holds a letter, ``#`` black).
    The shape's ``fixed`` cells keep their letters; the others may be swapped."""
    threads: int | None = Field(default=None, ge=1)
    """CP-SAT search workers (threads) in this process, for ``engine: cpsat`` and ``unscramble``;
    default: 1 for generate/fill, all of CP-SAT's default for ``objective: common`` and
    ``unscramble``. Not the run's ``workers`` (local processes): a solve is one process."""

    @field_validator("given")
    @classmethod
    def _given_rows(cls, rows: list[str] | None) -> list[str] | None:
        return None if rows is None else _clean_rows(rows, allow_unknown=True, what="given")

    @field_validator("scrambled")
    @classmethod
    def _scrambled_rows(cls, rows: list[str] | None) -> list[str] | None:
        return None if rows is None else _clean_rows(rows, allow_unknown=False, what="scrambled")

    @model_validator(mode="after")
    def _task_needs(self) -> WordGridSpec:
        if self.task == "puzzle" and "dictionary" not in self.model_fields_set:
            object.__setattr__(self, "dictionary", DictionaryRef(name=PUZZLE_DICTIONARY))
        if self.par is not None and self.task != "puzzle":
            raise field_error("par", f"'par' is only for task 'puzzle', not {self.task!r}", self.par)
        if self.task == "unscramble":
            if not self.scrambled:
                raise ValueError("task 'unscramble' needs 'scrambled': the rows of the scrambled grid")
            if self.given:
                raise ValueError("task 'unscramble' takes 'scrambled', not 'given'")
        elif self.scrambled:
            raise ValueError("'scrambled' is only for task 'unscramble'")
        if self.objective == "common" and self.task not in ("generate", "fill"):
            raise ValueError(f"objective 'common' applies to tasks generate and fill, not {self.task!r}")
        if self.objective == "common" and self.engine == "sat":
            raise field_error("engine", "objective 'common' needs engine native or cpsat (SAT has no weighted "
                                        "objective here)", self.engine)
        return self


def default_par(height: int, width: int, movable: int) -> int:
    """The par of a puzzle on a grid of this size with ``movable`` cells that may be swapped.

    >>> default_par(5, 5, 16), default_par(7, 7, 28), default_par(3, 3, 8)
    (10, 20, 5)
    """
    return DEFAULT_PARS.get((height, width), max(1, movable * 5 // 8))
