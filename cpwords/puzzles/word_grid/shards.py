"""Shards of the native word-grid count for the cluster runner: the terms of the counting formula.

The count is a weighted sum of independent terms (:func:`.count.count_terms`): one per Burnside
group element and class of slot partitions of the inclusion–exclusion, each the count of one
network whose plan sums an outer loop of *leaves* (for the 7×7 Gridle: the letters of a 2×2 block
of crossings). A shard is a list of ranges of terms' leaves: the plan cuts every term into ranges
of at most 1/:data:`TERM_SHARDS` of all the leaves, so a term far bigger than the others (the 7×7
without symmetry holds nearly all the work) becomes many shards, and groups small ranges (the
5×5 has a hundred small terms) to at least :data:`MIN_LEAVES` leaves a shard. A shard that runs
past the runner's time cap is split: the ranges it finished are kept, the range it was in is cut
into :data:`SPLIT` smaller ones, and the ranges it did not reach are split in two halves. A
shard's partial is the exact unweighted count of each of its ranges; :func:`.count.combine_terms`
weighs and adds them, so the total is the one-process count whatever ran where. The cost
estimate of a shard is its number of leaves. A partial sum of inclusion–exclusion terms bounds
nothing, so a count cut short reports no number.

A shape whose terms cannot be contracted (:class:`.count.TooLargeToContract`) is counted by the
engine's enumeration, as one shard.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cpwords import puzzles
from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found
from cpwords.engines.shards import Shard, Sharding, ShardStopped
from cpwords.puzzles import Prepared
from cpwords.puzzles.word_grid import count as grid_count
from cpwords.puzzles.word_grid.count_engine import NetworkPlan
from cpwords.puzzles.word_grid.count_network import build_network, word_arrays
from cpwords.puzzles.word_grid.problem import GridProblem
from cpwords.results import Result

ENUMERATION = "enumeration"


#: The plan cuts terms into ranges of at most this fraction of all leaves.
TERM_SHARDS = 256
#: Fewest leaves in a shard (a leaf takes about a millisecond: smaller shards cost more to send).
MIN_LEAVES = 32
#: Fewest leaves in a plan for local workers to pay off (about half a second of counting in one
#: process: starting the workers and planning again in each costs about that).
SPREAD_MIN_LEAVES = 500
#: Ranges a shard past the time cap is split into.
SPLIT = 8
#: Term plans kept per process.
PLANS_KEPT = 8


@dataclass
class GridContext:
    """The prepared problem, its words as arrays, and the plans of the terms met so far (a plan
    takes long to build for the 7×7, so a process builds each one once for all its shards)."""

    prepared: Prepared
    arrays: dict[int, Any]
    plans: dict[tuple[str, tuple[tuple[int, ...], ...]], NetworkPlan] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, piece: dict[str, Any], budget: Budget) -> int:
        """The unweighted count of a term over its range of leaves (:func:`.count.count_term`,
        with the term's plan built once per process)."""
        key = (piece["g"], tuple(tuple(b) for b in piece["partition"]))
        with self.lock:  # one term at a time per process: a plan is not shared between threads
            plan = self.plans.pop(key, None)
            if plan is None:
                g = {g.name: g for g in self.prepared.problem.group}[piece["g"]]
                plan = NetworkPlan(build_network(self.prepared.problem, key[1], None if g.is_identity else g.perm, self.arrays))
            self.plans[key] = plan
            while len(self.plans) > PLANS_KEPT:
                self.plans.pop(next(iter(self.plans)))
            if plan.leaves != piece["leaves"]:
                raise ValueError(f"the term has {plan.leaves} leaves here, {piece['leaves']} where it was planned")
            return plan.run(piece["chunk"][0], piece["chunk"][1], budget)


def _piece(g: str, partition: Sequence[Sequence[int]], weight: int, leaves: int, start: int,
           stop: int) -> dict[str, Any]:
    """A range of one term's leaves, as JSON data."""
    return {"g": g, "partition": [list(b) for b in partition], "weight": weight, "leaves": leaves,
            "chunk": [start, stop]}


def _size(piece: dict[str, Any]) -> int:
    return int(piece["chunk"][1] - piece["chunk"][0])


def _shard(pieces: list[dict[str, Any]]) -> Shard:
    """A shard of consecutive pieces; named by its first (pieces never overlap, so ids never repeat)."""
    first = pieces[0]
    blocks = "|".join(",".join(map(str, b)) for b in first["partition"])
    sid = f"{first['g']}:{blocks}:{first['chunk'][0]}-{first['chunk'][1]}" + (f"+{len(pieces) - 1}" if len(pieces) > 1
                                                                                 else "")
    size = sum(_size(p) for p in pieces)
    return Shard(sid, pieces, cost=float(size), splittable=len(pieces) > 1 or size > 1)


def _term(piece: dict[str, Any]) -> grid_count.Term:
    return grid_count.Term(piece["g"], tuple(tuple(b) for b in piece["partition"]), piece["weight"],
                           (piece["chunk"][0], piece["chunk"][1]), piece["leaves"])


def _ranges(start: int, stop: int, size: int) -> list[tuple[int, int]]:
    return [(a, min(a + size, stop)) for a in range(start, stop, max(1, size))]


class GridSharding(Sharding):
    """Shards of ranges of the terms of the native ``count`` (see the module)."""

    version = "1"

    def spreads_unasked(self, spec: Any) -> bool:
        """Without a time limit: a big count's leaves keep every core busy (a small plan stays
        here, :meth:`worth_spreading`). With one, the count stays in this process unless workers
        are asked for: cut short there, it lists grids for the rest of the time and reports a lower
        bound, where a cut sum of signed terms bounds nothing."""
        return spec.time_limit is None

    def supports(self, spec: Any) -> bool:
        """The native count."""
        return bool(spec.task == "count" and spec.engine == "native")

    def prepare(self, spec: Any) -> GridContext:
        """The kind's own preparation (the grid problem) and its words as arrays."""
        prepared = puzzles.get(spec.kind).prepare(spec)
        return GridContext(prepared, word_arrays(prepared.problem))

    def plan(self, spec: Any, context: GridContext, budget: Budget | None = None) -> list[Shard]:
        """Terms cut into ranges of leaves, small ones grouped, or one enumeration shard.

        Raises SearchTimeout when ``budget`` ends first (planning the 7×7 takes a second)."""
        try:
            terms = grid_count.count_terms(context.prepared.problem, budget=budget)
        except grid_count.TooLargeToContract:
            return [Shard(ENUMERATION, None)]
        classes = {(t.group_element, t.partition): t for t in terms}  # a term's chunks share one class
        size = max(MIN_LEAVES, -(-sum(t.leaves for t in classes.values()) // TERM_SHARDS))
        shards: list[Shard] = []
        group: list[dict[str, Any]] = []
        for t in classes.values():
            for a, b in _ranges(0, t.leaves, size):
                group.append(_piece(t.group_element, t.partition, t.weight, t.leaves, a, b))
                if sum(_size(p) for p in group) >= size:
                    shards.append(_shard(group))
                    group = []
        if group:
            shards.append(_shard(group))
        return shards

    def worth_spreading(self, spec: Any, context: GridContext, shards: Sequence[Shard]) -> bool:
        """Worth local workers from :data:`SPREAD_MIN_LEAVES` leaves on (the enumeration, one
        shard, never)."""
        return len(shards) > 1 and sum(s.cost for s in shards) >= SPREAD_MIN_LEAVES

    def run(self, spec: Any, context: GridContext, shard: Shard, budget: Budget) -> dict[str, Any]:
        """The exact counts of the shard's ranges of leaves (or the enumeration's counts)."""
        if shard.data is None:
            from cpwords.puzzles.word_grid.native_tasks import enumerate_grids

            _grids, n, raw, complete, nodes = enumerate_grids(context.prepared.problem, budget, keep=False)
            partial = {"count": n, "raw": raw, "nodes": nodes}
            if not complete:
                raise ShardStopped(partial)
            return partial
        values: list[int] = []
        for piece in shard.data:
            try:
                values.append(context.run(piece, budget))
            except SearchTimeout:  # the ranges before this one are counted exactly
                raise ShardStopped({"values": values}) from None
        return {"values": values}

    def split(self, spec: Any, context: GridContext, shard: Shard, partial: Any) -> list[Shard | tuple[Shard, Any]]:
        """The ranges the cut attempt counted (kept), the one it was in into :data:`SPLIT` parts,
        and the ranges it did not reach, in two halves."""
        values = partial["values"] if partial else []
        done = len(values)
        out: list[Shard | tuple[Shard, Any]] = []
        if done:
            out.append((_shard(shard.data[:done]), {"values": values}))
        p = shard.data[done]
        start, stop = p["chunk"]
        out += [_shard([_piece(p["g"], p["partition"], p["weight"], p["leaves"], a, b)])
                for a, b in _ranges(start, stop, -(-(stop - start) // SPLIT))]
        rest = shard.data[done + 1:]
        out += [_shard(half) for half in (rest[:len(rest) // 2], rest[len(rest) // 2:]) if half]
        return out

    def combine(self, spec: Any, context: GridContext, partials: Sequence[tuple[Shard, Any]],
                complete: bool) -> Found:
        """Weighted sum of the terms, Burnside's division: the count modulo symmetry and raw."""
        if partials and partials[0][0].data is None:
            part = partials[0][1]
            return Found(count=part["count"], complete=complete, stats={
                "raw_count": part["raw"], "method": "enumeration", "nodes": part["nodes"]})
        if not complete:
            return _lower_bound(context.prepared.problem, partials)
        terms = [_term(piece) for shard, _ in partials for piece in shard.data]
        values = [v for _, partial in partials for v in partial["values"]]
        counted = grid_count.combine_terms(context.prepared.problem, terms, values)
        classes = {(t.group_element, t.partition) for t in terms}
        return Found(count=counted.modulo_symmetry, stats={
            "raw_count": counted.raw, "method": "sum-product", "fixed_points": counted.fixed_points,
            "contractions": len(classes)})

    def result(self, spec: Any, context: GridContext, found: Found) -> Result:
        """The Result, as the kind's own pipeline builds it."""
        return puzzles.get(spec.kind).result(spec, context.prepared, found)


def _lower_bound(problem: GridProblem, partials: Sequence[tuple[Shard, Any]]) -> Found:
    """What a sharded count cut short proved, as the one-process count says it: without distinct
    words the raw count is the identity's one term, so the leaves counted so far bound it from
    below (and that bound over the group order the count modulo symmetry); with distinct words the
    terms carry signs and bound nothing."""
    from cpwords.puzzles.word_grid.native_tasks import _cause

    stats: dict[str, Any] = {"method": "sum-product"}
    found = Found(complete=False, stats=stats)
    if problem.distinct:
        found.message = ("the count stopped before every term of the inclusion–exclusion was in: "
                         "no bound to report (a checkpoint keeps the finished shards)")
        return found
    lower = sum(v for shard, partial in partials if partial is not None
                for piece, v in zip(shard.data, partial["values"], strict=False) if piece["g"] == "identity")
    stats["raw_count"] = lower
    found.count = -(-lower // len(problem.group))
    found.message = (f"{_cause(None)}: the counts are lower bounds (at least {lower:,} grids, at least "
                     f"{found.count:,} modulo symmetry, from the shards finished)")
    return found


SHARDING = GridSharding()
