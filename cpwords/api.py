"""The public API behind ``cpwords`` and its CLI: load puzzle specs, solve them one at a time
(:func:`solve`) or many together (:func:`solve_many`).

>>> import cpwords
>>> spec = cpwords.loads("kind: ladder\\nstart: cat\\ntarget: dog\\nmode: shortest\\nseed: 1\\n")
>>> cpwords.solve(spec).solutions[0].steps
3
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import PydanticCustomError

from cpwords import puzzles
from cpwords.engines.budget import Budget, BuildStopped, Progress, SearchTimeout, no_progress
from cpwords.engines.shards import SHARD_SECONDS
from cpwords.engines.workers import worker_count
from cpwords.errors import InputError
from cpwords.lexicon.sources import dictionary_stat
from cpwords.puzzles.loading import load_specs, loads_specs, parse_spec
from cpwords.results import Result, Status
from cpwords.specs import BaseSpec, error_value, gate

#: Seconds past the time limit by which the independent check ends (the listing's conversion,
#: ``found.CONVERT_GRACE_S``, shares them): the answers not reached are kept, marked unchecked.
CHECK_GRACE_S = 0.5
#: Solutions a kind's all-at-once checker gets per call (the time limit is looked at between calls).
CHECK_CHUNK = 2048
#: Fields every spec shares that no spec's own validators read: replaced without re-validating the spec.
_PLAIN_FIELDS = frozenset({"seed", "time_limit", "workers"})


def load(path: str | Path) -> list[BaseSpec]:
    """Every puzzle of a YAML file (several ``---`` documents make a batch)."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError("give the puzzle file's name (a str or a path)", field="path", value=path)
    return load_specs(path)


def loads(text: str) -> BaseSpec:
    """The single puzzle of a YAML string."""
    if not isinstance(text, str):
        raise InputError("give the puzzle as YAML text (a str)", field="text", value=text)
    specs = loads_specs(text)
    if len(specs) != 1:
        raise InputError(f"expected one puzzle, found {len(specs)}")
    return specs[0]


def with_options(spec: BaseSpec, *, labels: Mapping[str, str] | None = None, **options: Any) -> BaseSpec:
    """A copy of ``spec`` with some fields replaced (None leaves a field as it is), validated like
    the YAML form; ``spec`` itself when nothing changes.

    ``labels`` says how each option is called where it came from (``{"engine": "--engine"}`` for
    the CLI), so that an error blames the option and not the puzzle file.

    ``seed``, ``time_limit`` and ``workers`` are checked on their own and copied in (no spec
    validator reads them, and re-validating a spec can mean reading its files again); any other
    field re-validates the whole spec.
    """
    options = {k: v for k, v in options.items()
               if v is not None and not (k in spec.model_fields_set and getattr(spec, k) == v)}
    if not options:
        return spec
    if options.keys() <= _PLAIN_FIELDS:
        checked = {name: _plain_field(name, value, (labels or {}).get(name)) for name, value in options.items()}
        return spec.model_copy(update=checked)
    data = spec.model_dump(exclude_unset=True)
    data["kind"] = spec.kind
    data.update(options)
    if "task" in options and "engine" not in options and "engine" not in spec.model_fields_set:
        data.pop("engine", None)  # the new task's default engine, not the old one's
    try:
        new = type(spec).model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        field = str(first.get("ctx", {}).get("field") or ".".join(str(s) for s in first["loc"]))
        value = error_value(first.get("ctx", {}), first.get("input"))
        top = field.split(".")[0].split("[")[0]
        message = first["msg"].removeprefix("Value error, ")
        if top in options:
            raise InputError(message, field=(labels or {}).get(top, top), value=options[top]) from None
        raise InputError(message, source=spec.source, field=field, value=value) from None
    new._source, new._line, new._lines = spec.source, spec.line, spec._lines
    return new


def _plain_field(name: str, value: Any, label: str | None = None) -> Any:
    """``value`` for ``seed``, ``time_limit`` or ``workers`` given as an argument (of a call, or an
    option labelled ``label``): through the input gate, then the field's type and bounds, strictly
    (a number, not text that reads as one); an InputError naming the argument if not."""
    try:
        return _field_adapter(name).validate_python(gate(name, BaseSpec.model_fields[name].annotation, value),
                                                    strict=True)
    except PydanticCustomError as exc:
        message = exc.message()
    except ValidationError as exc:
        message = exc.errors(include_url=False)[0]["msg"].removeprefix("Value error, ")
    raise InputError(message, field=label or name, value=value)


