"""The public API behind ``cpwords`` and its CLI: load puzzle specs, solve them.

>>> import cpwords
>>> spec = cpwords.loads("kind: ladder\\nstart: cat\\ntarget: dog\\n")  # doctest: +SKIP
>>> cpwords.solve(spec).solutions[0].words  # doctest: +SKIP
['cat', 'cot', 'dot', 'dog']
"""

from __future__ import annotations

import importlib
import random
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import ValidationError

from cpwords.errors import InputError
from cpwords.results import Result, Status
from cpwords.specs import BaseSpec, load_specs, loads_specs, parse_spec


def kind_module(kind: str) -> ModuleType:
    """The package of a puzzle kind (``cpwords.puzzles.<kind>``)."""
    from cpwords.puzzles import KINDS

    if kind not in KINDS:
        raise InputError(f"unknown puzzle kind; known kinds: {', '.join(sorted(KINDS))}", field="kind", value=kind)
    return importlib.import_module(KINDS[kind])


def load(path: str | Path) -> list[BaseSpec]:
    """Every puzzle of a YAML file (several ``---`` documents make a batch)."""
    return load_specs(path)


def loads(text: str) -> BaseSpec:
    """The single puzzle of a YAML string."""
    specs = loads_specs(text)
    if len(specs) != 1:
        raise InputError(f"expected one puzzle, found {len(specs)}")
    return specs[0]


def with_options(spec: BaseSpec, **options: Any) -> BaseSpec:
    """A copy of ``spec`` with some fields replaced, validated like the YAML form."""
    options = {k: v for k, v in options.items() if v is not None}
    if not options:
        return spec
    data = spec.model_dump()
    data.update(options)
    try:
        new = type(spec).model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        field = ".".join(str(s) for s in first["loc"])
        raise InputError(first["msg"].removeprefix("Value error, "), source=getattr(spec, "_source", None), field=field,
                         value=first.get("input")) from None
    new._source = getattr(spec, "_source", None)  # type: ignore[attr-defined]
    return new


def solve(
    spec: BaseSpec | dict[str, Any] | str,
    *,
    engine: str | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    check: bool = True,
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

    Returns
    -------
    Result, with ``stats['wall_s']`` and ``stats['seed']`` filled in.

    Raises
    ------
    InputError
        For a bad spec, engine, dictionary or word.
    """
    if isinstance(spec, str):
        spec = loads(spec)
    elif isinstance(spec, dict):
        spec = parse_spec(spec)
    module = kind_module(spec.kind)
    engines = getattr(module, "ENGINES", ())
    if engine is not None and engine not in engines:
        raise InputError(f"engine not available for {spec.kind}; choose one of: {', '.join(engines)}",
                         field="engine", value=engine)
    fresh_seed = seed is None and spec.seed is None
    if fresh_seed:
        seed = random.randrange(2**31)
    spec = with_options(spec, engine=engine, seed=seed, time_limit=time_limit, workers=workers)
    t0 = time.perf_counter()
    result: Result = module.solve(spec)
    wall = time.perf_counter() - t0
    result.stats.setdefault("wall_s", round(wall, 6))
    result.stats.setdefault("seed", spec.seed)
    if fresh_seed:
        result.stats["seed_fresh"] = True
    if result.title is None:
        result.title = spec.title
    if check and result.solutions:
        from cpwords import verify

        if verify.checker(spec.kind) is not None:
            problems = verify.check(spec, result)
            if problems:
                result.status = Status.ERROR
                result.message = "internal check failed (please report): " + "; ".join(problems[:3])
    return result
