"""Letter Boxed keeps its time and memory promises (issue 14). The memory budget stops a search
whatever the machine; the tests that bound seconds are marked ``timing`` and allow for a busy
machine (tests/pace.py)."""

from __future__ import annotations

import pytest
from pace import Stopwatch, warm_cache

import cpwords
from cpwords.puzzles.loading import parse_spec

BIG_24 = ["abc", "def", "ghi", "jkl", "mno", "pqr", "stu", "vwx"]
#: Work past the deadline an idle machine does in-process: the check of what was found (bounded
#: to half a second by the clock) and stopping; a busy machine stretches it by its contention.
SLACK = 1.5


@pytest.mark.parametrize("engine", ["native", "cpsat", "sat"])
def test_a_box_past_the_memory_budget_stops_cleanly(engine: str) -> None:
    """No time limit: the memory budget alone stops the search (the native layer search when a layer
    passes it, the solver engines before they build the pruning they cannot hold)."""
    spec = parse_spec({"kind": "letter_boxed", "sides": BIG_24, "engine": engine, "max_memory_mb": 64})
    result = cpwords.solve(spec)
    assert result.status in ("unknown", "feasible"), result.status
    assert result.message and "memory budget" in result.message and "max_memory_mb" in result.message
    assert cpwords.verify.check(spec, result) == []


@pytest.mark.timing  # it bounds seconds: run alone (see pyproject.toml)
def test_enumerate_with_a_time_limit_stops_listing_and_checking() -> None:
    spec = parse_spec({"kind": "letter_boxed", "sides": ["rae", "ngs", "dim", "yhu"], "task": "enumerate",
                       "limit": None, "max_words": 5})
    warm_cache(spec)  # the dictionary's index into the cache, as on a second use
    with Stopwatch() as watch:
        result = cpwords.solve(spec, time_limit=1)
    watch.assert_within(1.0, SLACK, "enumerate, 1 s")  # the promise is about T + 1 s
    assert result.status == "feasible" and result.count_exact is False and result.message
    assert cpwords.verify.check(spec, result) == []


@pytest.mark.timing  # it bounds seconds: run alone (see pyproject.toml)
def test_native_count_over_16_letters_honours_the_limit() -> None:
    """The blocked count's own deadline checks (not the listing's above)."""
    spec = parse_spec({"kind": "letter_boxed", "sides": ["abc", "def", "ghi", "jkl", "mno", "pqr"],
                       "task": "count", "max_words": 5})
    warm_cache(spec)
    with Stopwatch() as watch:
        result = cpwords.solve(spec, time_limit=0.5)
    watch.assert_within(0.5, SLACK, "count over 18 letters, 0.5 s")
    assert result.count_exact is False and result.status in ("feasible", "unknown")


def test_generate_stopped_by_the_limit_is_not_optimal() -> None:
    spec = parse_spec({"kind": "letter_boxed", "task": "generate", "par": 4, "attempts": 100_000, "seed": 1,
                       "dictionary": "common-20k"})
    result = cpwords.solve(spec, time_limit=0.5)
    assert result.status in ("feasible", "unknown") and result.message
    assert cpwords.verify.check(spec, result) == []


def test_cli_takes_a_memory_budget(capsys: pytest.CaptureFixture[str]) -> None:
    from cpwords.cli import main

    assert main(["letter-boxed", *BIG_24, "--max-memory-mb", "64"]) == 1
    out = capsys.readouterr().out
    assert "memory budget" in out and "unknown" in out