@cache
def _field_adapter(name: str) -> TypeAdapter[Any]:
    """The validator of one of the fields every spec shares (its type and constraints)."""
    info = BaseSpec.model_fields[name]
    field_type: Any = Annotated[info.annotation, info]  # the type with the field's constraints
    return TypeAdapter(field_type)


@dataclass
class _Prepared:
    """A spec with the call's options applied, its kind, and what the call's stats need to say."""

    spec: BaseSpec
    kind: puzzles.PuzzleKind
    fresh_seed: bool
    workers_note: str | None


def _as_spec(spec: BaseSpec | dict[str, Any] | str) -> BaseSpec:
    if isinstance(spec, str):
        return loads(spec)
    if isinstance(spec, dict):
        return parse_spec(spec)
    if not isinstance(spec, BaseSpec):
        raise InputError("a puzzle is a spec object, a mapping of its fields or YAML text, not "
                         f"{type(spec).__name__}", field="spec", value=spec)
    return spec


def _check_call(*, seed: Any = None, time_limit: Any = None, workers: Any = None, cluster: Any = None,
                checkpoint: Any = None, budget: Any = None, engine: Any = None, check: Any = True,
                progress: Any = None, scores_only: Any = False, shard_seconds: Any = None) -> None:
    """The call's own arguments, through the gate the spec's fields pass (a boolean is not a
    number, NaN and infinity are none, text is not a number): a wrong value is an InputError
    naming the argument, never a TypeError further down."""
    for name, value in (("seed", seed), ("time_limit", time_limit), ("workers", workers)):
        if value is not None:
            _plain_field(name, value)
    for name, value in (("check", check), ("scores_only", scores_only)):
        if not isinstance(value, bool):
            raise InputError("give True or False", field=name, value=value)
    if engine is not None and not isinstance(engine, str):
        raise InputError("give the engine's name as text (cpsat, sat, native …)", field="engine", value=engine)
    if progress is not None and not callable(progress):
        raise InputError("give a callable progress(description, total) that returns a context manager, or None",
                         field="progress", value=progress)
    if shard_seconds is not None and (isinstance(shard_seconds, bool) or not isinstance(shard_seconds, (int, float))
                                      or not 0 < shard_seconds < float("inf")):
        raise InputError("give a number of seconds above 0, or None", field="shard_seconds", value=shard_seconds)
    if cluster is not None and not isinstance(cluster, str):
        raise InputError("give the cluster as text: local, local:N or tcp://HOST:PORT", field="cluster", value=cluster)
    if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
        raise InputError("give the checkpoint as a file name", field="checkpoint", value=checkpoint)
    if budget is not None and not isinstance(budget, Budget):
        raise InputError("give a cpwords.engines.budget.Budget or None", field="budget", value=budget)


#: How the execution layer names the arguments of a sharded run (as the CLI's options), and how
#: the API does.
_ARGUMENTS = {"--cluster": "cluster", "--checkpoint": "checkpoint"}


def _argument_named(exc: InputError) -> InputError:
    """``exc`` naming the API's argument (``cluster``) where the execution layer named the CLI's
    option (``--cluster``)."""
    if exc.field not in _ARGUMENTS:
        return exc
    return InputError(exc.message, source=exc.source, field=_ARGUMENTS[exc.field], value=exc.value, line=exc.line)


def _prepare(spec: BaseSpec, *, engine: str | None, seed: int | None, time_limit: float | None,
             workers: int | None) -> _Prepared:
    """The spec to solve: the call's options applied, a fresh seed drawn when none is given,
    workers capped at the machine's cores."""
    kind = puzzles.get(spec.kind)
    fresh_seed = seed is None and spec.seed is None
    if fresh_seed:
        seed = random.randrange(2**31)
    note = None
    asked_workers = workers if workers is not None else spec.workers
    if asked_workers is not None:
        capped, note = worker_count(asked_workers)
        if note is not None:
            workers = capped
    spec = with_options(spec, engine=engine, seed=seed, time_limit=time_limit, workers=workers)
    return _Prepared(spec, kind, fresh_seed, note)


