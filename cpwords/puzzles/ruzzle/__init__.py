"""Ruzzle / Boggle: every word on a letter board, path counts, and a search for rich boards.

>>> import cpwords
>>> result = cpwords.solve({"kind": "ruzzle", "grid": ["cat", "ase", "tsn"],
...                         "dictionary": {"words": ["cat", "cats", "east", "seat"]}})  # doctest: +SKIP
>>> [s.word for s in result.solutions]  # doctest: +SKIP
['cats', 'east', 'seat', 'cat']
"""

from __future__ import annotations

import time
from typing import Any

from cpwords.errors import InputError
from cpwords.results import Result, Status

ENGINES = ("native",)

# Per-process indexes of a dictionary, keyed by (algorithm, lexicon content hash).
_INDEXES: dict[tuple[str, str], Any] = {}


def word_finder(algorithm: str, lexicon) -> tuple[Any, dict[str, Any]]:
    """A function ``find(board, min_letters=, scoring=) -> {word: path}`` for ``algorithm``, and load figures.

    The trie is read from the lexicon cache (built once per dictionary); the active and
    enumerate indexes are built in memory once per process.
    """
    key = (algorithm, lexicon.content_hash)
    t0 = time.perf_counter()
    stats: dict[str, Any] = {}
    index = _INDEXES.get(key)
    if algorithm == "trie":
        from cpwords.puzzles.ruzzle.trie import load_trie, trie_words

        if index is None:
            index, stats = load_trie(lexicon)

        def find(board, *, min_letters, scoring):
            return trie_words(board, index, min_letters=min_letters, scoring=scoring)
    elif algorithm == "active":
        from cpwords.puzzles.ruzzle.active import DictionaryIndex, active_words

        if index is None:
            index = DictionaryIndex(lexicon)

        def find(board, *, min_letters, scoring):
            return active_words(board, index, min_letters=min_letters, scoring=scoring)
    else:
        from cpwords.puzzles.ruzzle.paths import HashedDictionary, enumerate_words

        if index is None:
            index = HashedDictionary(lexicon)

        def find(board, *, min_letters, scoring):
            found, walked = enumerate_words(board, index, min_letters=min_letters, scoring=scoring)
            stats["paths_walked"] = sum(walked.values())
            return found
    if len(_INDEXES) >= 4:
        _INDEXES.pop(next(iter(_INDEXES)))
    _INDEXES[key] = index
    stats["index_s"] = round(time.perf_counter() - t0, 6)
    return find, stats


def solve(spec) -> Result:
    """Solve a ``kind: ruzzle`` spec (see :mod:`cpwords.puzzles.ruzzle.spec`).

    Raises
    ------
    InputError
        For an unknown dictionary, or a board too large for exact path counting.
    """
    if spec.task == "count_paths":
        return _count_paths(spec)
    from cpwords.lexicon import load_lexicon
    from cpwords.puzzles.ruzzle.board import Board

    lexicon = load_lexicon(spec.dictionary)
    board = Board.from_tiles(spec.tiles(), spec.bonus_cells())
    find, stats = word_finder(spec.algorithm, lexicon)
    stats["algorithm"] = spec.algorithm
    stats["dictionary_words"] = len(lexicon)
    if spec.task == "best_board":
        from cpwords.puzzles.ruzzle.annealing import best_board

        board, search_stats = best_board(spec, board, lexicon)
        stats.update(search_stats)
    t0 = time.perf_counter()
    found = find(board, min_letters=spec.min_letters(), scoring=spec.scoring)
    stats["search_s"] = round(time.perf_counter() - t0, 6)
    solutions = word_solutions(board, found, spec.scoring, with_grid=spec.task == "best_board")
    total = sum(s.score for s in solutions)
    status = Status.FEASIBLE if spec.task == "best_board" else Status.OPTIMAL
    message = None
    if not solutions:
        status = Status.INFEASIBLE
        message = (f"no word of {spec.dictionary.label()} with at least {spec.min_letters()} letters "
                   "can be traced on this board")
    if spec.task == "best_board":
        stats["grid"] = board.row_strings()
    return Result(kind="ruzzle", status=status, engine=spec.engine, task=spec.task, solutions=solutions,
                  count=len(solutions), count_exact=True,
                  objective=total if spec.scoring != "none" else None, stats=stats, message=message)


def word_solutions(board, found: dict[str, tuple[int, ...]], scoring: str, *, with_grid: bool = False) -> list:
    """Solutions for the words found, best score first, then alphabetically."""
    from cpwords.puzzles.ruzzle.board import path_score
    from cpwords.puzzles.ruzzle.solution import RuzzleSolution

    grid = board.row_strings() if with_grid else None
    out = [
        RuzzleSolution(words=[word], word=word, path=[board.row_col(c) for c in path],
                       score=path_score(board, path, scoring), grid=grid)
        for word, path in found.items()
    ]
    out.sort(key=lambda s: (-s.score, -len(s.word), s.word))
    return out


def _count_paths(spec) -> Result:
    from cpwords.puzzles.ruzzle.paths import MAX_COUNT_CELLS, count_paths

    rows, cols = spec.shape()
    if rows * cols > MAX_COUNT_CELLS:
        raise InputError(f"exact path counting handles boards of at most {MAX_COUNT_CELLS} cells "
                         f"(this one has {rows * cols})", field="grid")
    by_length = count_paths(rows, cols)
    total = sum(n for k, n in by_length.items() if k >= 2)
    return Result(kind="ruzzle", status=Status.OPTIMAL, engine=spec.engine, task="count_paths", count=total,
                  count_exact=True, stats={"rows": rows, "cols": cols,
                                           "paths_by_length": {str(k): n for k, n in by_length.items()}})
