"""The annealing search for rich boards: one chain per seed, whatever scores the boards and however
many are scored together."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from pace import HANG_S

from cpwords import api, verify
from cpwords.engines.budget import Budget
from cpwords.lexicon import load_lexicon
from cpwords.puzzles.loading import parse_spec
from cpwords.puzzles.ruzzle import annealing
from cpwords.puzzles.ruzzle.annealing import best_board, bonus_cells_of
from cpwords.puzzles.ruzzle.board import Board
from cpwords.puzzles.ruzzle.scoring import BoardScorer


def _spec(**extra: object) -> object:
    return parse_spec({"kind": "ruzzle", "task": "best_board", "grid": ["rat", "son", "lei"], "iterations": 300,
                       "dictionary": "common-10k", "seed": 11, **extra})


@pytest.mark.parametrize("extra", [
    {},
    {"scoring": "boggle"},
    {"scoring": "none", "min_word_length": 4},
    {"bonuses": {"TW": [[1, 1]], "DL": [[2, 2]], "TL": [[3, 3]]}, "seed": 5},
    {"grid": ["r a t", "s qu n", "l e i"], "bonuses": {"DW": [[2, 2]]}, "seed": 2},
])
def test_the_array_scorer_makes_the_same_chain_as_the_trie_walk(extra: dict[str, object]) -> None:
    spec = _spec(**extra)
    start = Board.from_tiles(spec.tiles(), spec.bonus_cells())  # type: ignore[attr-defined]
    lexicon = load_lexicon(spec.dictionary)  # type: ignore[attr-defined]
    fast, fast_stats = best_board(spec, start, lexicon, Budget(None))
    slow, slow_stats = best_board(spec, start, lexicon, Budget(None), scorer="reference")
    assert fast.tiles == slow.tiles
    for key in ("start_value", "best_value", "moves", "accepted"):
        assert fast_stats[key] == slow_stats[key], key
    assert fast_stats["moves"] == 300 and fast_stats["best_value"] > fast_stats["start_value"]
    assert fast_stats["boards_scored"] >= slow_stats["boards_scored"]  # batches score some boards in vain
    scorer = BoardScorer(lexicon, scoring=spec.scoring, min_letters=spec.min_letters(), rows=3, cols=3,  # type: ignore[attr-defined]
                         bonus_cells=spec.bonus_cells())  # type: ignore[attr-defined]
    assert scorer.score(fast) == scorer.reference_score(fast) == fast_stats["best_value"]


@pytest.mark.parametrize("cycle", [None, 90])
def test_the_chain_does_not_depend_on_the_batch_size(monkeypatch: pytest.MonkeyPatch, cycle: int | None) -> None:
    spec = _spec(iterations=400)
    start = Board.from_tiles(spec.tiles(), spec.bonus_cells())  # type: ignore[attr-defined]
    lexicon = load_lexicon(spec.dictionary)  # type: ignore[attr-defined]
    runs = []
    for size in (1, 3, 64):
        monkeypatch.setattr(annealing, "_batch_size", lambda taken, size=size: size)
        runs.append(best_board(spec, start, lexicon, Budget(None), cycle_moves=cycle))
    assert len({board.tiles for board, _ in runs}) == 1
    assert len({(s["best_value"], s["accepted"]) for _, s in runs}) == 1
    assert runs[0][1]["boards_scored"] < runs[2][1]["boards_scored"]
    assert runs[0][1]["cycles"] == (1 if cycle is None else 5)  # 400 moves: 4 cycles of 90, one of 40


def test_cycles_restart_from_the_best_board_and_match_the_trie_walk() -> None:
    spec = _spec(iterations=600, bonuses={"TW": [[1, 1]], "DL": [[2, 2]]})
    start = Board.from_tiles(spec.tiles(), spec.bonus_cells())  # type: ignore[attr-defined]
    lexicon = load_lexicon(spec.dictionary)  # type: ignore[attr-defined]
    fast, fast_stats = best_board(spec, start, lexicon, Budget(None), cycle_moves=150)
    slow, slow_stats = best_board(spec, start, lexicon, Budget(None), scorer="reference", cycle_moves=150)
    assert fast.tiles == slow.tiles and fast_stats["best_value"] == slow_stats["best_value"]
    assert fast_stats["cycles"] == 4 and fast_stats["moves"] == 600
    # One cycle as long as the run is the single cooling (the search without cycles).
    one, one_stats = best_board(spec, start, lexicon, Budget(None), cycle_moves=600)
    plain, plain_stats = best_board(spec, start, lexicon, Budget(None), cycle_moves=None)
    assert one.tiles == plain.tiles and one_stats["accepted"] == plain_stats["accepted"]
    scorer = BoardScorer(lexicon, scoring=spec.scoring, min_letters=spec.min_letters(), rows=3, cols=3,  # type: ignore[attr-defined]
                         bonus_cells=spec.bonus_cells())  # type: ignore[attr-defined]
    assert scorer.reference_score(fast) == fast_stats["best_value"] >= fast_stats["start_value"]


def test_best_board_through_the_api_is_seeded_and_verified() -> None:
    spec = {"kind": "ruzzle", "task": "best_board", "grid": ["RATE", "SONI", "LEND", "TRAP"], "bonuses": "ruzzle-4x4",
            "dictionary": "common-10k", "iterations": 500, "seed": 9, "search": "anneal"}
    a, b = api.solve(spec), api.solve(spec)
    assert a.stats["grid"] == b.stats["grid"] and a.objective == b.objective == a.stats["best_value"]
    assert a.stats["scorer"] == "array" and a.stats["boards_per_s"] > 0
    assert a.objective > a.stats["start_value"] and verify.check(parse_spec(spec), a) == []
    other = api.solve({**spec, "seed": 10})
    assert other.stats["grid"] != a.stats["grid"]


def test_a_time_limit_stops_the_chain_with_the_best_so_far() -> None:
    """The limit comes at the chain's first progress report (after 50 moves or more) whatever the
    machine: the run's budget is stopped there, as its deadline would; the deadline guards a hang."""
    def stop_at_first_report(description: str, total: int | None = None) -> Iterator[Callable[[int], None]]:
        def advance(n: int = 1) -> None:
            if description.startswith("searching for a high-scoring board"):
                run.stop("time_limit")

        yield advance

    run = Budget(HANG_S, progress=contextmanager(stop_at_first_report))
    spec = {"kind": "ruzzle", "task": "best_board", "grid": ["abcd"] * 4, "dictionary": "common-10k",
            "iterations": 10_000_000, "seed": 1, "search": "anneal"}
    result = api.solve(spec, budget=run)
    assert result.status == "feasible" and result.stats["stopped_by_time"]
    assert 0 < result.stats["moves"] < 10_000_000 and result.objective == result.stats["best_value"]


def test_bonus_cells_of_round_trips() -> None:
    layout = {(1, 1): "DL", (2, 3): "TW", (3, 2): "DW", (1, 3): "TL"}
    assert bonus_cells_of(Board.from_tiles([["a"] * 3] * 3, layout)) == layout
