"""Independent checker of word grids: re-checks an answer from the rules alone.

Every slot holds a dictionary word, crossings agree (the answer is a grid of letters, so they
agree by construction once each slot is read from it), given letters are kept, words are all
different when asked, and for ``unscramble`` the answer uses exactly the scrambled letters, keeps
the fixed cells and the swap sequence turns the scrambled grid into the answer. For ``puzzle`` the
same of the board (``scrambled``) and its swaps, with exactly ``par`` swaps, and the colours
recomputed from the documented rule. (That the answer is unique and par the fewest is what the
engines prove; the tests re-prove both by brute force.)
"""

from __future__ import annotations

import os
from collections import Counter
from functools import lru_cache
from pathlib import Path

from cpwords.errors import InputError
from cpwords.geometry import GridShape, load_grid
from cpwords.wording import counted


def _shape(name: str | Path) -> tuple[GridShape, list[tuple[str, list[tuple[int, int]]]]]:
    """The shape and its slots, parsed once per name and file version (a listing checks
    thousands of grids)."""
    try:
        version = os.stat(name).st_mtime_ns if os.path.isfile(name) else None
    except OSError:
        version = None
    return _parsed_shape(name, version)


@lru_cache(maxsize=8)
def _parsed_shape(name: str | Path, version: int | None) -> tuple[GridShape, list[tuple[str, list[tuple[int, int]]]]]:
    shape = load_grid(name)
    return shape, [(direction, list(run)) for direction, run in shape.slots()]


@lru_cache(maxsize=8)
def _pattern(shape: GridShape) -> list[list[bool]]:
    """Per row, whether each cell is open."""
    return [[shape.is_open(r, c) for c in range(shape.width)] for r in range(shape.height)]


def check(spec, solution) -> list[str]:
    """Rule violations of one word-grid answer (empty when it is right)."""
    from cpwords.lexicon import load_lexicon

    problems: list[str] = []
    rows = getattr(solution, "rows", None)
    if not rows:
        return ["the answer has no rows"]
    try:
        shape, slots = _shape(spec.shape)
    except InputError as exc:
        return [f"cannot load the shape: {exc.one_line()}"]
    if len(rows) != shape.height or any(len(r) != shape.width for r in rows):
        return [f"the grid is not {shape.height}x{shape.width}"]
    pattern = _pattern(shape)
    letters = spec.alphabet().index  # the dictionary's letters (a-z in English)
    for r, (row, open_row) in enumerate(zip(rows, pattern, strict=True)):
        for c, (ch, is_open) in enumerate(zip(row, open_row, strict=True)):
            if is_open and ch not in letters:
                problems.append(f"open cell [{r + 1}, {c + 1}] holds {ch!r}, not a letter")
            if not is_open and ch != "#":
                problems.append(f"black cell [{r + 1}, {c + 1}] holds {ch!r}")
    if problems:
        return problems
    lexicon = load_lexicon(spec.dictionary)
    words = ["".join(rows[r][c] for r, c in run) for _, run in slots]
    for (direction, run), word in zip(slots, words, strict=True):
        if word not in lexicon:
            problems.append(f"{direction} slot at [{run[0][0] + 1}, {run[0][1] + 1}] holds {word!r}, not in the dictionary")
    if spec.distinct_words:
        repeated = sorted(w for w, n in Counter(words).items() if n > 1)
        if repeated:
            problems.append(f"words repeat: {', '.join(repeated)}")
    if list(solution.words) != words:
        problems.append(f"listed words {solution.words} differ from the grid's slots {words}")
    if spec.given:
        for r, row in enumerate(spec.given):
            for c, ch in enumerate(row):
                if ch in letters and rows[r][c] != ch:
                    problems.append(f"given letter {ch!r} at [{r + 1}, {c + 1}] is {rows[r][c]!r} in the answer")
    if spec.task == "unscramble":
        problems.extend(_check_unscramble(spec.scrambled, shape, rows, solution))
    if spec.task == "puzzle":
        problems.extend(_check_puzzle(shape, slots, rows, solution))
    return problems


def _check_puzzle(shape, slots, rows: list[str], solution) -> list[str]:
    board = getattr(solution, "scrambled", None)
    if not board or len(board) != len(rows) or any(len(a) != len(b) for a, b in zip(board, rows, strict=True)):
        return ["the puzzle has no board of the grid's size"]
    problems = _check_unscramble(board, shape, rows, solution)
    if len(solution.swaps or []) != solution.par:
        problems.append(f"{counted(len(solution.swaps or []), 'swap')} listed for par {solution.par}")
    if solution.colors != puzzle_colours(slots, rows, board):
        problems.append(f"colours {solution.colors} differ from the rule's {puzzle_colours(slots, rows, board)}")
    return problems


def puzzle_colours(slots, rows: list[str], board: list[str]) -> list[str]:
    """The colours of a puzzle board by the rule of docs/word_grid.md: green where the board holds
    the answer's letter; else, per word through the cell, Wordle's rule over the word's
    non-green cells in reading order (yellow while the letter is left among the answer letters
    of those cells); yellow for either word, else grey; ``#`` on black cells."""
    out = [["#" if ch == "#" else ("g" if ch == a else "-") for ch, a in zip(b, r, strict=True)]
           for b, r in zip(board, rows, strict=True)]
    for _, run in slots:
        left = Counter(rows[r][c] for r, c in run if out[r][c] != "g")
        for r, c in run:
            if out[r][c] != "g" and left[board[r][c]] > 0:
                left[board[r][c]] -= 1
                out[r][c] = "y"
    return ["".join(row) for row in out]


def _check_unscramble(board: list[str], shape, rows: list[str], solution) -> list[str]:
    problems = []
    scrambled = [list(r) for r in board]
    if Counter("".join(board)) != Counter("".join(rows)):
        problems.append("the answer does not use exactly the scrambled letters")
    for r, c in shape.fixed:
        if rows[r - 1][c - 1] != board[r - 1][c - 1]:
            problems.append(f"fixed cell [{r}, {c}] changed")
    fixed = set(shape.fixed)
    for k, pair in enumerate(solution.swaps or []):
        try:
            (r1, c1), (r2, c2) = pair
        except (TypeError, ValueError):
            problems.append(f"swap {k + 1} is not a pair of [row, col] cells")
            continue
        if not (shape.is_open(r1 - 1, c1 - 1) and shape.is_open(r2 - 1, c2 - 1)) or (r1, c1) in fixed or (r2, c2) in fixed:
            problems.append(f"swap {k + 1} moves a black or fixed cell")
            continue
        scrambled[r1 - 1][c1 - 1], scrambled[r2 - 1][c2 - 1] = scrambled[r2 - 1][c2 - 1], scrambled[r1 - 1][c1 - 1]
    if ["".join(r) for r in scrambled] != rows:
        problems.append("the swaps do not turn the scrambled grid into the answer")
    return problems
