"""``cpwords.solve_many``: many puzzles at once, each result what ``cpwords.solve`` gives for it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import cpwords
from cpwords import puzzles
from cpwords.engines.budget import Budget
from cpwords.puzzles.ruzzle.annealing import LETTER_FREQUENCIES

LETTERS, WEIGHTS = list(LETTER_FREQUENCIES), list(LETTER_FREQUENCIES.values())


def _boards(n: int, seed: int, rows: int = 4, cols: int = 4) -> list[list[str]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        tiles = rng.choices(LETTERS, WEIGHTS, k=rows * cols)
        out.append([" ".join(tiles[r * cols:(r + 1) * cols]) for r in range(rows)])
    return out


def _same(a: cpwords.Result, b: cpwords.Result) -> None:
    assert (a.kind, a.status, a.engine, a.task, a.count, a.count_exact, a.objective, a.message) == (
        b.kind, b.status, b.engine, b.task, b.count, b.count_exact, b.objective, b.message)


def test_scores_only_equal_solving_one_by_one() -> None:
    specs = []
    for i, grid in enumerate(_boards(30, seed=1)):
        extra = [{}, {"scoring": "boggle"}, {"scoring": "none"}, {"bonuses": "ruzzle-4x4"},
                 {"bonuses": "ruzzle-4x4", "min_word_length": 4}, {"dictionary": "common-10k"}][i % 6]
        specs.append({"kind": "ruzzle", "grid": grid, "dictionary": "scowl-35", "seed": 1, **extra})
    specs += [{"kind": "ruzzle", "grid": grid, "dictionary": "scowl-35", "seed": 1, "bonuses": {"TW": [[1, 1]]}}
              for grid in _boards(5, seed=2, rows=3, cols=5)]
    specs.append({"kind": "ruzzle", "grid": ["zzz", "zzz"], "dictionary": "scowl-35", "seed": 1})  # no word
    batch = cpwords.solve_many(specs, scores_only=True)
    assert len(batch) == len(specs)
    for spec, result in zip(specs, batch, strict=True):
        _same(result, cpwords.solve(spec))
        assert result.solutions == [] and result.stats["scores_only"] and result.stats["batch_size"] >= 1
        assert result.stats["seed"] == 1 and result.stats["wall_s"] >= 0
    assert batch[-1].status == "infeasible" and batch[0].stats["batch_size"] == len(specs)


def test_other_specs_go_one_by_one_in_order() -> None:
    specs: list[object] = [
        {"kind": "ruzzle", "grid": ["cats", "dogs"], "dictionary": "scowl-35", "seed": 1},
        {"kind": "ladder", "start": "cold", "target": "warm", "mode": "shortest", "seed": 1},
        "kind: ruzzle\ngrid: [tea, ram]\ndictionary: scowl-35\nseed: 1\nengine: active\n",
        {"kind": "ruzzle", "grid": ["abc", "def"], "task": "count_paths", "seed": 1},
        {"kind": "ruzzle", "task": "best_board", "grid": ["abc", "def"], "iterations": 30, "dictionary": "scowl-35",
         "seed": 1},
    ]
    full = cpwords.solve_many(specs)
    lean = cpwords.solve_many(specs, scores_only=True)
    for spec, a, b in zip(specs, full, lean, strict=True):
        one = cpwords.solve(spec)  # type: ignore[arg-type]
        _same(a, one)
        _same(b, one)
        assert [s.model_dump() for s in a.solutions] == [s.model_dump() for s in one.solutions]
        assert b.solutions == [] and b.stats["scores_only"]
    assert [r.kind for r in full] == ["ruzzle", "ladder", "ruzzle", "ruzzle", "ruzzle"]
    assert "batch_size" in lean[0].stats and "batch_size" not in lean[2].stats  # engine active: one by one
    assert "batch_size" not in full[0].stats  # answers wanted: the trie walk, one board at a time


def test_a_batch_file_of_boards(tmp_path: Path) -> None:
    boards = _boards(12, seed=3)
    path = tmp_path / "boards.yaml"
    path.write_text("\n---\n".join(f"kind: ruzzle\ngrid: {grid}\nscoring: boggle\ndictionary: scowl-35\n"
                                   for grid in boards), encoding="utf-8")
    specs = cpwords.load(path)
    results = cpwords.solve_many(specs, scores_only=True, seed=4)
    assert [r.objective for r in results] == [cpwords.solve(s).objective for s in specs]
    assert all(r.stats["seed"] == 4 and "seed_fresh" not in r.stats for r in results)
    fresh = cpwords.solve_many(specs[:2], scores_only=True)
    assert all(r.stats["seed_fresh"] for r in fresh)


def test_the_batch_time_limit_leaves_later_boards_unknown() -> None:
    run = Budget(None)
    run.stop("interrupted")
    specs = [{"kind": "ruzzle", "grid": grid, "dictionary": "scowl-35", "seed": 1} for grid in _boards(3, seed=5)]
    results = cpwords.solve_many(specs, scores_only=True, budget=run)
    assert [r.status for r in results] == ["unknown"] * 3 and all(r.message for r in results)


def test_bad_input_is_an_input_error() -> None:
    with pytest.raises(cpwords.InputError, match="unknown dictionary|dictionary"):
        cpwords.solve_many([{"kind": "ruzzle", "grid": ["ab"], "dictionary": "no-such-words"}], scores_only=True)
    with pytest.raises(cpwords.InputError, match="engine"):
        cpwords.solve_many([{"kind": "ruzzle", "grid": ["ab"]}], engine="quantum")


def test_only_kinds_with_a_batch_path_declare_one() -> None:
    assert puzzles.get("ruzzle").batch == "batch:solve_batch"
    assert puzzles.get("ruzzle").checker_all == "check:check_all"
    for kind in puzzles.kinds().values():
        for ref in (kind.batch, kind.checker_all):
            if ref is not None:
                assert callable(kind.load(ref))


# ---------------------------------------------------------------- a batch file: one deadline for the command

#: A count of every 7×7 Gridle grid: minutes of work, so any limit cuts it.
_LONG = "kind: word_grid\nshape: gridle-7x7\ntask: count\n"


def test_a_batch_file_shares_the_command_time_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 34, C1: ``--time-limit`` bounds the whole command, not each document (five documents
    at ``--time-limit 1`` took 5.3 s). The first long count uses the limit; the documents after it
    are reported as not reached, naming the limit, whatever the machine's speed."""
    import json

    from cpwords.cli import main

    path = tmp_path / "batch.yaml"
    path.write_text("---\n".join([_LONG] * 3))
    assert main(["solve", str(path), "--time-limit", "0.3", "--json"]) == 1
    results = json.loads(capsys.readouterr().out)
    assert [r["status"] for r in results] in (["unknown"] * 3, ["feasible", "unknown", "unknown"])
    assert results[0]["stats"]["stopped"] == "time_limit"
    for later in results[1:]:
        assert later["message"] == "the time limit of the command (0.3 s) was reached before this document was started"
        assert later["stats"] == {"stopped": "time_limit"} and later["solutions"] == []


@pytest.mark.timing
def test_a_batch_file_ends_within_the_command_time_limit(tmp_path: Path) -> None:
    """The same as a user runs it: five long counts at ``--time-limit 1`` end within about the
    limit and a second, on top of starting Python."""
    from pace import Stopwatch, run_cpwords, startup_cpu_s, warm_cache_of_command

    path = tmp_path / "batch.yaml"
    path.write_text("---\n".join([_LONG] * 5))
    warm_cache_of_command(["solve", str(path)])  # the dictionary's tables into the cache
    with Stopwatch() as watch:
        run = run_cpwords(["solve", str(path), "--time-limit", "1"])
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stdout.count("was reached before this document was started") == 4
    watch.assert_within(1.0, startup_cpu_s() + 1.0, "a batch of five counts")
