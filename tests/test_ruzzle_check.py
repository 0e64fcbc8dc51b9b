"""The all-at-once Ruzzle checker (``check_all``) finds exactly what the one-word checker finds."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords import api
from cpwords.puzzles.loading import parse_spec
from cpwords.puzzles.ruzzle.check import check, check_all
from cpwords.puzzles.ruzzle.solution import RuzzleSolution
from cpwords.results import Result

WORDS = ["cat", "cats", "act", "acts", "scat", "east", "eats", "seat", "sat", "set", "tea", "teas", "ate", "eta",
         "sea", "seas", "tat", "tats", "state", "taste", "quit", "quite", "quiet", "suit", "sect", "case", "aces",
         "in", "inn", "tin", "tint", "then", "the", "thin", "at", "as", "is", "it", "its"]
LAYOUTS = [None, {"DW": [[1, 1]], "TL": [[2, 2]]}, "ruzzle-4x4",
           {"DL": [[1, 2], [3, 3]], "TL": [[2, 1]], "DW": [[2, 3]], "TW": [[4, 4]]}]


def _solve(grid: list[str], scoring: str = "ruzzle", bonuses: object = None, **extra: object) -> tuple[object, Result]:
    data = {"kind": "ruzzle", "grid": grid, "scoring": scoring, "dictionary": {"words": WORDS}, "seed": 1, **extra}
    if bonuses is not None:
        data["bonuses"] = bonuses
    spec = parse_spec(data)
    return spec, api.solve(spec, check=False)


def _one_by_one(spec: object, solutions: list[RuzzleSolution]) -> dict[int, list[str]]:
    return {i: found for i, s in enumerate(solutions) if (found := check(spec, s))}


def _broken(rng: random.Random, s: RuzzleSolution, rows: int, cols: int) -> RuzzleSolution:
    """One solution with one random fault (or none)."""
    d = s.model_dump()
    fault = rng.randrange(11)
    if fault == 0:
        d["score"] += rng.choice([-1, 1, 5])
    elif fault == 1 and len(d["path"]) > 1:
        d["path"] = d["path"][::-1]  # spells the word backwards (right only for palindromes)
    elif fault == 2:
        d["path"] = [*d["path"], list(d["path"][0])]  # a cell twice
    elif fault == 3:
        d["path"][rng.randrange(len(d["path"]))] = [rng.randint(0, rows + 1), rng.randint(0, cols + 1)]
    elif fault == 4:
        d["path"] = []
    elif fault == 5:
        d["words"] = [d["word"], "extra"]
    elif fault == 6:
        d["word"] = d["words"][0] = d["word"] + "s"
    elif fault == 7:
        d["path"] = [[r + 1, c] for r, c in d["path"]]  # the same shape one row lower
    elif fault == 8 and len(d["path"]) > 2:
        d["path"][0], d["path"][1] = d["path"][1], d["path"][0]
    elif fault == 9:
        d["path"] = [[r, c, 1] for r, c in d["path"]]  # not [row, col] pairs
    return RuzzleSolution(**d)


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 10**6), rows=st.integers(2, 4), cols=st.integers(2, 4), layout=st.sampled_from(LAYOUTS),
       scoring=st.sampled_from(["ruzzle", "boggle", "none"]), qu=st.booleans())
def test_check_all_agrees_with_the_one_word_checker(seed: int, rows: int, cols: int, layout: object, scoring: str,
                                                    qu: bool) -> None:
    rng = random.Random(seed)
    tiles = [rng.choice("aestcu" if not qu else ["a", "e", "s", "t", "qu", "i", "u"]) for _ in range(rows * cols)]
    grid = [" ".join(tiles[r * cols:(r + 1) * cols]) for r in range(rows)]
    if layout == "ruzzle-4x4" and (rows, cols) != (4, 4):
        layout = None
    if isinstance(layout, dict):
        layout = {k: [c for c in v if c[0] <= rows and c[1] <= cols] for k, v in layout.items()}
    spec, result = _solve(grid, scoring, layout)
    solutions = list(result.solutions)
    assert check_all(spec, solutions) == {} == _one_by_one(spec, solutions)
    broken = [_broken(rng, s, rows, cols) for s in solutions]
    assert check_all(spec, broken) == _one_by_one(spec, broken)


def test_a_path_that_is_not_the_best_is_found_among_many() -> None:
    # Three s squares on bonuses of different kinds: the checker must search the other paths.
    spec, result = _solve(["cats", "esat", "tase", "seat"], bonuses={"TW": [[1, 4]], "TL": [[3, 4]], "DL": [[2, 2]]})
    solutions = list(result.solutions)
    assert check_all(spec, solutions) == {}
    flagged = 0
    for i, s in enumerate(solutions):
        others = [p for p in _paths_of(spec, s.word) if p != s.path]
        for path in others:
            worse = RuzzleSolution(**{**s.model_dump(), "path": path, "score": _score(spec, s.word, path)})
            found = check_all(spec, [*solutions[:i], worse, *solutions[i + 1:]])
            assert found == _one_by_one(spec, [*solutions[:i], worse, *solutions[i + 1:]])
            flagged += bool(found)
    assert flagged > 10


def test_boards_the_array_check_leaves_to_the_one_word_checker() -> None:
    # "q" and "qu" both on the board: a word may split into tiles two ways.
    spec, result = _solve(["q u i t", "qu e t s", "a s e a"], bonuses={"TW": [[1, 1]], "DL": [[2, 1]]})
    assert result.count > 5 and check_all(spec, result.solutions) == {}
    bad = [RuzzleSolution(**{**s.model_dump(), "score": s.score + 1}) for s in result.solutions]
    assert check_all(spec, bad) == _one_by_one(spec, bad) and len(check_all(spec, bad)) == len(bad)
    # 8x8: more cells than the array search's masks hold.
    rng = random.Random(4)
    grid = ["".join(rng.choice("aestc") for _ in range(8)) for _ in range(8)]
    spec, result = _solve(grid, bonuses={"TW": [[1, 1]], "DL": [[5, 5]]})
    assert result.count > 5 and check_all(spec, result.solutions) == {}
    bad = [RuzzleSolution(**{**s.model_dump(), "score": s.score - 1}) for s in result.solutions[:20]]
    assert check_all(spec, bad) == _one_by_one(spec, bad)


def test_best_board_answers_are_checked_on_their_own_grid() -> None:
    spec = parse_spec({"kind": "ruzzle", "task": "best_board", "grid": ["xxx", "xxx", "xxx"], "iterations": 80,
                       "dictionary": {"words": WORDS}, "bonuses": {"DW": [[2, 2]]}, "seed": 3})
    result = api.solve(spec)
    assert result.solved and result.solutions and check_all(spec, result.solutions) == {}
    moved = [RuzzleSolution(**{**s.model_dump(), "grid": ["zzz"] * 3}) for s in result.solutions]
    assert set(check_all(spec, moved)) == set(range(len(moved)))


def test_api_reports_a_wrong_answer_found_by_the_all_at_once_check(monkeypatch: pytest.MonkeyPatch) -> None:
    from cpwords.puzzles.ruzzle import solve as ruzzle_solve

    real = ruzzle_solve.word_solutions

    def one_wrong(*args: object, **kwargs: object) -> list[RuzzleSolution]:
        out = real(*args, **kwargs)  # type: ignore[arg-type]
        out[-1] = RuzzleSolution(**{**out[-1].model_dump(), "score": out[-1].score + 1})
        return out

    monkeypatch.setattr(ruzzle_solve, "word_solutions", one_wrong)
    result = api.solve({"kind": "ruzzle", "grid": ["cats", "eats"], "dictionary": {"words": WORDS}, "seed": 1})
    assert result.status == "error" and f"solution {result.count}:" in (result.message or "")


def _paths_of(spec: object, word: str) -> list[list[list[int]]]:
    from cpwords.puzzles.ruzzle.board import parse_row
    from cpwords.puzzles.ruzzle.check import _all_paths

    tiles = [parse_row(row) for row in spec.grid]  # type: ignore[attr-defined]
    return [[list(cell) for cell in p] for p in _all_paths(word, tiles)]


def _score(spec: object, word: str, path: list[list[int]]) -> int:
    from cpwords.puzzles.ruzzle.board import parse_row
    from cpwords.puzzles.ruzzle.check import _points

    tiles = [parse_row(row) for row in spec.grid]  # type: ignore[attr-defined]
    return _points([(r, c) for r, c in path], tiles, spec.bonus_cells(), "ruzzle")  # type: ignore[attr-defined]
