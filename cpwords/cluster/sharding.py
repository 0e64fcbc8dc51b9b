"""The shard interface every kind implements for the cluster runner, and what identifies a run.

A kind that can spread a big task over many machines names a :class:`Sharding` in its
descriptor (``shards="shards:SHARDING"``). The runner asks it to

* :meth:`~Sharding.prepare` what its shards share (the problem, a lexicon), once per process;
* :meth:`~Sharding.plan` the shards of a spec: picklable :class:`Shard` objects with a stable id
  (the checkpoint key) and a cost estimate (bigger shards start first);
* :meth:`~Sharding.run` one shard anywhere, returning plain data (the *partial*);
* :meth:`~Sharding.split` a shard that ran past the runner's time cap into smaller ones (the
  heavy ones are found by measuring them, not by guessing), keeping what the cut attempt finished;
* :meth:`~Sharding.combine` the partials into one :class:`~cpwords.engines.found.Found` (exact
  integer sums, or a maximum with a fixed tie-break) and build the :meth:`~Sharding.result`.

Partials and shard data are JSON data (ints, strings, lists, dicts): they travel to workers and
back, and the checkpoint stores them as they are; Python's ``json`` keeps integers exact.

A run is identified by :func:`fingerprint`: the spec's fields (without the ones that cannot
change an answer: ``time_limit``, ``workers``, ``title``; and ``seed`` unless the sharding uses
it), the content hash of every dictionary and file the spec names, and the sharding's version.

>>> shard = Shard("h:3", [[3]], cost=2.0)
>>> Shard.from_json(shard.to_json()) == shard
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from cpwords.engines.budget import Budget
    from cpwords.engines.found import Found
    from cpwords.results import Result
    from cpwords.specs import BaseSpec


@dataclass(frozen=True)
class Shard:
    """One independent piece of a task.

    Attributes
    ----------
    id: unique within its spec's plan and the same in every run (the checkpoint key).
    data: what :meth:`Sharding.run` needs, as JSON data (lists, not tuples).
    cost: estimated cost relative to the other shards of the plan; bigger shards start first.
    splittable: the shard can be split when it runs past the runner's time cap.
    small: so cheap that the runner sends several in one task (per-task overhead would dominate).
    """

    id: str
    data: Any
    cost: float = 1.0
    splittable: bool = False
    small: bool = False

    def to_json(self) -> dict[str, Any]:
        """The shard as JSON data (for the checkpoint)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shard:
        """The shard :meth:`to_json` wrote."""
        return cls(**data)


class ShardStopped(Exception):
    """Raised by :meth:`Sharding.run` when its budget ran out first: ``partial`` holds what the
    shard found before it stopped (a lower bound, or the best so far), or None."""

    def __init__(self, partial: Any = None) -> None:
        super().__init__("shard stopped before it finished")
        self.partial = partial


class Sharding:
    """How one kind splits some of its tasks into shards; subclassed in ``puzzles/<kind>/shards.py``.

    Attributes
    ----------
    version: changes whenever plans, partials or their meaning change, so that a checkpoint of
        an older scheme is refused instead of mixed in.
    uses_seed: the answer depends on the spec's seed (a seeded search), so the seed is part of
        the run's identity.
    """

    version = "1"
    uses_seed = False

    def supports(self, spec: BaseSpec) -> bool:
        """Whether this spec's task and engine are sharded here (the others run whole)."""
        raise NotImplementedError

    def prepare(self, spec: BaseSpec) -> Any:
        """What every shard of ``spec`` needs (problem, lexicon …), built once per process."""
        raise NotImplementedError

    def plan(self, spec: BaseSpec, context: Any) -> list[Shard]:
        """The shards of ``spec``: together they cover the whole task exactly once."""
        raise NotImplementedError

    def run(self, spec: BaseSpec, context: Any, shard: Shard, budget: Budget) -> Any:
        """Solve one shard within ``budget``: its partial result as JSON data.

        Raises
        ------
        ShardStopped
            When the budget ran out first (with what was found so far).
        """
        raise NotImplementedError

    def split(self, spec: BaseSpec, context: Any, shard: Shard, partial: Any) -> list[Shard | tuple[Shard, Any]]:
        """Smaller shards covering exactly what ``shard`` covers (only for splittable shards).

        ``partial`` is what the attempt cut at the time cap found (from :class:`ShardStopped`).
        A piece that attempt already finished comes back as ``(shard, its partial)``: it is kept,
        not run again, so a cut attempt wastes only the piece it was in the middle of.
        """
        raise NotImplementedError(f"{type(self).__name__} does not split shards")

    def combine(self, spec: BaseSpec, context: Any, partials: Sequence[tuple[Shard, Any]],
                complete: bool) -> Found:
        """One Found from the partials, in shard-id order.

        ``complete`` says whether every shard finished; when not, ``partials`` also holds what
        stopped shards found (:class:`ShardStopped`), and the runner marks the Found incomplete.
        """
        raise NotImplementedError

    def result(self, spec: BaseSpec, context: Any, found: Found) -> Result:
        """The Result of the combined Found, as the kind's own ``solve`` would build it."""
        raise NotImplementedError


