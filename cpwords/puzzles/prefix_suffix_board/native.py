"""The native engine: propagation search over suffix placements, exact counting of the prefixes.

The search sets the suffix slots one by one, most connected first (for the contest board: the
four suffixes around the centre). Each suffix set narrows every prefix slot next to it to the
prefixes it makes a word with; a slot left with no candidate cuts the branch. Once all suffixes
are set, the prefix slots are independent apart from equal tokens and word clashes, and
:func:`counting.count_fillings` counts their fillings exactly without listing them.

Symmetry: only suffix placements that are lex-leaders of their orbit are searched, each weighted
by its orbit size (the filling count is the same across an orbit). Every board uses each edge's
word once, so no symmetry other than the identity can fix a board: every orbit of boards has
exactly |G| members and the count modulo symmetry is the raw count divided by |G|.

The count runs in one process, part by part (one part per token of the first suffix slot); the
shards of a parallel count (:mod:`.shards`) are groups of the same parts. Listing boards (all
modulo symmetry, or random ones) is :mod:`.native_tasks`'s.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.geometry import orbit_size
from cpwords.puzzles.prefix_suffix_board.bitsets import has_distinct_choice_bits, members, to_bits, union_of
from cpwords.puzzles.prefix_suffix_board.counting import count_fillings
from cpwords.puzzles.prefix_suffix_board.problem import PlacementCount, Problem

#: A suffix slot's tokens are first filtered by the prefixes of each neighbouring prefix slot
#: that has at most this many candidates (the union of their suffix sets; larger slots filter
#: little and their union costs more than the tries it saves).
UNION_LIMIT = 64


@dataclass
class Tally:
    """What a (part of a) counting search found."""

    raw: int = 0
    suffix_sets: int = 0
    placements: int = 0
    complete: bool = True
    orbits: int = 0


class BoardSearch:
    """Propagation search over one problem, reporting to ``budget`` (which a caller may swap
    between parts: each shard of a cluster count sets its own, see :mod:`.shards`)."""

    def __init__(self, problem: Problem, *, budget: Budget | None = None) -> None:
        self.problem = problem
        lay = problem.layout
        self.prefix_nodes = list(lay.prefix_nodes)
        self.suffix_nodes = list(lay.suffix_nodes)
        sindex = {n: k for k, n in enumerate(self.suffix_nodes)}
        self.neighbours = [tuple(sindex[s] for s in lay.suffixes_of(p)) for p in self.prefix_nodes]
        self.prefix_domain = [frozenset(problem.domain(p)) for p in self.prefix_nodes]
        self.suffix_domain = [problem.domain(s) for s in self.suffix_nodes]
        self.order = self._suffix_order()
        self.prefixes_of_suffix = [
            [i for i, nb in enumerate(self.neighbours) if k in nb] for k in range(len(self.suffix_nodes))
        ]
        self.multi_cut: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for w, cuts in enumerate(problem.tokens.cuts_of_word):
            if len(cuts) > 1:
                for a, s in cuts:
                    self.multi_cut[s].append((a, w))
        self.suffix_group = problem.suffix_group() if not problem.fixed_suffixes else []
        self.budget = budget or Budget()
        self._sources = [g.source_indices() for g in self.suffix_group if not g.is_identity]
        tokens = problem.tokens
        self._pbits = [to_bits(ps) for ps in tokens.prefixes_with]  # suffix id -> prefixes pairing with it
        self._sbits = [to_bits(ss) for ss in tokens.suffixes_with]  # prefix id -> suffixes pairing with it
        self._prefix_domain_bits = [to_bits(d) for d in self.prefix_domain]
        self._suffix_domain_sets = [frozenset(d) for d in self.suffix_domain]
        n = len(self.suffix_nodes)
        self._sharing = [{k2 for i in self.prefixes_of_suffix[k] for k2 in self.neighbours[i]} - {k}
                         for k in range(n)]

    def _suffix_order(self) -> list[int]:
        """Suffix slots, each next one sharing the most prefix slots with those already chosen."""
        n = len(self.suffix_nodes)
        shared = [[sum(1 for nb in self.neighbours if a in nb and b in nb) for b in range(n)] for a in range(n)]
        order: list[int] = []
        while len(order) < n:
            rest = [k for k in range(n) if k not in order]
            order.append(max(rest, key=lambda k: (sum(shared[k][o] for o in order), shared[k][k], -k)))
        return order

    def _check_time(self) -> None:
        self.budget.check()

    # -- suffix placements

    def placements(self, *, head: tuple[int, ...] = (), rng: random.Random | None = None,
                   canonical_only: bool = True) -> Iterator[tuple[tuple[int, ...], list[frozenset[int]]]]:
        """Suffix placements (by suffix slot) that leave every prefix slot a candidate, with the candidates.

        ``head`` fixes the tokens of the first slots searched; ``rng`` shuffles the token order;
        ``canonical_only`` keeps only lex-leaders under the board group acting on suffix slots.
        """
        for vector, bits in self.placement_bits(head=head, rng=rng, canonical_only=canonical_only):
            yield vector, [frozenset(members(b)) for b in bits]

    def heads(self, depth: int) -> list[tuple[int, ...]]:
        """The tokens of the first ``depth`` suffix slots searched (``order``) that survive the
        search's cuts there: the parts of a split count (:meth:`count_part`), and groups of
        placements for a sharded one."""
        return [vector for vector, _ in self.placement_bits(depth=depth)]

    def placement_bits(self, *, head: tuple[int, ...] = (), rng: random.Random | None = None,
                       canonical_only: bool = True,
                       depth: int | None = None) -> Iterator[tuple[tuple[int, ...], list[int]]]:
        """:meth:`placements` with each prefix slot's candidates as a bit set (see :mod:`.bitsets`).

        Three cuts keep the tree small. A suffix slot only tries tokens that pair with some
        candidate of each small neighbouring prefix slot (the union of their suffix sets, one
        ``|`` per candidate), instead of trying every token and intersecting. The lex-leader
        test runs at every depth. With distinct tokens, a matching test on the candidate sets
        runs at every depth too: candidates only shrink, so a partial placement whose prefix
        slots cannot take different tokens has no completion (on the contest board this is
        the test that removes almost every placement, e.g. a centre and an outer slot left
        with the same single prefix).

        With ``depth``, yields the partial placements at that depth instead: the tokens of the
        first ``depth`` slots of ``order``, in that order.

        Raises
        ------
        SearchTimeout
            When the budget ends during the search (from the iteration).
        """
        total = len(self.suffix_nodes)
        n = total if depth is None else min(depth, total)
        return self._placements_to(n, head, rng, canonical_only and bool(self._sources))

    def _placements_to(self, n: int, head: tuple[int, ...], rng: random.Random | None,
                       check_lex: bool) -> Iterator[tuple[tuple[int, ...], list[int]]]:
        """The search of :meth:`placement_bits` down to ``n`` suffix slots of ``order``."""
        total = len(self.suffix_nodes)
        values: list[int | None] = [None] * total
        candidates = list(self._prefix_domain_bits)
        distinct = self.problem.distinct_tokens
        pairs = self._pbits
        tick = self.budget.ticker(256)

        def step(depth: int) -> Iterator[tuple[tuple[int, ...], list[int]]]:
            if depth == n:
                self._check_time()
                if n == total:
                    yield tuple(v for v in values if v is not None), list(candidates)
                else:
                    yield tuple(v for k in self.order[:n] if (v := values[k]) is not None), list(candidates)
                return
            tick()
            k = self.order[depth]
            around = self.prefixes_of_suffix[k]
            allowed, domain = self._tokens_to_try(k, depth, head, rng, candidates)
            for s in domain:
                if not allowed >> s & 1:
                    continue
                if distinct and s in values:
                    continue
                if not distinct and any(values[o] == s for o in self._sharing[k]):
                    continue  # a prefix next to both would spell one word twice
                values[k] = s
                if check_lex and not self._may_lead(values):
                    values[k] = None
                    continue
                saved = [(i, candidates[i]) for i in around]
                ok = True
                for i, cand in saved:
                    narrowed = cand & pairs[s]
                    if not narrowed:
                        ok = False
                        break
                    candidates[i] = narrowed
                if ok and (not distinct or has_distinct_choice_bits(candidates)):
                    yield from step(depth + 1)
                values[k] = None
                for i, cand in saved:
                    candidates[i] = cand

        yield from step(0)

    def _tokens_to_try(self, k: int, depth: int, head: tuple[int, ...], rng: random.Random | None,
                       candidates: list[int]) -> tuple[int, list[int]]:
        """The tokens suffix slot ``k`` tries at ``depth``: a bit set of those that pair with a
        candidate of every small prefix slot next to it (-1: all), and its domain in the order to
        try (the head's token only, within the head; shuffled with ``rng``)."""
        allowed = -1  # every token
        for i in self.prefixes_of_suffix[k]:
            if candidates[i].bit_count() <= UNION_LIMIT:
                allowed &= union_of(candidates[i], self._sbits)
        domain = self.suffix_domain[k]
        if depth < len(head):
            domain = [head[depth]] if head[depth] in domain else []
        elif rng is not None:
            domain = list(domain)
            rng.shuffle(domain)
        return allowed, domain

    def _may_lead(self, values: list[int | None]) -> bool:
        """False when a partial placement already compares greater than one of its images."""
        for src in self._sources:
            for j, i in enumerate(src):
                a, b = values[j], values[i]
                if a is None or b is None or a < b:
                    break
                if a > b:
                    return False
        return True

    def slot_suffixes(self, vector: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Suffix ids next to each prefix slot."""
        return [tuple(vector[k] for k in nb) for nb in self.neighbours]

    def fillings_count(self, vector: tuple[int, ...], candidates: list[frozenset[int]]) -> int:
        """Exact number of prefix fillings of one suffix placement."""
        return count_fillings(candidates, self.slot_suffixes(vector), self.multi_cut,
                              distinct=self.problem.distinct_tokens)

    def fillings(self, vector: tuple[int, ...], candidates: list[frozenset[int]],
                 rng: random.Random | None = None) -> Iterator[list[int]]:
        """Every prefix filling (prefix ids by prefix slot) of one suffix placement, depth first."""
        tokens = self.problem.tokens
        m = len(self.prefix_nodes)
        suffixes = self.slot_suffixes(vector)
        if any(len(set(s)) != len(s) for s in suffixes):
            return
        order = sorted(range(m), key=lambda i: (len(candidates[i]), i))
        values: list[int] = [-1] * m
        used_words: set[int] = set()
        used_tokens: set[int] = set()
        distinct = self.problem.distinct_tokens
        tick = self.budget.ticker(256)

        def step(depth: int) -> Iterator[list[int]]:
            if depth == m:
                yield list(values)
                return
            tick()
            i = order[depth]
            cand = sorted(candidates[i])
            if rng is not None:
                rng.shuffle(cand)
            for a in cand:
                if distinct and a in used_tokens:
                    continue
                words = [tokens.cuts[(a, s)] for s in suffixes[i]]
                if any(w in used_words for w in words):
                    continue
                values[i] = a
                used_words.update(words)
                used_tokens.add(a)
                yield from step(depth + 1)
                used_words.difference_update(words)
                used_tokens.discard(a)

        yield from step(0)

    def board(self, vector: tuple[int, ...], prefixes: list[int]) -> list[int]:
        """X, the token ids in node order."""
        x = [0] * self.problem.nodes
        for k, node in enumerate(self.suffix_nodes):
            x[node] = vector[k]
        for i, node in enumerate(self.prefix_nodes):
            x[node] = prefixes[i]
        return x

    # -- counting

    def count_part(self, head: tuple[int, ...], task: str) -> Tally:
        """Count boards (``count_boards``) or admitting placements (``count_suffix_sets``) of one part."""
        tally = Tally()
        try:
            for vector, candidates in self.placements(head=head):
                tally.placements += 1
                weight = orbit_size(vector, self.suffix_group) if self.suffix_group else 1
                if task == "count_suffix_sets":
                    if next(self.fillings(vector, candidates), None) is not None:
                        tally.suffix_sets += 1
                        tally.raw += weight
                else:
                    n = self.fillings_count(vector, candidates)
                    if n:
                        share = self.problem.placement_count(vector, n)
                        tally.suffix_sets += 1
                        tally.raw += share.raw
                        tally.orbits += share.orbits
        except SearchTimeout:
            tally.complete = False
        return tally

    def candidate_bits(self, vector: tuple[int, ...]) -> list[int]:
        """Each prefix slot's candidates (as bit sets) under a suffix placement."""
        out = []
        for dom, nb in zip(self._prefix_domain_bits, self.neighbours, strict=True):
            for k in nb:
                dom &= self._pbits[vector[k]]
            out.append(dom)
        return out

    def count_placement(self, vector: tuple[int, ...]) -> PlacementCount:
        """The boards of one suffix placement (suffix ids by suffix slot): see :func:`count_placement`."""
        fillings = 0
        valid = all(v in dom for v, dom in zip(vector, self._suffix_domain_sets, strict=True))
        if valid and not (self.problem.distinct_tokens and len(set(vector)) < len(vector)):
            bits = self.candidate_bits(vector)
            if all(bits) and (not self.problem.distinct_tokens or has_distinct_choice_bits(bits)):
                fillings = self.fillings_count(vector, [frozenset(members(b)) for b in bits])
        return self.problem.placement_count(vector, fillings)


def count_placement(search: BoardSearch, vector: tuple[int, ...]) -> PlacementCount:
    """The boards of one lex-leader suffix placement, counted natively: the unit of a sharded count.

    ``vector`` holds suffix ids by suffix slot (``search.suffix_nodes`` order), as
    :meth:`BoardSearch.placements` yields them. Summed over the lex-leader placements, ``raw``
    gives the raw count and ``orbits`` the count modulo symmetry. Takes about a millisecond on
    common-10k.
    """
    return search.count_placement(vector)


def has_distinct_choice(candidates: list[frozenset[int]]) -> bool:
    """Whether the slots can take pairwise different tokens (a matching covering every slot exists)."""
    return has_distinct_choice_bits([to_bits(c) for c in candidates])


def count(search: BoardSearch, task: str) -> Tally:
    """Count over every part (one per token of the first suffix slot), in this process, reporting
    progress to the search's budget.

    A time limit or a stop request (Ctrl-C) ends the count between placements: the tally then
    holds the parts and placements finished so far (a lower bound) and is marked incomplete.
    Parallel counts are the cluster runner's, in shards (:mod:`.shards`).
    """
    budget = search.budget
    parts: list[tuple[int, ...]] = [()]
    total = Tally()
    if search.suffix_nodes:
        # only heads that survive the search's cuts
        try:
            parts = search.heads(1)
        except SearchTimeout:
            total.complete = False
            return total
    with budget.progress(f"counting boards ({task})", total=len(parts)) as advance:
        for part in parts:
            _add(total, search.count_part(part, task))
            advance(1)
            if budget.expired() and part is not parts[-1]:
                total.complete = False
                break
    return total


def _add(total: Tally, part: Tally) -> None:
    total.raw += part.raw
    total.orbits += part.orbits
    total.suffix_sets += part.suffix_sets
    total.placements += part.placements
    total.complete = total.complete and part.complete
