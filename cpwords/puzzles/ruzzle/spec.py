"""The Ruzzle / Boggle puzzle spec (``kind: ruzzle``).

>>> spec = RuzzleSpec(grid=["cats", "dogs", "QUITE", "emus"], bonuses={"TW": [[1, 1]]})
>>> spec.tiles()[2], spec.min_letters(), spec.bonus_cells()
(['qu', 'i', 't', 'e'], 2, {(1, 1): 'TW'})
"""

from __future__ import annotations

import random
import warnings
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, PrivateAttr, field_validator, model_validator

from cpwords.errors import InputError
from cpwords.specs import BaseSpec, DictionaryRef, ShapeRef, field_error, letters

if TYPE_CHECKING:
    from cpwords.puzzles import PuzzleKind

BonusName = Literal["DL", "TL", "DW", "TW"]
DEFAULT_MIN_LENGTH = {"ruzzle": 2, "boggle": 3, "none": 3}
DEFAULT_MOVES = 1000


def _parse_row(row: str | list[str]) -> list[str]:
    from cpwords.puzzles.ruzzle.board import parse_row

    return parse_row(row)


#: The largest board ``best_board`` searches (:data:`~cpwords.puzzles.ruzzle.scoring.MAX_CELLS`,
#: which the spec cannot import without the scorer's numpy tables): an 8×7 board.
BEST_BOARD_CELLS = 63


