"""Letter dice: roll a Boggle board the way the game does, or check that a board is a roll.

A dice set is a YAML file (shipped in ``models/dice/``, or the user's own): ``rows`` and ``cols`` of
the board, the dice's ``language`` (optional) and ``dice``, one die a line of faces separated by
spaces (``h i m n qu u``: a face may be several letters, as Boggle's ``qu``). Rolling shuffles the
dice into the cells and turns each to a random face, from a seed, so the same seed rolls the same
board. A given board is a roll of the dice when each cell can be given its own die showing that
cell's tile: a bipartite matching of cells to dice (Kuhn's augmenting paths; 25 cells at most in
the shipped sets, so instant).

>>> dice = load_dice("boggle-new")
>>> dice.rows, dice.cols, len(dice.dice), dice.dice[14]
(4, 4, 16, ('h', 'i', 'm', 'n', 'qu', 'u'))
>>> board = roll(dice, seed=7)
>>> len(board), len(board[0]), rollable(dice, board)
(4, 4, True)
>>> rollable(dice, [["z"] * 4] * 4)
False
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from cpwords.alphabet import ENGLISH, Alphabet, language_name
from cpwords.errors import InputError
from cpwords.geometry import read_shape, shipped_shapes


@dataclass(frozen=True)
class DiceSet:
    """Letter dice for a board of ``rows`` × ``cols`` cells, one die a cell.

    Attributes
    ----------
    name: the shipped name or the file the dice come from.
    rows, cols: the board's shape.
    dice: each die's faces (tiles, folded onto the alphabet).
    language: the language the dice are made for (None: not said).
    """

    name: str
    rows: int
    cols: int
    dice: tuple[tuple[str, ...], ...]
    language: str | None = None


def shipped_dice() -> list[str]:
    """Names of the dice sets shipped in ``models/dice/``."""
    return shipped_shapes("dice")


def load_dice(ref: str | Path, alphabet: Alphabet = ENGLISH, *, field_name: str = "dice") -> DiceSet:
    """The dice set named ``ref`` (shipped) or in the file ``ref``, its faces checked against ``alphabet``.

    Raises
    ------
    InputError
        Unknown name, unreadable file, a malformed field, a face that is not letters of the
        alphabet, or dice made for another language than the alphabet's (one line, naming the file).
    """
    data, source = read_shape("dice", ref, field_name=field_name)
    rows, cols, faces = data.get("rows"), data.get("cols"), data.get("dice")
    if not (isinstance(rows, int) and isinstance(cols, int) and rows >= 1 and cols >= 1) \
            or isinstance(rows, bool) or isinstance(cols, bool):
        raise InputError("a dice file needs 'rows' and 'cols', positive whole numbers", source=source)
    if not isinstance(faces, list) or len(faces) != rows * cols:
        raise InputError(f"'dice' must list {rows * cols} dice, one for each cell of the {rows}x{cols} board"
                         + (f" (it lists {len(faces)})" if isinstance(faces, list) else ""),
                         source=source, field="dice")
    language = data.get("language")
    if language is not None:
        known = language_name(str(language))
        if known is None:
            raise InputError("unknown language", source=source, field="language", value=language)
        if known != alphabet.language:
            raise InputError(f"these are {known} dice and the dictionary is {alphabet.language}; use dice made "
                             "for its language (a dice file of your own, see docs/ruzzle.md)", field=field_name,
                             value=str(ref))
    dice = []
    for i, die in enumerate(faces):
        sides = die.split() if isinstance(die, str) else None
        if not sides:
            raise InputError("a die is a line of faces separated by spaces, e.g. 'h i m n qu u'",
                             source=source, field=f"dice[{i}]", value=die)
        folded = []
        for face in sides:
            text = alphabet.fold(face)
            if not alphabet.is_word(text):
                raise InputError(f"face {face!r} is not letters {alphabet.describe()}", source=source,
                                 field=f"dice[{i}]", value=die)
            folded.append(text)
        dice.append(tuple(folded))
    return DiceSet(str(ref), rows, cols, tuple(dice), None if language is None else language_name(str(language)))


def roll(dice: DiceSet, seed: int) -> list[list[str]]:
    """A board rolled from the dice: every die in a random cell, showing a random face (by ``seed``)."""
    rng = random.Random(seed)
    order = list(dice.dice)
    rng.shuffle(order)
    tiles = [rng.choice(die) for die in order]
    return [tiles[r * dice.cols:(r + 1) * dice.cols] for r in range(dice.rows)]


def rollable(dice: DiceSet, board: list[list[str]]) -> bool:
    """Whether ``board`` (rows of tiles) can be rolled with ``dice``: its shape, and a die for each
    cell that has the cell's tile on a face, no die used twice."""
    flat = [t for row in board for t in row]
    if len(board) != dice.rows or any(len(row) != dice.cols for row in board):
        return False
    able = [[d for d, die in enumerate(dice.dice) if tile in die] for tile in flat]
    owner: list[int | None] = [None] * len(dice.dice)  # die -> the cell it is given to

    def place(cell: int, seen: set[int]) -> bool:
        for d in able[cell]:
            if d in seen:
                continue
            seen.add(d)
            holder = owner[d]
            if holder is None or place(holder, seen):
                owner[d] = cell
                return True
        return False

    return all(place(cell, set()) for cell in range(len(flat)))
