"""Shards of the native board counts (``count_boards``, ``count_suffix_sets``) for the cluster runner.

The native count (:mod:`.native`) searches lex-leader suffix placements and counts each one's
prefix fillings, weighted by orbit size. A *head* fixes the tokens of the first suffix slots of
the search order; :meth:`~.native.BoardSearch.count_part` counts every placement that begins
with it. A shard is a group of heads: the plan starts with one head per token of the first slot
(heads that leave a neighbouring prefix slot without a candidate hold no placement and are left
out), the light ones grouped by an estimate of their size. Placements differ a lot in size (on
okwddm with common-10k one first-slot token holds a quarter of the work), so a shard that runs
past the runner's time cap is split: the heads it finished are kept, the head it was in goes one
slot deeper, and the heads it did not reach are regrouped (the largest alone); down to single
placements, and a big placement's prefix fillings are counted in parts (its widest prefix slot's
candidates dealt into disjoint sets), which the cap can split too. The partial of a shard is its
exact tally (raw boards, suffix sets, placements), so the total is a plain sum however the heads
were split.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cpwords import puzzles
from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.engines.shards import Shard, Sharding, ShardStopped
from cpwords.puzzles import Prepared
from cpwords.puzzles.prefix_suffix_board.native import BoardSearch, Tally
from cpwords.results import Result

TASKS = ("count_boards", "count_suffix_sets")
#: Heads of the plan with a shard of their own (the largest by estimate).
ALONE = 32
#: Heads of a split head with a shard of their own.
ALONE_SPLIT = 4
#: Heads in a shard of smaller ones.
GROUP = 8
#: A placement whose prefix slots' candidates make more combinations than this is counted in
#: :data:`PARTS` parts (by the candidates of its widest prefix slot), so that the time cap can
#: stop it between parts: one suffix placement of common-20k holds seconds of work.
PARTS_FROM = 100_000
PARTS = 8


@dataclass
class BoardContext:
    """What every shard of one spec shares: the problem, prefix candidates as bit sets, and one
    search per thread (a search carries its shard's budget)."""

    prepared: Prepared
    search: BoardSearch
    pairs: list[int]  # suffix id -> prefixes pairing with it (bit set)
    domains: list[int]  # prefix slot -> its candidate prefixes (bit set)
    local: threading.local = field(default_factory=threading.local)

    def search_for(self, budget: Budget) -> BoardSearch:
        """This thread's search, reporting to ``budget``."""
        search: BoardSearch | None = getattr(self.local, "search", None)
        if search is None:
            search = self.local.search = BoardSearch(self.prepared.problem)
        search.budget = budget
        return search


def _bits(ids: Iterable[int]) -> int:
    out = 0
    for i in ids:
        out |= 1 << i
    return out


class BoardSharding(Sharding):
    """Shards of ``count_boards`` / ``count_suffix_sets`` with the native engine (see the module)."""

    version = "1"

    def spreads_unasked(self, spec: Any) -> bool:
        """Always: one count's heads keep every core busy (a count cut by its limit still gives
        what the finished heads counted, a lower bound)."""
        return True

    def supports(self, spec: Any) -> bool:
        """The native counting tasks."""
        return bool(spec.task in TASKS and spec.engine == "native")

    def prepare(self, spec: Any) -> BoardContext:
        """The kind's own preparation (the problem) and its search."""
        prepared = puzzles.get(spec.kind).prepare(spec)
        problem = prepared.problem
        search = BoardSearch(problem)
        return BoardContext(prepared, search, [_bits(ps) for ps in problem.tokens.prefixes_with],
                            [_bits(d) for d in search.prefix_domain])

    def plan(self, spec: Any, context: BoardContext, budget: Budget | None = None) -> list[Shard]:
        """One head per token of the first suffix slot, light heads grouped."""
        search = context.search
        if not search.suffix_nodes:
            return [Shard("h:", [[]])]
        heads: list[tuple[int, ...]] = [(a,) for a in search.suffix_domain[search.order[0]]]
        return _groups(context, heads, ALONE)

    def run(self, spec: Any, context: BoardContext, shard: Shard, budget: Budget) -> dict[str, int]:
        """The exact tally of the shard's heads.

        Raises
        ------
        ShardStopped
            When the budget ran out (with the tally so far: a lower bound).
        """
        search = context.search_for(budget)
        if isinstance(shard.data, dict):
            return _run_parts(search, shard.data, budget)
        if spec.task == "count_boards" and len(shard.data) == 1 and len(shard.data[0]) == len(search.suffix_nodes):
            parts = _parts(search, tuple(shard.data[0]))
            if parts is not None:
                return _run_parts(search, parts, budget)
        total = Tally()
        for done, head in enumerate(shard.data):
            part = search.count_part(tuple(head), spec.task)
            if not part.complete:  # the heads before this one are counted exactly
                raise ShardStopped(_partial(total) | {"heads_done": done})
            total.raw += part.raw
            total.suffix_sets += part.suffix_sets
            total.placements += part.placements
        return _partial(total)

    def split(self, spec: Any, context: BoardContext, shard: Shard, partial: Any) -> list[Shard | tuple[Shard, Any]]:
        """The heads the cut attempt counted (kept), the one it was in split one suffix slot
        deeper, and the heads it did not reach, regrouped (the largest alone)."""
        if partial and "parts_done" in partial:
            return _split_parts(partial)
        heads = [tuple(h) for h in shard.data]
        done = partial["heads_done"] if partial else 0
        out: list[Shard | tuple[Shard, Any]] = []
        if done:
            out.append((_shard(context, heads[:done], 1.0), {k: partial[k] for k in ("raw", "suffix_sets",
                                                                                     "placements")}))
        out += self._deeper(context, heads[done])
        out += _groups(context, heads[done + 1:], ALONE_SPLIT)
        return out

    @staticmethod
    def _deeper(context: BoardContext, head: tuple[int, ...]) -> list[Shard]:
        """The heads one suffix slot deeper than ``head`` (a full placement cannot go deeper)."""
        if len(head) == len(context.search.suffix_nodes):
            return [_shard(context, [head], 1.0)]
        search = context.search
        slot = search.order[len(head)]
        deeper = [(*head, b) for b in search.suffix_domain[slot]
                  if not (search.problem.distinct_tokens and b in head)]
        return _groups(context, deeper, ALONE_SPLIT)

    def combine(self, spec: Any, context: BoardContext, partials: Sequence[tuple[Shard, Any]],
                complete: bool) -> Found:
        """Sums of the tallies: boards modulo symmetry = raw boards / |G| (every orbit has |G|
        boards), as the one-process count."""
        raw = sum(p["raw"] for _, p in partials)
        suffix_sets = sum(p["suffix_sets"] for _, p in partials)
        placements = sum(p["placements"] for _, p in partials)
        fillings: dict[str, int] = {}  # placements counted in parts: fillings by placement
        for _, p in partials:
            if "placement" in p:
                fillings[p["placement"]] = fillings.get(p["placement"], 0) + p["fillings"]
        placements += len(fillings)
        suffix_sets += sum(1 for n in fillings.values() if n)
        stats: dict[str, Any] = {"raw_count": raw, "placements_searched": placements}
        if spec.task == "count_suffix_sets":
            return Found(count=suffix_sets, stats=stats, complete=complete)
        group_size = len(context.prepared.problem.layout.group)
        if complete and raw % group_size:
            raise AssertionError("raw count is not a multiple of the group size")
        return Found(count=raw // group_size, complete=complete, stats=stats | {
            "suffix_sets": suffix_sets, "method": "suffix placements x counted fillings"})

    def result(self, spec: Any, context: BoardContext, found: Found) -> Result:
        """The Result, as the kind's own pipeline builds it."""
        return puzzles.get(spec.kind).result(spec, context.prepared, found)