class RuzzleSpec(BaseSpec):
    """Find every word on a Ruzzle or Boggle board, count the board's paths, or search for a rich board."""

    @classmethod
    def descriptor(cls) -> PuzzleKind:
        """This kind's entry in the registry: its engines and tasks."""
        from cpwords.puzzles.ruzzle import KIND

        return KIND

    kind: Literal["ruzzle"] = "ruzzle"
    """The puzzle kind."""
    engine: Literal["trie", "active", "enumerate"] | None = None
    """How words are found: ``trie`` (a board walk pruned by a trie; the fastest, and the default),
    ``active`` (each dictionary word the board's letters allow, looked for on the board) or
    ``enumerate`` (every path, no pruning; boards of at most 16 cells; the engine of ``count_paths``)."""
    task: Literal["words", "count_paths", "best_board"] = "words"
    """``words``: every word with a (best-scoring) path and the total score; ``count_paths``: the number
    of simple king paths of each length on a board of this size (the letters do not matter);
    ``best_board``: a search for a high-scoring board of ``grid``'s shape and bonus squares (see ``search``)."""
    grid: list[str | list[str]] = Field(default_factory=list)
    """Rows of tiles, top row first. A row is a string (one letter a tile, ``qu`` one tile; with spaces,
    the spaces separate tiles: ``"a b qu th"``) or a list of tiles. Every row has the same number of tiles.
    Required unless ``dice`` rolls the board."""
    dice: ShapeRef | None = None
    """Roll the board from letter dice, as Boggle does: a shipped set (``boggle-new``: the 16 dice of
    Boggle since 1987; ``boggle-classic``: the 16 before; ``big-boggle``: the 25 of Big Boggle 5x5) or a
    dice file (``.yaml``, see ``models/dice/``). Each die falls in a random cell showing a random face,
    by ``seed`` (drawn and written into the spec when none is given), and the roll becomes ``grid``.
    With a ``grid`` given too, the grid must be a possible roll of these dice."""
    dictionary: DictionaryRef = Field(default_factory=lambda: DictionaryRef(name="scowl-80"))
    """The words that count: a built-in name, ``{path: FILE}`` or ``{words: [...]}``."""
    scoring: Literal["ruzzle", "boggle", "none"] = "ruzzle"
    """``ruzzle``: letter values, bonus squares, length bonus; ``boggle``: points by length; ``none``."""
    min_word_length: int | None = Field(default=None, ge=1)
    """Shortest word that counts, in letters (a ``qu`` tile is two). Default: 2 for Ruzzle, 3 otherwise."""
    bonuses: ShapeRef | dict[BonusName, list[tuple[int, int]]] | None = None
    """Bonus squares: ``{DL: [[row, col], ...], TL: ..., DW: ..., TW: ...}`` (1-based, row 1 at the top), or
    the name of a shipped layout in ``models/ruzzle/`` (``ruzzle-4x4``) or a layout file (``.yaml``).
    Only Ruzzle scoring uses them."""
    algorithm: Literal["trie", "active", "enumerate"] | None = None
    """Deprecated: the old name of ``engine`` (accepted for one release, with a warning)."""
    iterations: int | None = Field(default=None, ge=1)
    """``best_board``: the most boards a search chain scores. ``search: anneal``: its moves (each scores
    one board; default 1000); ``search: climb``: a climb stops once it has scored this many (default: no
    cap). ``time_limit`` may stop either sooner."""
    search: Literal["climb", "anneal"] = "climb"
    """``best_board``: ``climb`` (hill climbing a pool of boards by every one-cell change and swap, with
    restarts; finds the proven-best Boggle boards) or ``anneal`` (simulated annealing from ``grid``)."""
    pool: int | None = Field(default=None, ge=1)
    """``best_board`` with ``search: climb``: boards kept in the pool (default 100, 300 on boards of
    more than 16 cells); larger pools climb slower and get stuck less."""
    climbs: int | None = Field(default=None, ge=1)
    """``best_board`` with ``search: climb``: climbs from fresh random pools. Default: as many as
    ``time_limit`` allows, or one without a time limit."""
    target: int | None = None
    """``best_board``: stop as soon as a board of at least this value is found."""

    @field_validator("grid")
    @classmethod
    def _rectangular(cls, grid: list[str | list[str]]) -> list[str | list[str]]:
        if not grid:
            raise ValueError("the grid needs at least one row")
        widths = set()
        for i, row in enumerate(grid):
            tiles = _parse_row(row)
            for tile in tiles:
                if not tile:
                    raise ValueError(f"row {i + 1} has an empty tile")
                letters(tile, what=f"row {i + 1}: tile")
            if not tiles:
                raise ValueError(f"row {i + 1} is empty")
            widths.add(len(tiles))
        if len(widths) != 1:
            raise ValueError(f"rows have different numbers of tiles ({', '.join(map(str, sorted(widths)))});"
                             " a string row reads 'qu' as one tile")
        return grid

    _bonus: dict[str, list[tuple[int, int]]] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _board_from_dice(self) -> RuzzleSpec:
        # Runs before the bonus check below, which needs the board's shape.
        if self.dice is None:
            if not self.grid:
                raise field_error("grid", "give the board's rows (or 'dice' to roll a board)")
            return self
        from cpwords.puzzles.ruzzle.dice import load_dice, roll, rollable

        dice = load_dice(self.dice, self.alphabet())
        if self.grid:
            if not rollable(dice, self.tiles()):
                raise field_error("grid", f"this board cannot be rolled with the dice of {self.dice} "
                                          f"({dice.rows}x{dice.cols}, one die a cell)", self.grid)
            return self
        seed = self.seed if self.seed is not None else random.randrange(2**31)  # kept: the board rolls again
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "grid", roll(dice, seed))
        self.__pydantic_fields_set__.update(("grid", "seed"))
        return self

    @model_validator(mode="before")
    @classmethod
    def _algorithm_is_engine(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("algorithm") is not None:
            engine = data.get("engine")
            if engine is not None and engine != data["algorithm"]:
                raise field_error("algorithm", f"'algorithm' is the old name of 'engine', and they differ "
                                               f"(engine {engine!r}); give only 'engine'", data["algorithm"])
            warnings.warn("ruzzle: 'algorithm' is deprecated and will be removed; write 'engine: "
                          f"{data['algorithm']}' instead", FutureWarning, stacklevel=2)
            data = {**data, "engine": data["algorithm"], "algorithm": None}
        return data

    @field_validator("bonuses", mode="before")
    @classmethod
    def _bonus_names(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {str(k).upper(): v for k, v in value.items()}
        return value

    @model_validator(mode="after")
    def _bonuses_on_board(self) -> RuzzleSpec:
        rows, cols = self.shape()
        seen: dict[tuple[int, int], str] = {}
        self._bonus, source = self._bonus_table()  # a layout file is read once, here
        for name, cells in self._bonus.items():
            for i, (r, c) in enumerate(cells):
                problem = None
                if not (1 <= r <= rows and 1 <= c <= cols):
                    problem = f"bonus {name} at [{r}, {c}] is off the {rows}x{cols} board (cells are [row, col], 1-based)"
                elif (r, c) in seen:
                    problem = f"cell [{r}, {c}] has two bonuses ({seen[(r, c)]} and {name})"
                if problem is not None:
                    # Blame the cell where it is written: the layout file, or the puzzle's own field.
                    if source is None:
                        raise field_error(f"bonuses.{name}[{i}]", problem, [r, c])
                    raise _layout_error(problem, source, ["bonuses", name, i], value=[r, c])
                seen[(r, c)] = name
        if self.task == "best_board" and rows * cols > BEST_BOARD_CELLS:
            raise field_error("grid", f"best_board searches boards of up to {BEST_BOARD_CELLS} cells (its "
                                      f"scorers keep a path's cells in one 64-bit word); this board has "
                                      f"{rows * cols:,} (its words: task 'words')", f"{rows}x{cols}")
        if self.engine == "enumerate" and rows * cols > 16 and self.task != "count_paths":
            raise field_error("engine", f"engine 'enumerate' walks every path and handles at most 16 cells "
                                        f"(this board has {rows * cols}); use 'trie' or 'active'", self.engine)
        return self

    def _bonus_table(self) -> tuple[dict[str, list[tuple[int, int]]], str | None]:
        """The bonus cells by name, and the layout file they come from (None: written inline)."""
        if self.bonuses is None:
            return {}, None
        if isinstance(self.bonuses, dict):
            return {k: [(int(c[0]), int(c[1])) for c in v] for k, v in self.bonuses.items()}, None
        from cpwords.geometry import read_shape, shipped_shapes

        shipped = shipped_shapes("ruzzle")
        if isinstance(self.bonuses, str) and self.bonuses not in shipped:
            raise ValueError(f"unknown bonus layout {self.bonuses!r}; shipped: {', '.join(shipped)}; "
                             "or give a .yaml file")
        data, source = read_shape("ruzzle", self.bonuses, field_name="bonuses")
        table = data.get("bonuses")
        if not isinstance(table, dict):
            raise _layout_error("a bonus layout needs a 'bonuses' mapping of DL/TL/DW/TW to cells", source, [])
        out: dict[str, list[tuple[int, int]]] = {}
        for name, cells in table.items():
            if str(name).upper() not in ("DL", "TL", "DW", "TW"):
                raise _layout_error("unknown bonus; use DL, TL, DW or TW", source, ["bonuses", name], value=name)
            try:
                out[str(name).upper()] = [(int(r), int(c)) for r, c in cells]
            except (TypeError, ValueError):
                raise _layout_error("cells must be [row, col] pairs", source, ["bonuses", name]) from None
        return out, source

    def tiles(self) -> list[list[str]]:
        """The grid as rows of tiles (lowercase, folded onto the dictionary's alphabet: ``à`` -> ``a`` in
        Italian)."""
        fold = self.alphabet().fold
        return [[fold(tile) for tile in _parse_row(row)] for row in self.grid]

    def shape(self) -> tuple[int, int]:
        """(rows, columns) of the board."""
        return len(self.grid), len(_parse_row(self.grid[0]))

    def bonus_cells(self) -> dict[tuple[int, int], str]:
        """Bonus name by 1-based (row, col)."""
        return {cell: name for name, cells in self._bonus.items() for cell in cells}

    def moves(self) -> int:
        """Annealing moves: ``iterations``, 1000 by default."""
        return self.iterations if self.iterations is not None else DEFAULT_MOVES

    def min_letters(self) -> int:
        """The shortest word that counts, after applying the scoring's default."""
        return self.min_word_length or DEFAULT_MIN_LENGTH[self.scoring]


def _layout_error(message: str, source: str, loc: list[Any], **fields: Any) -> InputError:
    """An error in a bonus layout file, naming that file, the line and the field (not the puzzle's)."""
    from cpwords.geometry import shape_error

    return shape_error(message, source, loc, **fields)
