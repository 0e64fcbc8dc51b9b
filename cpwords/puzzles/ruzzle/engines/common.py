"""What the Ruzzle engines share: the problem they work on and per-process dictionary indexes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cpwords.lexicon import Lexicon
from cpwords.puzzles.ruzzle.board import Board, path_score

# Per-process indexes of a dictionary, keyed by (engine, lexicon content hash).
_INDEXES: dict[tuple[str, str], Any] = {}


@dataclass
class RuzzleProblem:
    """A board and the words that count on it (``lexicon`` is None for ``count_paths``)."""

    board: Board
    lexicon: Lexicon | None


def cached_index(engine: str, lexicon: Lexicon, build: Callable[[], Any]) -> tuple[Any, bool]:
    """The engine's index of ``lexicon``, built once per process (a few kept); and whether it was built now."""
    key = (engine, lexicon.content_hash)
    if key in _INDEXES:
        return _INDEXES[key], False
    index = build()
    if len(_INDEXES) >= 8:
        _INDEXES.pop(next(iter(_INDEXES)))
    _INDEXES[key] = index
    return index, True


def scored(board: Board, found: dict[str, tuple[int, ...]], scoring: str) -> list[tuple[str, tuple[int, ...], int]]:
    """The engines' answers: ``(word, path, points)`` for each word found with its path."""
    return [(word, path, path_score(board, path, scoring)) for word, path in found.items()]