def _parts(search: BoardSearch, vector: tuple[int, ...]) -> dict[str, Any] | None:
    """The parts of a big placement (None for a small one, or none at all): its fillings split by
    the candidates of its widest prefix slot into :data:`PARTS` disjoint sets, so that counting it
    can stop (and be split) between parts."""
    placed = next(search.placements(head=vector), None)
    if placed is None:
        return None
    candidates = placed[1]
    if math.prod(len(c) for c in candidates) < PARTS_FROM:
        return None
    widest = max(range(len(candidates)), key=lambda i: (len(candidates[i]), -i))
    return {"placement": list(vector), "slot": widest, "of": PARTS, "parts": [0, PARTS]}


def _run_parts(search: BoardSearch, data: dict[str, Any], budget: Budget) -> dict[str, Any]:
    """The fillings of parts ``a..b-1`` of a placement (see :func:`_parts`); the partial names the
    placement, so that :meth:`BoardSharding.combine` counts it once among the suffix sets.

    Raises
    ------
    ShardStopped
        When the budget ran out between parts (with the parts done).
    """
    from cpwords.engines.budget import SearchTimeout
    from cpwords.geometry import orbit_size

    key = ".".join(map(str, data["placement"]))
    out: dict[str, Any] = {"raw": 0, "suffix_sets": 0, "placements": 0, "placement": key, "fillings": 0}
    try:
        placed = next(search.placements(head=tuple(data["placement"])), None)
    except SearchTimeout:
        raise ShardStopped(out | {"parts_done": 0, "data": data}) from None
    if placed is None:
        return out
    vector, candidates = placed
    slot, (a, b) = data["slot"], data["parts"]
    ordered = sorted(candidates[slot])
    weight = orbit_size(vector, search.suffix_group) if search.suffix_group else 1
    for k in range(a, b):
        if budget.expired():
            raise ShardStopped(out | {"parts_done": k - a, "data": data})
        narrowed = list(candidates)
        narrowed[slot] = frozenset(ordered[k::data["of"]])  # part k: every of-th candidate from k
        n = search.fillings_count(vector, narrowed)
        out["fillings"] += n
        out["raw"] += weight * n
    return out


