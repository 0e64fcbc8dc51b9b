"""Solving a Ruzzle spec: build the board, run the engine's task, build the one Result."""

from __future__ import annotations

import time
from typing import Any

from cpwords import puzzles
from cpwords.engines.budget import Budget
from cpwords.lexicon import load_lexicon
from cpwords.puzzles.ruzzle.board import Board, path_score
from cpwords.puzzles.ruzzle.engines.common import RuzzleProblem
from cpwords.puzzles.ruzzle.solution import RuzzleSolution
from cpwords.puzzles.ruzzle.spec import RuzzleSpec
from cpwords.results import Result


def solve(spec: RuzzleSpec, budget: Budget) -> Result:
    """Solve a ``kind: ruzzle`` spec (see :mod:`cpwords.puzzles.ruzzle.spec`) within ``budget``.

    Raises
    ------
    InputError
        For an unknown dictionary, or a board too large for exact path counting.
    """
    t0 = time.perf_counter()
    board = Board.from_tiles(spec.tiles(), spec.bonus_cells())
    lexicon = None if spec.task == "count_paths" else load_lexicon(spec.dictionary)
    stats: dict[str, Any] = {"prepare_s": round(time.perf_counter() - t0, 6)}
    if lexicon is not None:
        stats |= {"dictionary": spec.dictionary.label(), "dictionary_words": len(lexicon)}
    found = puzzles.get(spec.kind).run(RuzzleProblem(board, lexicon), spec, budget)
    if spec.task == "best_board":
        board = board.with_tiles(_tiles_of(found.stats["grid"], board))
    solutions = word_solutions(board, dict(found.answers), spec.scoring, with_grid=spec.task == "best_board")
    if spec.task != "count_paths":
        found.count = len(solutions)
        if spec.scoring != "none":
            found.objective = sum(s.score for s in solutions)
    infeasible = (f"no word of {spec.dictionary.label()} with at least {spec.min_letters()} letters "
                  "can be traced on this board")
    result = Result.from_search(spec, found, solutions, infeasible=infeasible, what="word", stats=stats)
    if spec.task == "best_board":
        result.count_exact = True  # the words of the board found are all listed
    return result


def _tiles_of(rows: list[str], board: Board) -> list[str]:
    from cpwords.puzzles.ruzzle.board import parse_row

    return [t for row in rows for t in parse_row(row)]


def word_solutions(board: Board, found: dict[str, tuple[int, ...]], scoring: str, *,
                   with_grid: bool = False) -> list[RuzzleSolution]:
    """Solutions for the words found, best score first, then longest, then alphabetically."""
    grid = board.row_strings() if with_grid else None
    out = [
        RuzzleSolution(words=[word], word=word, path=[board.row_col(c) for c in path],
                       score=path_score(board, path, scoring), grid=grid)
        for word, path in found.items()
    ]
    out.sort(key=lambda s: (-s.score, -len(s.word), s.word))
    return out
