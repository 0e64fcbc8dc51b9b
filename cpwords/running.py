"""How a routed spec is run (:mod:`cpwords.route` decided where): the kind's own solve in this
process, the kinds' batch paths, or the shard runner; and what the API adds to every result.
The public functions of :mod:`cpwords.api` validate their arguments and delegate here."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from cpwords import puzzles
from cpwords.checking import check_result
from cpwords.engines.budget import Budget, BuildStopped, Progress, SearchTimeout, no_progress
from cpwords.errors import InputError
from cpwords.lexicon.sources import dictionary_stat
from cpwords.options import Options, with_options
from cpwords.puzzles.loading import parse_spec
from cpwords.results import Result, Status
from cpwords.route import Route, route
from cpwords.specs import BaseSpec


@dataclass
class Prepared:
    """A spec with the run's options applied, its kind, its route, and what the result's stats
    need to say."""

    spec: BaseSpec
    kind: puzzles.PuzzleKind
    fresh_seed: bool
    route: Route


def as_spec(spec: BaseSpec | dict[str, Any] | str) -> BaseSpec:
    """A spec object from a spec object, a mapping of its fields, or YAML text."""
    if isinstance(spec, str):
        from cpwords.puzzles.loading import loads_specs

        specs = loads_specs(spec)
        if len(specs) != 1:
            raise InputError(f"expected one puzzle, found {len(specs)}")
        return specs[0]
    if isinstance(spec, dict):
        return parse_spec(spec)
    if not isinstance(spec, BaseSpec):
        raise InputError("a puzzle is a spec object, a mapping of its fields or YAML text, not "
                         f"{type(spec).__name__}", field="spec", value=spec)
    return spec


def options_of(options: Options | None, **given: Any) -> Options:
    """The call's options: ``options`` with the keyword arguments given in their place (checked)."""
    if options is not None and not isinstance(options, Options):
        raise InputError("give the run's options as a cpwords.Options or None", field="options", value=options)
    return (options or Options()).merged(**given)


def check_call(*, budget: Any = None, check: Any = True, progress: Any = None, scores_only: Any = False) -> None:
    """The call's arguments that are not run options: a wrong value is an InputError naming the
    argument, never a TypeError further down."""
    for name, value in (("check", check), ("scores_only", scores_only)):
        if not isinstance(value, bool):
            raise InputError("give True or False", field=name, value=value)
    if progress is not None and not callable(progress):
        raise InputError("give a callable progress(description, total) that returns a context manager, or None",
                         field="progress", value=progress)
    if budget is not None and not isinstance(budget, Budget):
        raise InputError("give a cpwords.engines.budget.Budget or None", field="budget", value=budget)


def prepare(spec: BaseSpec, options: Options, *, time_limit: bool = True, shards: bool = False) -> Prepared:
    """The spec to solve: the run's options applied (the time limit too unless told), a fresh
    seed drawn when none is given, and its route."""
    fresh_seed = options.seed is None and spec.seed is None
    seed = random.randrange(2**31) if fresh_seed else options.seed
    spec = with_options(spec, labels=options.labels, engine=options.engine, seed=seed,
                        time_limit=options.time_limit if time_limit else None)
    return Prepared(spec, puzzles.get(spec.kind), fresh_seed, route(spec, options, shards=shards))


def run_budget(budget: Budget | None, limit: float | None, progress: Progress | None) -> Budget:
    """The budget of a call: a part of ``budget`` (ending at ``limit`` too), or a new one."""
    if budget is None:
        return Budget(limit, progress=progress or no_progress)
    run = budget.child(limit)
    if progress is not None:
        run.progress = progress
    return run


def solve_prepared(prepared: Prepared, t0: float, *, check: bool, budget: Budget | None,
                    progress: Progress | None) -> Result:
    """The kind's own solve, in this process (the route said ``here``)."""
    spec, kind = prepared.spec, prepared.kind
    budget = run_budget(budget, spec.time_limit, progress)
    budget.workers = prepared.route.workers or 1
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
    finish(result, prepared, round(time.perf_counter() - t0, 6), budget)
    if check and result.solutions:
        check_result(kind, spec, result, budget)
    result.stats["wall_s"] = round(time.perf_counter() - t0, 6)
    return result


