"""The public API behind ``cpwords`` and its CLI: load puzzle specs, solve them.

>>> import cpwords
>>> spec = cpwords.loads("kind: ladder\\nstart: cat\\ntarget: dog\\nmode: shortest\\nseed: 1\\n")
>>> cpwords.solve(spec).solutions[0].steps
3
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from cpwords import puzzles
from cpwords.engines.budget import Budget, Progress, no_progress, usable_cores
from cpwords.errors import InputError
from cpwords.results import Result, Status
from cpwords.specs import BaseSpec, load_specs, loads_specs, parse_spec

#: Seconds the independent check may run past the time limit before unchecked answers are dropped.
CHECK_GRACE_S = 0.5


def load(path: str | Path) -> list[BaseSpec]:
    """Every puzzle of a YAML file (several ``---`` documents make a batch)."""
    return load_specs(path)


def loads(text: str) -> BaseSpec:
    """The single puzzle of a YAML string."""
    specs = loads_specs(text)
    if len(specs) != 1:
        raise InputError(f"expected one puzzle, found {len(specs)}")
    return specs[0]


def with_options(spec: BaseSpec, *, labels: Mapping[str, str] | None = None, **options: Any) -> BaseSpec:
    """A copy of ``spec`` with some fields replaced (None leaves a field as it is), validated like
    the YAML form.

    ``labels`` says how each option is called where it came from (``{"engine": "--engine"}`` for
    the CLI), so that an error blames the option and not the puzzle file.
    """
    options = {k: v for k, v in options.items() if v is not None}
    if not options:
        return spec
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
        value = first.get("ctx", {}).get("value", first.get("input"))
        top = field.split(".")[0].split("[")[0]
        message = first["msg"].removeprefix("Value error, ")
        if top in options:
            raise InputError(message, field=(labels or {}).get(top, top), value=options[top]) from None
        raise InputError(message, source=spec.source, field=field, value=value) from None
    new._source = spec.source
    return new


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
) -> Result:
    """Solve one puzzle.

    Parameters
    ----------
    spec:
        A spec object, a mapping of its fields, or YAML text.
    engine, seed, time_limit, workers:
        Override the spec's fields of the same name.
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
    if isinstance(spec, str):
        spec = loads(spec)
    elif isinstance(spec, dict):
        spec = parse_spec(spec)
    t0 = time.perf_counter()
    kind = puzzles.get(spec.kind)
    fresh_seed = seed is None and spec.seed is None
    if fresh_seed:
        seed = random.randrange(2**31)
    cores = usable_cores()
    asked_workers = workers if workers is not None else spec.workers
    if asked_workers is not None and asked_workers > cores:
        workers = cores
    spec = with_options(spec, engine=engine, seed=seed, time_limit=time_limit, workers=workers)
    if budget is None:
        budget = Budget(spec.time_limit, progress=progress or no_progress)
    else:
        budget = budget.child(spec.time_limit)
        if progress is not None:
            budget.progress = progress
    result = kind.solve(spec, budget)
    result.stats["solve_s"] = round(time.perf_counter() - t0, 6)
    result.stats["seed"] = spec.seed
    if fresh_seed:
        result.stats["seed_fresh"] = True
    if asked_workers is not None and asked_workers > cores:
        result.stats["workers_note"] = f"asked for {asked_workers} workers; this machine has {cores} cores"
    if budget.reason is not None and "stopped" not in result.stats and not result.status == Status.OPTIMAL:
        result.stats["stopped"] = budget.reason
    if result.title is None:
        result.title = spec.title
    if check and result.solutions:
        _check(kind, spec, result, budget)
    result.stats["wall_s"] = round(time.perf_counter() - t0, 6)
    return result


def _check(kind: puzzles.PuzzleKind, spec: BaseSpec, result: Result, budget: Budget) -> None:
    """Re-check every answer; past the time limit (plus a grace period) the answers not yet
    checked are dropped rather than shown unchecked, and the result says so."""
    t0 = time.perf_counter()
    problems: list[str] = []
    checked = 0
    for i, solution in enumerate(result.solutions):
        if i and budget.deadline is not None and time.monotonic() > budget.deadline + CHECK_GRACE_S:
            break
        problems += [f"solution {i + 1}: {p}" for p in kind.check(spec, solution)]
        checked += 1
    result.stats["check_s"] = round(time.perf_counter() - t0, 6)
    if checked < len(result.solutions):
        dropped = len(result.solutions) - checked
        result.solutions = result.solutions[:checked]
        result.stats["unchecked_dropped"] = dropped
        if result.status == Status.OPTIMAL:
            result.status = Status.FEASIBLE
        if result.count_exact:
            result.count_exact = None if result.count is None else result.count_exact
        note = f"the time limit cut the check short: {checked:,} checked answers shown, {dropped:,} dropped"
        result.message = f"{result.message}; {note}" if result.message else note
    if problems:
        result.status = Status.ERROR
        result.message = "internal check failed (please report): " + "; ".join(problems[:3])
