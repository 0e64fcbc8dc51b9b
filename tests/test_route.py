"""The one route for parallel work (:mod:`cpwords.route`) and the run's options (:mod:`cpwords.options`).

Where a spec runs is decided in one function; the kinds, the CLI and the server decide nothing
(the structure tests below read the code for it), and every path gives the same answer.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cpwords
from cpwords.engines.workers import default_workers, usable_cores
from cpwords.errors import InputError
from cpwords.options import Options
from cpwords.puzzles.loading import parse_spec
from cpwords.route import route, together

PACKAGE = Path(cpwords.__file__).resolve().parent
BOARD = {"kind": "prefix_suffix_board", "dictionary": "common-5k", "task": "count_boards", "seed": 1}
BOX = {"kind": "letter_boxed", "sides": ["abc", "def", "ghi"], "task": "count",
       "dictionary": {"words": ["adg", "gbe", "ehc", "cfi", "bad"]}}
CHAINS = {"kind": "ruzzle", "task": "best_board", "grid": ["rate", "soni", "lend", "trap"], "dictionary": "common-5k",
          "search": "anneal", "iterations": 200, "seed": 3}
MANY = usable_cores() > 1


def test_a_kind_without_a_split_runs_here() -> None:
    r = route(parse_spec({"kind": "ladder", "start": "cat", "target": "dog"}), Options(workers=2))
    assert (r.where, r.sharded) == ("here", False)


@pytest.mark.skipif(not MANY, reason="one core: every route is this process")
def test_a_board_count_spreads_by_default_and_one_worker_keeps_it_here() -> None:
    spec = parse_spec(BOARD)
    assert (route(spec, Options()).where, route(spec, Options()).workers) == ("workers", default_workers())
    assert route(spec, Options(workers=1)).where == "here"
    assert route(parse_spec({**BOARD, "workers": 1}), Options()).where == "here"  # the spec's own field
    assert route(parse_spec({**BOARD, "workers": 1}), Options(workers=2)).where == "workers"  # the option wins


@pytest.mark.skipif(not MANY, reason="one core: every route is this process")
def test_a_grid_count_spreads_unless_a_time_limit_asks_for_a_lower_bound() -> None:
    """Cut short in one process a grid count lists grids for the rest of its time (a lower bound);
    cut short in shards it has none. So a limited count stays here unless workers are asked for."""
    grid = {"kind": "word_grid", "shape": "gridle-5x5", "task": "count", "engine": "native"}
    assert route(parse_spec(grid), Options()).where == "workers"
    limited = parse_spec({**grid, "time_limit": 5})  # the API routes a spec with the run's options applied
    assert route(limited, Options(time_limit=5)).where == "here"
    assert route(limited, Options(time_limit=5, workers=2)).where == "workers"


@pytest.mark.skipif(not MANY, reason="one core: every route is this process")
def test_best_board_is_one_chain_here_unless_workers_are_asked_for() -> None:
    assert route(parse_spec(CHAINS), Options()).where == "here"
    assert route(parse_spec(CHAINS), Options(workers=2)).where == "workers"
    one = cpwords.solve(CHAINS)
    two = cpwords.solve(CHAINS, workers=2)
    assert "chains" not in one.stats and two.stats["chains"] == 2 and two.stats["workers"] == 2
    assert two.objective >= one.objective  # chain 0 is the one-process search


def test_a_cluster_or_a_checkpoint_always_takes_the_runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CPWORDS_CLUSTER", raising=False)
    spec = parse_spec(BOX)
    assert route(spec, Options(cluster="local:2")).where == "cluster"
    forced = route(spec, Options(checkpoint=tmp_path / "c.sqlite", workers=1))
    assert (forced.where, forced.forced, forced.workers) == ("workers", True, 1)
    assert together([spec], Options(checkpoint=tmp_path / "c.sqlite")) and not together([spec], Options(workers=2))
    monkeypatch.setenv("CPWORDS_CLUSTER", "local:2")
    assert route(spec, Options()).where == "cluster"
    assert route(spec, Options(cluster="off")).where == "here"  # the option wins over the variable


def test_a_plan_too_small_for_workers_is_solved_here() -> None:
    """A one-box count asked for on two workers: the route chooses the runner, whose plan (one
    shard) is not worth processes, so the kind solves it here: the same count, no shards."""
    result = cpwords.solve(BOX, workers=2)
    assert result.count == 1 and "shards_total" not in result.stats


def test_the_servers_ceiling_caps_the_spec_and_is_the_default() -> None:
    spec = parse_spec({**BOARD, "workers": 8})
    assert route(spec, Options(max_workers=1)).where == "here"
    assert route(parse_spec(BOARD), Options(max_workers=1)).workers == 1


def test_every_path_gives_the_same_count(tmp_path: Path) -> None:
    here = cpwords.solve(BOARD, workers=1)
    spread = cpwords.solve(BOARD, workers=2)
    kept = cpwords.solve(BOARD, checkpoint=tmp_path / "c.sqlite", workers=2)
    assert here.count == spread.count == kept.count and here.count_exact and spread.count_exact
    assert kept.stats["shards_done"] == kept.stats["shards_total"]


def test_options_are_checked_once_and_named_as_the_caller_names_them(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InputError) as err:
        Options(workers=0, labels={"workers": "--workers"})
    assert err.value.field == "--workers" and err.value.value == 0
    with pytest.raises(InputError) as err:
        cpwords.solve(BOX, workers=True)
    assert err.value.field == "workers"
    with pytest.raises(InputError) as err:
        cpwords.solve(BOX, options={"workers": 2})  # type: ignore[arg-type]
    assert err.value.field == "options"
    monkeypatch.setenv("CPWORDS_CLUSTER", "local:x")
    with pytest.raises(InputError) as err:
        Options().cluster_address()
    assert err.value.field == "$CPWORDS_CLUSTER"
    assert Options(seed=3).merged(seed=None, workers=2) == Options(seed=3, workers=2)


def _code(path: Path) -> str:
    """The code of a module without its docstrings, comments and help texts (a word in prose is
    not a read)."""
    text = re.sub(r'"""(?:.|\n)*?"""', "", path.read_text(encoding="utf-8"))
    text = re.sub(r"help=(f?\"[^\"]*\"\s*)+", "", text)
    return re.sub(r"#.*", "", text)


def test_workers_are_read_in_one_place() -> None:
    """No kind, front end or API function reads a spec's ``workers`` or caps a worker count: the
    route does (the execution layer caps what it is handed)."""
    readers = [str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
               if re.search(r"spec\.workers|worker_count\(", _code(p))
               and p.relative_to(PACKAGE).parts[0] not in ("engines",) and p.name != "route.py"]
    assert not readers, readers


def test_the_front_ends_decide_nothing() -> None:
    """The CLI and the server name no cluster variable, executor or runner: they build Options
    and call the API."""
    fronts = [p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).parts[0] in ("cli.py", "commands", "server")]
    assert len(fronts) > 10
    deciding = [str(p.relative_to(PACKAGE)) for p in fronts
                if re.search(r"cluster_option|cluster_address|open_executor|cluster\.runner|solve_batch|CPWORDS_CLUSTER",
                             _code(p))]
    assert not deciding, deciding
