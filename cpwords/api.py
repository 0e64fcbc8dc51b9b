"""The public API behind ``cpwords`` and its CLI: load puzzle specs, solve them one at a time
(:func:`solve`) or many together (:func:`solve_many`, :func:`solve_stream`, :func:`solve_batch`).

Every call takes its run's options as one :class:`~cpwords.options.Options` (or as keyword
arguments of the same names) and leaves where the work runs to :func:`cpwords.route.route`.

>>> import cpwords
>>> spec = cpwords.loads("kind: ladder\\nstart: cat\\ntarget: dog\\nmode: shortest\\nseed: 1\\n")
>>> cpwords.solve(spec).solutions[0].steps
3
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from cpwords.engines.budget import Budget, Progress
from cpwords.engines.shards import SHARD_SECONDS
from cpwords.errors import InputError
from cpwords.options import Options, with_options
from cpwords.puzzles.loading import load_specs
from cpwords.results import Result, Status
from cpwords.route import together
from cpwords.running import (
    as_spec,
    check_call,
    options_of,
    prepare,
    run_budget,
    solve_all,
    solve_prepared,
    solve_sharded,
)
from cpwords.specs import BaseSpec

__all__ = ["load", "loads", "solve", "solve_batch", "solve_many", "solve_stream", "with_options"]


def load(path: str | Path) -> list[BaseSpec]:
    """Every puzzle of a YAML file (several ``---`` documents make a batch)."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError("give the puzzle file's name (a str or a path)", field="path", value=path)
    return load_specs(path)


def loads(text: str) -> BaseSpec:
    """The single puzzle of a YAML string."""
    if not isinstance(text, str):
        raise InputError("give the puzzle as YAML text (a str)", field="text", value=text)
    return as_spec(text)


def solve(
    spec: BaseSpec | dict[str, Any] | str,
    options: Options | None = None,
    *,
    engine: str | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    check: bool = True,
    budget: Budget | None = None,
    progress: Progress | None = None,
    cluster: str | None = None,
    checkpoint: str | Path | None = None,
) -> Result:
    """Solve one puzzle.

    Parameters
    ----------
    spec:
        A spec object, a mapping of its fields, or YAML text.
    options, engine, seed, time_limit, workers, cluster, checkpoint:
        The run's options (:class:`~cpwords.options.Options`, which says what each means); a
        keyword argument replaces the value of the same name. Where the work runs (this process,
        shards on local workers, a Dask cluster) is :func:`cpwords.route.route`'s decision; the
        answers are the same on every path.
    check:
        Re-check every answer with :mod:`cpwords.verify`; an answer that fails turns the result
        into status ``error`` (a bug, reported rather than shown as an answer).
    budget:
        The budget of the whole run this solve belongs to: the solve gets a part of it that also
        ends at the spec's ``time_limit``, and stopping ``budget`` (``budget.stop()``, from another
        thread or a signal handler) stops the solve. Default: a budget of ``time_limit`` alone.
    progress:
        Where long searches report progress (default: nowhere).

    Returns
    -------
    Result, with ``stats['solve_s']``, ``stats['wall_s']`` and ``stats['seed']`` filled in.

    Raises
    ------
    InputError
        For a bad spec, option, engine, dictionary or word.
    """
    run = options_of(options, engine=engine, seed=seed, time_limit=time_limit, workers=workers, cluster=cluster,
                   checkpoint=checkpoint)
    check_call(budget=budget, check=check, progress=progress)
    spec = as_spec(spec)
    t0 = time.perf_counter()
    prepared = prepare(spec, run)
    if prepared.route.sharded:
        sharded = solve_sharded([prepared], run, run_budget(budget, None, progress), t0, check=check)
        if sharded is not None:
            return sharded[0]
    return solve_prepared(prepared, t0, check=check, budget=budget, progress=progress)


def solve_stream(specs: Sequence[BaseSpec | InputError], options: Options | None = None, *,
                 budget: Budget | None = None, check: bool = True) -> Iterator[Result | InputError]:
    """The results of a batch one by one, in order, as each is ready (what ``cpwords solve``
    prints): each spec takes its route (:func:`cpwords.route.route`), or with a cluster or a
    checkpoint every spec goes to the runner at once.

    A bad document (an :class:`InputError` among ``specs``, or one its solve raises) is yielded in
    its place, and the others are solved. The batch shares ``budget``: a spec the run's time
    limit did not reach is a result with status ``unknown`` that says so. A stopped run
    (``budget.stop()``) yields nothing more.
    """
    run = options_of(options)
    check_call(budget=budget, check=check)
    budget = budget if budget is not None else Budget(run.time_limit)
    good = [spec for spec in specs if not isinstance(spec, InputError)]
    if together(good, run):
        t0 = time.perf_counter()
        results = solve_sharded([prepare(spec, run) for spec in good], run, budget, t0, check=check)
        assert results is not None  # a cluster or a checkpoint: the runner keeps the shards
        done = iter(results)
        for spec in specs:
            yield spec if isinstance(spec, InputError) else next(done)
        return
    for i, spec in enumerate(specs):
        if budget.stopped:
            return
        if isinstance(spec, InputError):
            yield spec
        elif i and budget.expired():
            yield _not_reached(spec, run.time_limit)
        else:
            try:
                yield solve(spec, run, budget=budget, check=check)
            except InputError as exc:
                yield exc


def _not_reached(spec: BaseSpec, limit: float | None) -> Result:
    """The result of a batch's document that the run's time limit left no time for."""
    return Result(kind=spec.kind, status=Status.UNKNOWN, engine=str(spec.engine), task=spec.task, title=spec.title,
                  message=f"the time limit of the command ({limit:g} s) was reached before this document was started",
                  stats={"stopped": "time_limit"})


