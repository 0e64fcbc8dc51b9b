"""Hill climbing for rich boards: the one-search neighbourhood equals scoring each neighbour, the
climb finds the brute-force optimum of small boards, and ENABLE2K scores the published best boards."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pace import HANG_S

from cpwords import api, verify
from cpwords.cli import main
from cpwords.engines.budget import Budget
from cpwords.lexicon import known_dictionaries, load_lexicon
from cpwords.puzzles.loading import parse_spec
from cpwords.puzzles.ruzzle import climb
from cpwords.puzzles.ruzzle.board import Board
from cpwords.puzzles.ruzzle.climb import alphabet_of, climb_board, symmetries
from cpwords.puzzles.ruzzle.compiled import CompiledNeighbourhood, available, compiled_ready
from cpwords.puzzles.ruzzle.neighbourhood import Neighbourhood
from cpwords.puzzles.ruzzle.scoring import BoardScorer

#: danvk/hybrid-boggle's best boards for ENABLE2K (Boggle scoring): the first three proven optimal.
PUBLISHED = [(["str", "eae", "dlp"], 545), (["pers", "late", "sind"], 1651),
             (["pers", "latg", "sine", "ters"], 3625), (["ligdr", "manes", "ietil", "dsrac", "sepes"], 10406)]
ENABLE2K = {"name": "enable2k", "exclude": []}
LAYOUTS = [{}, {(1, 1): "TW", (2, 2): "DL"}, {(1, 2): "DW", (2, 1): "TL", (2, 3): "DL"}]

neighbourhoods = [Neighbourhood] + ([CompiledNeighbourhood] if available() else [])


def _words(rng: random.Random, letters: str, count: int) -> list[str]:
    return sorted({"".join(rng.choice(letters) for _ in range(rng.randint(2, 5))) for _ in range(count)})


def test_enable2k_is_built_in_with_its_notice() -> None:
    lex = load_lexicon("enable2k")
    assert len(lex) == 173_528 and "enable2k" in known_dictionaries()
    assert "qaid" in lex and "aa" in lex and "streaedlp" not in lex
    from importlib import resources

    notice = resources.files("cpwords.lexicon.data").joinpath("LICENSE-ENABLE2K.txt").read_text()
    assert "PUBLIC DOMAIN" in notice and "build_enable2k.py" in notice


def test_dict_info_enable2k(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dict", "info", "enable2k", "--json"]) == 0
    assert '"words": 173528' in capsys.readouterr().out


@pytest.mark.parametrize(("grid", "points"), PUBLISHED, ids=[str(p) for _, p in PUBLISHED])
def test_published_boards_score_as_published(grid: list[str], points: int) -> None:
    spec = parse_spec({"kind": "ruzzle", "grid": grid, "scoring": "boggle", "dictionary": ENABLE2K})
    result = api.solve(spec)
    assert result.objective == points and verify.check(spec, result) == []


def _random_scorer(rng: random.Random, shapes: list[tuple[int, int]], count: int) -> tuple[BoardScorer, list[str]]:
    """A scorer of a random shape, scoring, bonus layout and minimum length over up to ``count``
    random words of ``abcequ`` (and three ``qu`` words), and its alphabet."""
    rows, cols = rng.choice(shapes)
    scoring = rng.choice(["boggle", "ruzzle", "none"])
    words = _words(rng, "abcequ", count) + ["quad", "equa", "aqua"]
    layout = {k: v for k, v in rng.choice(LAYOUTS).items() if k[0] <= rows and k[1] <= cols}
    scorer = BoardScorer(words, scoring=scoring, min_letters=rng.choice([1, 2, 3]), rows=rows, cols=cols,
                         bonus_cells=layout)
    return scorer, alphabet_of(words)


@pytest.mark.parametrize("hood_class", neighbourhoods)
@pytest.mark.parametrize("case", range(12))
def test_neighbourhood_equals_scoring_each_changed_board(hood_class: type, case: int) -> None:
    rng = random.Random(case)
    scorer, alphabet = _random_scorer(rng, [(2, 2), (2, 3), (3, 3), (3, 4)], 300)
    rows, cols = scorer.rows, scorer.cols
    assert "qu" in alphabet and "q" not in alphabet
    hood = hood_class(scorer, alphabet)
    boards = [tuple(rng.choice(alphabet) for _ in range(rows * cols)) for _ in range(3)]
    base, change = hood.scores(boards)
    for b, board in enumerate(boards):
        assert base[b] == scorer.score(list(board))
        for cell, c in itertools.product(range(rows * cols), range(26)):
            tile = hood.tile_of.get(c)
            if tile is None or board[cell][0] == tile[0]:
                assert change[b, cell, c] == -1
                continue
            changed = list(board)
            changed[cell] = tile
            assert change[b, cell, c] == scorer.score(changed), (board, cell, tile)


@pytest.mark.skipif(not available(), reason="numba is not installed")
@pytest.mark.parametrize("case", range(12))
def test_compiled_whole_board_walk_equals_the_array_scorer(case: int) -> None:
    """The lean compiled walk (the climb's swaps and fresh pools) against the array scorer, on
    random small dictionaries with ``qu``, each scoring, bonus layouts and minimum lengths; the
    same boards scored twice give the same values (its per-board marks need no clearing)."""
    rng = random.Random(500 + case)
    scorer, alphabet = _random_scorer(rng, [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)], 400)
    rows, cols = scorer.rows, scorer.cols
    hood = CompiledNeighbourhood(scorer, alphabet)
    boards = [tuple(rng.choice(alphabet) for _ in range(rows * cols)) for _ in range(40)]
    expected = scorer.score_many(boards)
    assert hood.score_many(boards) == expected and hood.score_many(boards[::-1]) == expected[::-1]
    assert sum(expected) > 0


@pytest.mark.skipif(not available(), reason="numba is not installed")
def test_compiled_whole_board_walk_scores_the_published_boards() -> None:
    lex = load_lexicon("enable2k")
    for grid, points in PUBLISHED:
        rows, cols = len(grid), len(grid[0])
        scorer = BoardScorer(lex, scoring="boggle", rows=rows, cols=cols)
        assert CompiledNeighbourhood(scorer, alphabet_of(lex)).score_many([tuple("".join(grid))]) == [points]


@pytest.mark.skipif(not available(), reason="numba is not installed")
def test_compiled_and_numpy_neighbourhoods_agree_on_enable2k() -> None:
    lex = load_lexicon("enable2k")
    bonus = {(1, 1): "TW", (2, 3): "DL", (4, 4): "DW", (3, 2): "TL"}
    for scoring, layout in (("boggle", {}), ("ruzzle", bonus)):
        scorer = BoardScorer(lex, scoring=scoring, rows=4, cols=4, bonus_cells=layout)
        alphabet = alphabet_of(lex)
        boards = [tuple("perslatgsineters"), tuple("qu" if c == "q" else c for c in "quiteandsorelyxz")]
        a, b = Neighbourhood(scorer, alphabet).scores(boards), CompiledNeighbourhood(scorer, alphabet).scores(boards)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def _brute_force(scorer: BoardScorer, alphabet: list[str], size: int) -> int:
    boards = list(itertools.product(alphabet, repeat=size))
    return max(scorer.score_many(boards))


@pytest.mark.parametrize("case", range(10))
def test_climb_finds_the_brute_force_optimum(case: int, monkeypatch: pytest.MonkeyPatch) -> None:
    if case % 3 == 0:  # the numpy neighbourhood search alone, as without numba
        monkeypatch.setattr(climb, "compiled_ready", lambda **_: False)
    rng = random.Random(100 + case)
    letters = "".join(rng.sample("aeinrst", 4))
    rows, cols = rng.choice([(2, 2), (2, 3)])
    scoring = rng.choice(["boggle", "ruzzle", "none"])
    bonuses = {"DL": [[1, 1]], "TW": [[2, 2]]} if scoring == "ruzzle" and case % 2 else None
    words = _words(rng, letters, rng.randint(20, 80))
    data = {"kind": "ruzzle", "task": "best_board", "grid": ["a" * cols] * rows, "scoring": scoring,
            "bonuses": bonuses, "dictionary": {"words": words}, "min_word_length": 2, "climbs": 3, "pool": 20,
            "seed": case}
    spec = parse_spec(data)
    scorer = BoardScorer(words, scoring=scoring, min_letters=2, rows=rows, cols=cols, bonus_cells=spec.bonus_cells())
    optimum = _brute_force(scorer, alphabet_of(words), rows * cols)
    result = api.solve(spec)
    assert result.stats["best_value"] == optimum
    assert (result.objective if scoring != "none" else result.count) == optimum
    assert verify.check(spec, result) == [] and result.stats["compiled"] == (available() and case % 3 != 0)


def test_climb_finds_545_on_3x3_enable2k_and_is_seeded() -> None:
    spec = parse_spec({"kind": "ruzzle", "task": "best_board", "grid": ["aaa"] * 3, "scoring": "boggle",
                       "dictionary": ENABLE2K, "target": 545, "climbs": 4, "seed": 3})
    compiled_ready(wait=True)
    result = api.solve(spec)
    assert result.objective == 545 and verify.check(spec, result) == []
    board = Board.from_tiles(spec.tiles())
    # The board is one of the optimum's orientations; the same seed gives the same board.
    again, stats = climb_board(spec, board, load_lexicon(spec.dictionary), Budget(None))
    assert stats["best_value"] == 545 and again.row_strings() == result.stats["grid"]
    perms = symmetries(board, "boggle")
    assert min("".join(again.tiles[p] for p in perm) for perm in perms) == min(
        "".join("streaedlp"[p] for p in perm) for perm in perms)


def test_symmetries_keep_bonus_squares_in_place() -> None:
    board = Board.from_tiles([["a"] * 4] * 4, {(1, 1): "TW", (4, 4): "TW"})
    perms = symmetries(board, "ruzzle")
    assert len(perms) == 4 and len(symmetries(board, "boggle")) == 8  # the diagonal's mirror and rot180


def test_a_time_limit_ends_climbing_with_the_best_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a time limit and no number of climbs it climbs until the limit, and a limit reached
    then is no cut: the best board so far, feasible. The limit comes inside the first climb, after
    its first round, whatever the machine (the budget is stopped there; its deadline guards a hang)."""
    real = climb._Climber._expand

    def expand_then_limit(self: climb._Climber, *args: object, **kwargs: object) -> None:
        real(self, *args, **kwargs)
        self.budget.stop("time_limit")

    monkeypatch.setattr(climb._Climber, "_expand", expand_then_limit)
    spec = {"kind": "ruzzle", "task": "best_board", "grid": ["aaaa"] * 4, "scoring": "boggle",
            "dictionary": {"name": "scowl-35", "exclude": []}, "seed": 1}
    result = api.solve(spec, budget=Budget(HANG_S))
    assert result.status == "feasible" and result.objective == result.stats["best_value"] > 0
    assert result.stats["climbs"] == 1 and result.stats["until_time_limit"] and not result.stats["stopped_by_time"]


@pytest.mark.parametrize(("args", "field"), [(["--pool", "0"], "pool"), (["--search", "walk"], "search"),
                                              (["--climbs", "-1"], "climbs")])
def test_bad_climb_options_are_one_line_and_exit_2(args: list[str], field: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ruzzle", "abc", "def", "--task", "best_board", *args]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and field in err and len(err.strip().splitlines()) == 1, err


def test_cli_best_board_as_a_user_runs_it() -> None:
    example = Path(__file__).resolve().parent.parent / "examples" / "ruzzle-boggle-best-3x3.yaml"
    out = subprocess.run([sys.executable, "-m", "cpwords", "solve", str(example), "--seed", "3", "--json"],
                         capture_output=True, text=True, timeout=HANG_S)
    assert out.returncode == 0, out.stderr
    assert '"objective": 545' in out.stdout


def test_best_board_of_more_cells_than_its_scorers_hold_is_one_line(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24 item 5: a 200×200 ``best_board`` ran 41-57 s past a 3 s limit and, climbing, ended in a
    traceback; now the spec refuses boards the scorers cannot hold, before any work."""
    from cpwords.puzzles.ruzzle.scoring import MAX_CELLS
    from cpwords.puzzles.ruzzle.spec import BEST_BOARD_CELLS

    assert BEST_BOARD_CELLS == MAX_CELLS
    puzzle = tmp_path / "big.yaml"
    puzzle.write_text("kind: ruzzle\ntask: best_board\ngrid: [" + ", ".join(["abcdefgh"] * 8) + "]\n")
    assert main(["solve", str(puzzle), "--time-limit", "3"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "'grid'" in err and "64 cells" not in err
    assert "up to 63 cells" in err and str(puzzle) in err
    fits = parse_spec({"kind": "ruzzle", "task": "best_board", "grid": ["abcdefg"] * 9, "iterations": 1})
    assert fits.shape() == (9, 7)


# ---------------------------------------------------------------- when the compiled search is made


def test_a_compile_is_started_only_where_it_pays_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiling the search takes seconds and holds the interpreter lock beside the numpy search: a
    run with a short limit and nothing in numba's disk cache searches with numpy alone (a 1 s
    climb scored a third of the boards beside a compile it never used); loading from the disk
    cache, a long run and a run without a limit get the compiled search ready."""
    import threading

    from cpwords.puzzles.ruzzle import compiled

    if not available():
        pytest.skip("numba is not installed")
    monkeypatch.setattr(compiled, "_compiled", threading.Event())  # as in a new process
    monkeypatch.setattr(compiled, "in_disk_cache", lambda: False)
    assert not compiled.worth_compiling(5.0)
    assert compiled.worth_compiling(None) and compiled.worth_compiling(compiled.COMPILE_PAYS_OFF_S)
    monkeypatch.setattr(compiled, "in_disk_cache", lambda: True)
    assert compiled.worth_compiling(5.0)


def test_a_climb_too_short_for_a_compile_does_not_start_one_and_says_it_is_deferred(
        monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[bool] = []

    def ready(*, wait: bool = False, start: bool = True) -> bool:
        started.append(start)
        return False

    monkeypatch.setattr(climb, "worth_compiling", lambda left: False)
    monkeypatch.setattr(climb, "compiled_ready", ready)
    spec = parse_spec({"kind": "ruzzle", "task": "best_board", "grid": ["aaa"] * 3, "dictionary": ENABLE2K,
                       "climbs": 1, "pool": 20, "seed": 1})
    result = api.solve(spec)
    assert started and not any(started) and result.stats["compiled"] is False
    assert result.stats["build_deferred"] == "the compiled board search" if available() else True
    assert verify.check(spec, result) == []


@pytest.mark.sweep
def test_the_command_line_compiles_in_the_background_for_the_next_run(tmp_path: Path) -> None:
    """As a user runs it, with nothing in numba's cache: a 1 s climb searches with numpy and hands
    the compile to the background builder; once that has ended, the next run loads it."""
    import json
    import os

    from pace import run_cpwords, running, wait_until

    if not available():
        pytest.skip("numba is not installed")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "CPWORDS_NO_BACKGROUND_BUILDS": ""}
    argv = ["ruzzle", "serst", "alpet", "inrat", "edsol", "--task", "best_board", "--dict", "enable2k",
            "--seed", "1", "--time-limit", "1", "--json"]
    first = json.loads(run_cpwords(argv, env=env).stdout)
    # deferred, or the dictionary's trie was not in this cache yet: one background build does both
    assert first["stats"].get("build_deferred") == "the compiled board search" or first["stats"]["build_stopped"]
    pid = first["stats"]["background_build_pid"]
    wait_until(lambda: not running(pid), "the background compile")
    second = json.loads(run_cpwords(argv, env=env).stdout)
    assert "build_deferred" not in second["stats"] and "background_build_pid" not in second["stats"]
