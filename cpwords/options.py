"""How a run is made, in one small validated object: :class:`Options`.

The CLI builds one from its flags, the server from its limits, and the API from a call's keyword
arguments; each hands it to :func:`cpwords.route.route`, the one place that decides where a spec
runs. A bad value is refused here, once, with the name the caller knows it by (``--workers`` on
the command line, ``workers`` in Python):

>>> Options(workers=2, time_limit=1.5).workers
2
>>> try:
...     Options(workers=0, labels={"workers": "--workers"})
... except InputError as exc:
...     print(exc.field, exc.value)
--workers 0
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import PydanticCustomError

from cpwords.engines.shards import SHARD_SECONDS
from cpwords.errors import InputError
from cpwords.specs import BaseSpec, error_value, gate

#: Fields every spec shares that no spec's own validators read: replaced without re-validating the spec.
_PLAIN_FIELDS = frozenset({"seed", "time_limit", "workers"})
#: Where the cluster comes from when no option names one.
CLUSTER_ENV = "CPWORDS_CLUSTER"


@dataclass(frozen=True)
class Options:
    """The options of one run (a call, a command, a server job); None leaves the spec's own value.

    Attributes
    ----------
    engine, seed, time_limit:
        Replace the spec's fields of the same name.
    workers:
        Processes the run may use on this machine (None: the spec's ``workers``, else the route's
        default). Capped at the usable cores.
    max_workers:
        A ceiling the caller puts on the workers whatever the spec asks (the server's share of the
        machine for one job); None: the cores.
    cluster:
        ``local`` / ``local:N`` (a Dask LocalCluster started for the run) or a scheduler address
        (``tcp://HOST:PORT``); None: ``$CPWORDS_CLUSTER`` when set, else no cluster.
    checkpoint:
        SQLite file keeping every finished shard: the run goes in shards (on the workers or the
        cluster), and the same run resumes from it.
    shard_seconds:
        A splittable shard running longer than this is stopped and split (None: never).
    labels:
        What the caller calls each option (``{"workers": "--workers"}``), for error messages.
    """

    engine: str | None = None
    seed: int | None = None
    time_limit: float | None = None
    workers: int | None = None
    max_workers: int | None = None
    cluster: str | None = None
    checkpoint: str | os.PathLike[str] | None = None
    shard_seconds: float | None = SHARD_SECONDS
    labels: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.engine is not None and not isinstance(self.engine, str):
            self._refuse("engine", "give the engine's name as text (cpsat, sat, native …)")
        for name in ("seed", "time_limit", "workers"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, plain_field(name, value, self.label(name)))
        if self.max_workers is not None and (isinstance(self.max_workers, bool)
                                             or not isinstance(self.max_workers, int) or self.max_workers < 1):
            self._refuse("max_workers", "give a whole number of processes, at least 1")
        if self.cluster is not None and not isinstance(self.cluster, str):
            self._refuse("cluster", "give the cluster as text: local, local:N or tcp://HOST:PORT")
        if self.checkpoint is not None and not isinstance(self.checkpoint, (str, os.PathLike)):
            self._refuse("checkpoint", "give the checkpoint as a file name")
        seconds = self.shard_seconds
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                    or not 0 < seconds < float("inf")):
            self._refuse("shard_seconds", "give a number of seconds above 0, or None")

    def label(self, name: str) -> str:
        """What the caller calls option ``name``."""
        return self.labels.get(name, name)

    def _refuse(self, name: str, message: str) -> None:
        raise InputError(message, field=self.label(name), value=getattr(self, name))

    def merged(self, **given: Any) -> Options:
        """These options with the given ones (those not None) in their place, validated."""
        known = {f.name for f in fields(self)}
        return replace(self, **{k: v for k, v in given.items() if v is not None and k in known})

    def cluster_address(self) -> str | None:
        """The cluster to run on: :attr:`cluster`, else ``$CPWORDS_CLUSTER``; None when neither
        names one (``none`` / ``off`` in either place mean none). An error in the variable's
        value names the variable."""
        value = self.cluster if self.cluster is not None else os.environ.get(CLUSTER_ENV) or None
        if value is None or value.strip().lower() in ("", "none", "off"):
            return None
        value = value.strip()
        if value.startswith("local"):
            from cpwords.engines.dask_cluster import parse_local

            try:
                parse_local(value)
            except InputError as exc:
                where = self.label("cluster") if self.cluster is not None else f"${CLUSTER_ENV}"
                raise InputError(exc.message, field=where, value=value) from None
        return value

    def checkpoint_path(self) -> Path | None:
        """The checkpoint as a path, or None."""
        return None if self.checkpoint is None else Path(self.checkpoint)


def plain_field(name: str, value: Any, label: str | None = None) -> Any:
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
        checked = {name: plain_field(name, value, (labels or {}).get(name)) for name, value in options.items()}
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