def _part_shard(data: dict[str, Any], a: int, b: int) -> Shard:
    return Shard(f"p:{'.'.join(map(str, data['placement']))}/{data['of']}:{a}-{b}", {**data, "parts": [a, b]},
                 cost=float(b - a), splittable=b - a > 1)


def _split_parts(partial: dict[str, Any]) -> list[Shard | tuple[Shard, Any]]:
    """A placement's parts after a cut: those done (kept), the one it was in, the rest."""
    data = partial["data"]
    a, b = data["parts"]
    k = a + partial["parts_done"]
    out: list[Shard | tuple[Shard, Any]] = []
    if k > a:
        out.append((_part_shard(data, a, k), {key: partial[key] for key in
                                              ("raw", "suffix_sets", "placements", "placement", "fillings")}))
    out.append(_part_shard(data, k, k + 1))
    if k + 1 < b:
        out.append(_part_shard(data, k + 1, b))
    return out


def _partial(tally: Tally) -> dict[str, int]:
    return {"raw": tally.raw, "suffix_sets": tally.suffix_sets, "placements": tally.placements}


def _estimate(context: BoardContext, head: tuple[int, ...]) -> float:
    """A rough size of the search below ``head`` (0: it holds no placement).

    The product of the candidate counts left to the prefix slots next to the set suffix slots
    (the search's own narrowing), times the tokens each unset slot may still take: with a
    symmetry group the lex-leader puts the smallest token first, so only larger ones.
    """
    search = context.search
    n = len(search.suffix_nodes)
    set_slots = {search.order[d]: v for d, v in enumerate(head)}
    size = 1.0
    for i, around in enumerate(search.neighbours):
        candidates = context.domains[i]
        touched = False
        for k in around:
            if k in set_slots:
                candidates &= context.pairs[set_slots[k]]
                touched = True
        if touched:
            if not candidates:
                return 0.0
            size *= candidates.bit_count()
    first = head[0] if head and search.suffix_group else -1
    for k in range(n):
        if k not in set_slots:
            size *= max(1, sum(1 for b in search.suffix_domain[k] if b > first))
    return size


def _groups(context: BoardContext, heads: list[tuple[int, ...]], alone: int) -> list[Shard]:
    """Heads with a placement: the ``alone`` largest by estimate one to a shard, the others
    :data:`GROUP` to a shard (the estimate ranks heads well but says little about how much
    larger one is than another, so the groups go by rank, not by summed estimates)."""
    sized = [(est, h) for h in heads if (est := _estimate(context, h)) > 0]
    sized.sort(key=lambda t: (-t[0], t[1]))
    shards = [_shard(context, [h], est) for est, h in sized[:alone]]
    rest = sized[alone:]
    for i in range(0, len(rest), GROUP):
        group = rest[i:i + GROUP]
        shards.append(_shard(context, [h for _, h in group], sum(est for est, _ in group)))
    return shards


def _shard(context: BoardContext, heads: list[tuple[int, ...]], estimate: float) -> Shard:
    """A shard of heads; its id names them (heads never overlap, so ids never repeat)."""
    heads = sorted(heads)
    full = len(context.search.suffix_nodes)
    sid = "h:" + "|".join(".".join(map(str, h)) for h in heads)
    return Shard(sid, [list(h) for h in heads], cost=math.log10(1.0 + estimate),
                 splittable=len(heads) > 1 or len(heads[0]) < full)


SHARDING = BoardSharding()