def solve(
    spec: BaseSpec | dict[str, Any] | str,
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
    engine, seed, time_limit, workers:
        Override the spec's fields of the same name.
    cluster, checkpoint:
        Solve in shards (:func:`solve_batch`): ``cluster`` is ``local`` / ``local:N``
        (a Dask LocalCluster started here), a Dask scheduler address, or None (``$CPWORDS_CLUSTER``
        when set, else as without it); ``checkpoint`` an SQLite file that keeps every finished
        shard, so that the same call resumes. Neither given and no ``$CPWORDS_CLUSTER``: the
        kind's own solve on this machine. The answers are the same on every path.
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
        For a bad spec, engine, dictionary or word.
    """
    _check_call(seed=seed, time_limit=time_limit, workers=workers, cluster=cluster, checkpoint=checkpoint,
                budget=budget, engine=engine, check=check, progress=progress)
    spec = _as_spec(spec)
    if checkpoint is not None or _cluster_wanted(cluster):
        return solve_batch([spec], cluster=cluster, checkpoint=checkpoint, budget=budget, progress=progress,
                           engine=engine, seed=seed, time_limit=time_limit, workers=workers, check=check)[0]
    t0 = time.perf_counter()
    prepared = _prepare(spec, engine=engine, seed=seed, time_limit=time_limit, workers=workers)
    return _solve_prepared(prepared, t0, check=check, budget=budget, progress=progress)


def _cluster_wanted(cluster: str | None) -> bool:
    """Whether ``cluster`` (or ``$CPWORDS_CLUSTER`` when it is None) names a cluster."""
    if cluster is None and not os.environ.get("CPWORDS_CLUSTER"):
        return False  # the usual case, without importing the cluster package
    from cpwords.engines.dask_cluster import cluster_option

    return cluster_option(cluster) is not None


def _solve_prepared(prepared: _Prepared, t0: float, *, check: bool, budget: Budget | None,
                    progress: Progress | None) -> Result:
    spec, kind = prepared.spec, prepared.kind
    if budget is None:
        budget = Budget(spec.time_limit, progress=progress or no_progress)
    else:
        budget = budget.child(spec.time_limit)
        if progress is not None:
            budget.progress = progress
    try:
        result = kind.solve(spec, budget)
    except InputError as exc:
        raise spec.locate(exc) from None
    except SearchTimeout as exc:
        # A search that let its budget's signal out before it had anything: no answer in time.
        result = Result(kind=spec.kind, status=Status.UNKNOWN, engine=str(spec.engine), task=spec.task,
                        message=getattr(exc, "message", "the time limit was reached before any answer was found"),
                        stats={"stopped": budget.reason or str(exc)})
        if isinstance(exc, BuildStopped) and exc.to_finish:
            result.stats["build_stopped"] = exc.what
    _finish(result, prepared, round(time.perf_counter() - t0, 6), budget)
    if check and result.solutions:
        _check(kind, spec, result, budget)
    result.stats["wall_s"] = round(time.perf_counter() - t0, 6)
    return result


def _finish(result: Result, prepared: _Prepared, solve_s: float, budget: Budget) -> None:
    """The figures and fields the API adds to every result."""
    stats = result.stats
    stats["solve_s"] = solve_s
    stats["seed"] = prepared.spec.seed
    if prepared.fresh_seed:
        stats["seed_fresh"] = True
    if prepared.workers_note is not None:
        stats["workers_note"] = prepared.workers_note
    if budget.reason is not None and "stopped" not in stats and not result.status == Status.OPTIMAL:
        stats["stopped"] = budget.reason
    if "dictionary" in stats and (described := dictionary_stat(prepared.spec)) is not None:
        stats["dictionary"] = described  # says what the offensive filter took out
    if result.title is None:
        result.title = prepared.spec.title


def solve_many(
    specs: Iterable[BaseSpec | dict[str, Any] | str],
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
    engine, seed, workers:
        Override each spec's fields of the same name, as in :func:`solve`.
    time_limit:
        Seconds for the whole batch (each spec's own ``time_limit`` still bounds its solve): the
        puzzles not reached in time get status ``unknown``.
    check:
        Re-check every answer, as in :func:`solve`.
    scores_only:
        Results without their answers: status, ``count``, ``objective`` and stats only, equal to
        those of :func:`solve` (``stats['scores_only']`` is True). A board's value and number of
        words come out of the array search without the words themselves, which is what makes the
        Ruzzle batch fast; there is then nothing to re-check (solve a board on its own to see and
        check its words). Kinds without such a path solve as usual and drop the answers.
    budget, progress:
        As in :func:`solve`, for the whole batch.

    Returns
    -------
    list of Result, one per spec, in order. A result from a batch path has ``stats['batch_size']``
    (specs solved together) and ``stats['batch_s']`` (their seconds together); its ``solve_s`` and
    ``wall_s`` are its share.

    Raises
    ------
    InputError
        For a bad spec, engine, dictionary or word (nothing is returned then).

    Example
    -------
    >>> boards = [{"kind": "ruzzle", "grid": grid, "dictionary": "scowl-35"} for grid in (["cats", "dogs"], ["tea", "ram"])]
    >>> [(r.count, r.objective) for r in solve_many(boards, scores_only=True)]
    [(33, 205), (30, 133)]
    """
    _check_call(seed=seed, time_limit=time_limit, workers=workers, budget=budget, engine=engine, check=check,
                progress=progress, scores_only=scores_only)
    if isinstance(specs, (str, dict, BaseSpec)) or not isinstance(specs, Iterable):
        raise InputError("give the puzzles as a list (of spec objects, mappings or YAML texts)", field="specs",
                         value=specs)
    run = Budget(time_limit, progress=progress or no_progress) if budget is None else budget.child(time_limit)
    if budget is not None and progress is not None:
        run.progress = progress
    prepared = [_prepare(_as_spec(s), engine=engine, seed=seed, time_limit=None, workers=workers) for s in specs]
    results: list[Result | None] = [None] * len(prepared)
    batchable: dict[str, list[int]] = {}
    for i, p in enumerate(prepared):
        if p.kind.batch is not None:
            batchable.setdefault(p.kind.name, []).append(i)
    for name, indexes in batchable.items():
        kind = puzzles.get(name)
        assert kind.batch is not None
        t1 = time.perf_counter()
        out = kind.load(kind.batch)([prepared[i].spec for i in indexes], run, scores_only=scores_only)
        done = [(i, r) for i, r in zip(indexes, out, strict=True) if r is not None]
        batch_s = time.perf_counter() - t1
        for i, result in done:
            result.stats |= {"batch_size": len(done), "batch_s": round(batch_s, 6)}
            _finish(result, prepared[i], round(batch_s / len(done), 6), run)
            if check and result.solutions:
                _check(kind, prepared[i].spec, result, run)
            result.stats["wall_s"] = round(batch_s / len(done) + result.stats.get("check_s", 0.0), 6)
            results[i] = result
    out_all: list[Result] = []
    for i, p in enumerate(prepared):
        result = results[i]
        if result is None:
            result = _solve_prepared(p, time.perf_counter(), check=check, budget=run, progress=None)
            if scores_only:
                result.solutions = []
        if scores_only:
            result.stats["scores_only"] = True
        out_all.append(result)
    return out_all


def solve_batch(specs: Sequence[BaseSpec | dict[str, Any] | str], *, cluster: str | None = None,
                checkpoint: str | Path | None = None, budget: Budget | None = None,
                progress: Progress | None = None, engine: str | None = None, seed: int | None = None,
                time_limit: float | None = None, workers: int | None = None,
                shard_seconds: float | None = SHARD_SECONDS, check: bool = True) -> list[Result]:
    """Solve puzzles in shards (a batch file's documents, or one): all their shards share the
    workers of one executor and one checkpoint.

    Parameters
    ----------
    specs:
        Spec objects, mappings of their fields, or YAML texts.
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
    from cpwords.cluster.runner import run
    from cpwords.engines.dask_cluster import cluster_option

    _check_call(seed=seed, time_limit=time_limit, workers=workers, cluster=cluster, checkpoint=checkpoint,
                budget=budget, engine=engine, check=check, progress=progress, shard_seconds=shard_seconds)
    t0 = time.perf_counter()
    prepared: list[BaseSpec] = []
    fresh: list[bool] = []
    for given in specs:
        spec = _as_spec(given)
        fresh_seed = seed is None and spec.seed is None
        prepared.append(with_options(spec, engine=engine, time_limit=time_limit,
                                     seed=random.randrange(2**31) if fresh_seed else seed))
        fresh.append(fresh_seed)
    if checkpoint is not None:  # never a link, an input of the run or a folder (the one writer's rules)
        from cpwords import files, writer

        writer.Outputs(inputs=[p for spec in prepared for p in files.named_in(spec)]).claim(
            checkpoint, "--checkpoint", resumable=True)
    if budget is None:
        run_budget = Budget(None, progress=progress or no_progress)
    else:
        run_budget = budget.child()
        if progress is not None:
            run_budget.progress = progress
    asked = workers if workers is not None else max((s.workers for s in prepared if s.workers), default=None)
    try:
        results = run(prepared, run_budget, cluster=cluster_option(cluster), workers=asked, checkpoint=checkpoint,
                      shard_seconds=shard_seconds)
    except InputError as exc:
        raise _argument_named(exc) from None
    wall = round(time.perf_counter() - t0, 6)
    for spec, result, fresh_seed in zip(prepared, results, fresh, strict=True):
        result.stats |= {"solve_s": wall, "seed": spec.seed}
        if fresh_seed:
            result.stats["seed_fresh"] = True
        if result.title is None:
            result.title = spec.title
        if check and result.solutions:
            _check(puzzles.get(spec.kind), spec, result, run_budget)
        result.stats["wall_s"] = round(time.perf_counter() - t0, 6)
    return results


def _answers(n: int) -> str:
    """``the answer is`` or ``the N answers are``, for a message."""
    return "the answer is" if n == 1 else f"the {n:,} answers are"


def _check(kind: puzzles.PuzzleKind, spec: BaseSpec, result: Result, budget: Budget) -> None:
    """Re-check every answer; past the time limit (plus a grace period) the answers not yet
    checked are kept after the checked ones, marked unchecked in ``stats`` and the message.

    A kind with an all-at-once checker (``PuzzleKind.checker_all``) gets the answers in chunks
    of :data:`CHECK_CHUNK`; the others, one by one."""
    t0 = time.perf_counter()
    problems: list[str] = []
    checked = 0
    solutions = result.solutions
    # The check ends half a second past the deadline, the listing's conversion included, so that
    # the whole command keeps its promise; one that would start later than that (a one-time build
    # finished in its grace) checks nothing: every answer is kept, shown unchecked.
    end = None if budget.deadline is None else budget.deadline + CHECK_GRACE_S
    if kind.checker_all is not None:
        check_all = kind.load(kind.checker_all)
        for start in range(0, len(solutions), CHECK_CHUNK):
            if end is not None and time.monotonic() > end:
                break
            chunk = solutions[start:start + CHECK_CHUNK]
            for i, found in sorted(check_all(spec, chunk).items()):
                problems += [f"solution {start + i + 1}: {p}" for p in found]
            checked += len(chunk)
    else:
        check_one = kind.load(kind.checker)
        for i, solution in enumerate(solutions):
            if end is not None and time.monotonic() > end:
                break
            problems += [f"solution {i + 1}: {p}" for p in check_one(spec, solution)]
            checked += 1
    result.stats["check_s"] = round(time.perf_counter() - t0, 6)
    if checked < len(solutions):
        # What was found is kept: the answers the check did not reach follow the checked ones,
        # and the result says where they start (stats['unchecked_from'], a 0-based index).
        unchecked = len(solutions) - checked
        result.stats["unchecked"] = unchecked
        result.stats["unchecked_from"] = checked
        if result.status == Status.OPTIMAL:
            result.status = Status.FEASIBLE
        note = (f"the time limit cut the check short: the first {checked:,} answers are checked, "
                f"the last {unchecked:,} are shown unchecked" if checked else
                f"the time limit left no time for the check: {_answers(unchecked)} shown unchecked")
        result.message = f"{result.message}; {note}" if result.message else note
    if problems:
        result.status = Status.ERROR
        result.message = "internal check failed (please report): " + "; ".join(problems[:3])
