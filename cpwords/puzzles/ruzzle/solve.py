"""A Ruzzle spec's two hooks of the registry's pipeline: build the board; turn what the engine found
into the one Result."""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.lexicon import lexicon_for
from cpwords.puzzles import Prepared
from cpwords.puzzles.ruzzle.board import Board, parse_row
from cpwords.puzzles.ruzzle.engines.common import RuzzleProblem
from cpwords.puzzles.ruzzle.solution import RuzzleSolution
from cpwords.puzzles.ruzzle.spec import RuzzleSpec
from cpwords.results import Result
from cpwords.wording import counted

#: An engine's answer: a word, its path (0-based cells) and its points on that path.
Answer = tuple[str, tuple[int, ...], int]


def prepare(spec: RuzzleSpec, budget: Budget | None = None) -> Prepared:
    """The board and the dictionary (none for counting paths).

    Raises
    ------
    InputError
        For an unknown dictionary, or a board too large for exact path counting.
    """
    board = Board.from_tiles(spec.tiles(), spec.bonus_cells(), spec.alphabet())
    lexicon = None if spec.task == "count_paths" else lexicon_for(spec)
    stats: dict[str, Any] = {}
    if lexicon is not None:
        stats |= {"dictionary": spec.dictionary.label(), "dictionary_words": len(lexicon)}
    return Prepared(RuzzleProblem(board, lexicon), stats)


def result(spec: RuzzleSpec, problem: RuzzleProblem, found: Found, stats: dict[str, Any], budget: Budget) -> Result:
    """The Result of what the engine found: every word with its best path, best score first."""
    board = problem.board
    if spec.task == "best_board" and "grid" in found.stats:
        board = board.with_tiles([t for row in found.stats["grid"] for t in parse_row(row)])
    solutions = word_solutions(board, found.answers, with_grid=spec.task == "best_board")
    if spec.task != "count_paths":
        found.count = len(solutions)
        if spec.scoring != "none":
            found.objective = sum(s.score for s in solutions)
    infeasible = "" if solutions else (f"no word of {spec.dictionary.label()} with at least "
                                       f"{counted(spec.min_letters(), 'letter')} can be traced on this board")
    outcome = Result.from_search(spec, found, solutions, infeasible=infeasible, what="word", stats=stats)
    if spec.task == "best_board":
        outcome.count_exact = True  # the words of the board found are all listed
    return outcome


def word_solutions(board: Board, answers: Iterable[Answer], *, with_grid: bool = False) -> list[RuzzleSolution]:
    """Solutions for the engine's answers, best score first, then longest, then alphabetically.

    ``with_grid`` puts the board's rows in every solution (``best_board``: not the spec's grid).
    """
    grid = board.row_strings() if with_grid else None
    cols = board.cols
    cells = [(c // cols + 1, c % cols + 1) for c in range(board.size)]
    # Two stable sorts with keys computed in C where they can be: alphabetically, then by
    # score and length (a word is at most a few hundred letters: score · 4096 + length orders both).
    ordered = sorted(answers, key=itemgetter(0))
    ordered.sort(key=lambda a: -(a[2] << 12 | len(a[0])))
    cell = cells.__getitem__
    # The engines' data are already of the fields' types: no validation (a board has hundreds of words).
    return RuzzleSolution.trusted_many(
        {"words": [word], "word": word, "path": list(map(list, map(cell, path))), "score": score,
         "grid": None if grid is None else list(grid)}
        for word, path, score in ordered)