def finish(result: Result, prepared: Prepared, solve_s: float, budget: Budget) -> None:
    """The figures and fields the API adds to every result."""
    stats = result.stats
    stats["solve_s"] = solve_s
    stats["seed"] = prepared.spec.seed
    if prepared.fresh_seed:
        stats["seed_fresh"] = True
    if prepared.route.note is not None:
        stats["workers_note"] = prepared.route.note
    if budget.reason is not None and "stopped" not in stats and not result.status == Status.OPTIMAL:
        stats["stopped"] = budget.reason
    if "dictionary" in stats and (described := dictionary_stat(prepared.spec)) is not None:
        stats["dictionary"] = described  # says what the offensive filter took out
    if result.title is None:
        result.title = prepared.spec.title


def solve_all(prepared: list[Prepared], options: Options, run: Budget, *, check: bool,
              scores_only: bool) -> list[Result]:
    """Every spec's result, in order: those the kinds' batch paths take together, the others each
    on its route (``scores_only``: without their answers)."""
    results = solve_batch_paths(prepared, run, check=check, scores_only=scores_only)
    out: list[Result] = []
    for p, result in zip(prepared, results, strict=True):
        if result is None:
            sharded = solve_sharded([p], options, run, time.perf_counter(), check=check) if p.route.sharded else None
            result = sharded[0] if sharded is not None else solve_prepared(p, time.perf_counter(), check=check,
                                                                            budget=run, progress=None)
            if scores_only:
                result.solutions = []
        if scores_only:
            result.stats["scores_only"] = True
        out.append(result)
    return out


def solve_batch_paths(prepared: list[Prepared], run: Budget, *, check: bool,
                       scores_only: bool) -> list[Result | None]:
    """The results the kinds' batch paths give (None where a spec is left to :func:`solve`)."""
    results: list[Result | None] = [None] * len(prepared)
    batchable: dict[str, list[int]] = {}
    for i, p in enumerate(prepared):
        if p.kind.batch is not None and not p.route.sharded:
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
            finish(result, prepared[i], round(batch_s / len(done), 6), run)
            if check and result.solutions:
                check_result(kind, prepared[i].spec, result, run)
            result.stats["wall_s"] = round(batch_s / len(done) + result.stats.get("check_s", 0.0), 6)
            results[i] = result
    return results


def solve_sharded(prepared: list[Prepared], options: Options, budget: Budget, t0: float, *, check: bool,
                   progress: Progress | None = None) -> list[Result] | None:
    """Results of specs through the shard runner (their routes say ``workers`` or ``cluster``);
    None when the route chose workers but the plan is too small for them (solve here then)."""
    from cpwords.cluster.runner import run

    if options.checkpoint is not None:  # never a link, an input of the run or a folder (the one writer's rules)
        from cpwords import files, writer

        writer.Outputs(inputs=[p for item in prepared for p in files.named_in(item.spec)]).claim(
            options.checkpoint, options.label("checkpoint"), resumable=True)
    if progress is not None:
        budget.progress = progress
    if not prepared:
        return []
    first = prepared[0].route
    workers = max((p.route.workers for p in prepared if p.route.workers), default=None) \
        if first.where == "workers" else first.workers
    try:
        results = run([p.spec for p in prepared], budget, cluster=first.cluster, workers=workers,
                      checkpoint=options.checkpoint_path(), shard_seconds=options.shard_seconds,
                      spread_always=any(p.route.forced for p in prepared))
    except InputError as exc:
        raise argument_named(exc, options) from None
    if results is None:
        return None
    wall = round(time.perf_counter() - t0, 6)
    for item, result in zip(prepared, results, strict=True):
        result.stats |= {"solve_s": wall, "seed": item.spec.seed}
        if item.fresh_seed:
            result.stats["seed_fresh"] = True
        if result.title is None:
            result.title = item.spec.title
        if check and result.solutions:
            check_result(item.kind, item.spec, result, budget)
        result.stats["wall_s"] = round(time.perf_counter() - t0, 6)
    return results


#: How the execution layer names the arguments of a sharded run (as the CLI's options).
_LAYER_NAMES = {"--cluster": "cluster", "--checkpoint": "checkpoint"}


def argument_named(exc: InputError, options: Options) -> InputError:
    """``exc`` naming the option as the caller calls it, where the execution layer named the
    CLI's (``--cluster``); the cluster of ``$CPWORDS_CLUSTER`` named as the variable."""
    if exc.field not in _LAYER_NAMES:
        return exc
    name = _LAYER_NAMES[exc.field]
    field = "$CPWORDS_CLUSTER" if name == "cluster" and options.cluster is None else options.label(name)
    return InputError(exc.message, source=exc.source, field=field, value=exc.value, line=exc.line)