def sharding_of(spec: BaseSpec) -> Sharding:
    """The sharding for ``spec``: its kind's, when the kind has one that supports the spec's task
    and engine, else :class:`~cpwords.cluster.whole.WholeSpec` (the spec as one shard)."""
    from cpwords import puzzles
    from cpwords.cluster.whole import WholeSpec

    kind = puzzles.get(spec.kind)
    if kind.shards:
        sharding: Sharding = kind.load(kind.shards)
        if sharding.supports(spec):
            return sharding
    return WholeSpec()


# ---------------------------------------------------------------- identity of a run

#: Spec fields that cannot change an answer (a resumed run may change them freely).
NEUTRAL_FIELDS = frozenset({"time_limit", "workers", "title"})


def fingerprint(spec: BaseSpec, sharding: Sharding) -> dict[str, Any]:
    """What identifies the answer of ``spec``: its fields, the content of its data, the scheme.

    Returns
    -------
    ``{"kind", "fields", "data", "scheme"}``: ``data`` maps each field path that names a
    dictionary or a file to the SHA-256 of its content (a dictionary's words and values).

    Raises
    ------
    InputError
        When a dictionary or a file the spec names cannot be read.
    """
    exclude = set(NEUTRAL_FIELDS) | (set() if sharding.uses_seed else {"seed"})
    fields = spec.model_dump(mode="json", exclude=exclude)
    return {"kind": spec.kind, "fields": fields, "data": dict(_data_hashes(spec, "")),
            "scheme": f"{type(sharding).__module__}.{type(sharding).__name__}:{sharding.version}"}


def digest(value: Any) -> str:
    """SHA-256 of JSON data (keys sorted)."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def _data_hashes(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """(field path, content hash) of every dictionary and file reachable from ``value``."""
    from cpwords.specs import DictionaryRef

    if isinstance(value, DictionaryRef):
        from cpwords.lexicon import load_lexicon

        yield path, load_lexicon(value).content_hash
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _data_hashes(getattr(value, name), f"{path}.{name}" if path else name)
    elif isinstance(value, Path):
        yield path, _file_hash(value)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _data_hashes(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _data_hashes(item, f"{path}.{key}")


def _file_hash(path: Path) -> str:
    from cpwords.errors import InputError

    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", value=str(path)) from None


def changes(old: dict[str, Any], new: dict[str, Any]) -> str:
    """In words, how fingerprint ``new`` differs from ``old`` (for the refusal message).

    >>> a = {"kind": "k", "fields": {"x": 1, "seed": 2}, "data": {"dictionary": "aa"}, "scheme": "s:1"}
    >>> changes(a, {**a, "data": {"dictionary": "bb"}})
    'the content of dictionary changed'
    >>> changes(a, {**a, "fields": {"x": 3, "seed": 2}})
    'field x changed (1 -> 3)'
    """
    if old.get("kind") != new.get("kind"):
        return f"the puzzle kind changed ({old.get('kind')} -> {new.get('kind')})"
    if old.get("scheme") != new.get("scheme"):
        return "cpwords' shard scheme changed (a newer cpwords)"
    said = []
    old_fields, new_fields = old.get("fields", {}), new.get("fields", {})
    for name in sorted(set(old_fields) | set(new_fields)):
        a, b = old_fields.get(name), new_fields.get(name)
        if a != b:
            if name == "seed":
                said.append(f"the seed changed (the checkpoint used seed {a}; pass --seed {a} to resume it)")
            else:
                shown = f" ({_short(a)} -> {_short(b)})" if len(str(a)) + len(str(b)) < 60 else ""
                said.append(f"field {name} changed{shown}")
    old_data, new_data = old.get("data", {}), new.get("data", {})
    for name in sorted(set(old_data) | set(new_data)):
        if old_data.get(name) != new_data.get(name) and old_fields.get(name) == new_fields.get(name):
            said.append(f"the content of {name} changed")
    return "; ".join(said) or "the run changed"


def _short(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str | int | float) else str(value)