def solve_many(
    specs: Iterable[BaseSpec | dict[str, Any] | str],
    options: Options | None = None,
    *,
    engine: str | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    check: bool = True,
    scores_only: bool = False,
    budget: Budget | None = None,
    progress: Progress | None = None,
) -> list[Result]:
    """Solve many puzzles (a batch file's documents, thousands of boards): one result per spec,
    in order, each what :func:`solve` returns for it.

    Specs of a kind whose descriptor offers a batch path (``PuzzleKind.batch``) are handed to it
    together; it takes those it can do faster together and leaves the others to :func:`solve`,
    one by one. Ruzzle's batch path scores boards: with ``scores_only``, the ``words`` boards of
    one dictionary, scoring rule, shape and bonus layout (default engine) are searched together
    by the array scorer, a few thousand boards a second.

    Parameters
    ----------
    specs:
        Spec objects, mappings of their fields, or YAML texts (``cpwords.load(path)`` reads a
        batch file).
    options, engine, seed, workers, check, budget, progress:
        As in :func:`solve` (the budget and the progress for the whole batch).
    time_limit:
        Seconds for the whole batch (each spec's own ``time_limit`` still bounds its solve): the
        puzzles not reached in time get status ``unknown``.
    scores_only:
        Results without their answers: status, ``count``, ``objective`` and stats only, equal to
        those of :func:`solve` (``stats['scores_only']`` is True). A board's value and number of
        words come out of the array search without the words themselves, which is what makes the
        Ruzzle batch fast; there is then nothing to re-check (solve a board on its own to see and
        check its words). Kinds without such a path solve as usual and drop the answers.

    Returns one Result per spec, in order; one from a batch path has ``stats['batch_size']`` (specs
    solved together) and ``stats['batch_s']`` (their seconds together), its ``solve_s`` and
    ``wall_s`` its share. Raises InputError for a bad spec, engine, dictionary or word.

    >>> boards = [{"kind": "ruzzle", "grid": grid, "dictionary": "scowl-35"} for grid in (["cats", "dogs"], ["tea", "ram"])]
    >>> [(r.count, r.objective) for r in solve_many(boards, scores_only=True)]
    [(33, 205), (30, 133)]
    """
    run_options = options_of(options, engine=engine, seed=seed, time_limit=time_limit, workers=workers)
    check_call(budget=budget, check=check, progress=progress, scores_only=scores_only)
    if isinstance(specs, (str, dict, BaseSpec)) or not isinstance(specs, Iterable):
        raise InputError("give the puzzles as a list (of spec objects, mappings or YAML texts)", field="specs",
                         value=specs)
    run = run_budget(budget, run_options.time_limit, progress)
    prepared = [prepare(as_spec(s), run_options, time_limit=False) for s in specs]
    return solve_all(prepared, run_options, run, check=check, scores_only=scores_only)


def solve_batch(specs: Sequence[BaseSpec | dict[str, Any] | str], options: Options | None = None, *,
                cluster: str | None = None, checkpoint: str | Path | None = None, budget: Budget | None = None,
                progress: Progress | None = None, engine: str | None = None, seed: int | None = None,
                time_limit: float | None = None, workers: int | None = None,
                shard_seconds: float | None = SHARD_SECONDS, check: bool = True) -> list[Result]:
    """Solve puzzles in shards (a batch file's documents, or one): all their shards share the
    workers of one executor and one checkpoint, whatever :func:`cpwords.route.route` would
    choose for each alone.

    Parameters
    ----------
    specs:
        Spec objects, mappings of their fields, or YAML texts.
    options:
        The run's options, as in :func:`solve`; the keyword arguments replace its values.
    cluster:
        ``local`` / ``local:N`` (a Dask LocalCluster of N worker processes started here, N capped
        at the cores), a Dask scheduler address (``tcp://host:8786``), or None:
        ``$CPWORDS_CLUSTER`` if set, else ``workers`` local worker processes of the execution
        layer (one: this process).
    checkpoint:
        SQLite file keeping every finished shard; rerunning with it resumes.
    budget, progress, engine, seed, time_limit, workers, check:
        As for :func:`solve`.
    shard_seconds:
        A splittable shard running longer than this is stopped and split (None: never).

    Returns
    -------
    One Result per spec, in order, with ``stats``: ``shards_done``, ``shards_total``,
    ``shards_resumed``, ``shards_run``, ``shards_split``, ``shard_s_max``, ``shard_s_sum``,
    ``cluster``, ``workers``.

    Raises
    ------
    InputError
        For a bad spec, cluster address or checkpoint (one of another run: the message says
        what changed), or workers that run another cpwords version or read other data.

    >>> r = solve_batch([{"kind": "letter_boxed", "sides": ["abc", "def", "ghi"], "task": "count",
    ...                   "dictionary": {"words": ["adg", "gbe", "ehc", "cfi", "bad"]}}], workers=1)[0]
    >>> r.count, r.stats["shards_done"], r.stats["shards_total"]
    (1, 1, 1)
    """
    run = options_of(options, engine=engine, seed=seed, time_limit=time_limit, workers=workers, cluster=cluster,
                   checkpoint=checkpoint, shard_seconds=shard_seconds)
    if shard_seconds is None:
        run = replace(run, shard_seconds=None)
    check_call(budget=budget, check=check, progress=progress)
    t0 = time.perf_counter()
    prepared = [prepare(as_spec(given), run, shards=True) for given in specs]
    results = solve_sharded(prepared, run, budget.child() if budget is not None else Budget(None), t0, check=check,
                             progress=progress)
    assert results is not None  # asked for shards: the runner keeps them
    return results


