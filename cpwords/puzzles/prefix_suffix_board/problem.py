"""One board puzzle made concrete: the board's slots, the tokens, each slot's domain, symmetry.

Every engine starts from a :class:`Problem`. A board is the vector X of token ids in node order
(prefix ids at prefix nodes, suffix ids at suffix nodes); the symmetry group acts on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from cpwords.errors import InputError
from cpwords.geometry import Symmetry
from cpwords.puzzles.prefix_suffix_board.solution import BoardSolution
from cpwords.puzzles.prefix_suffix_board.spec import PrefixSuffixBoardSpec
from cpwords.puzzles.prefix_suffix_board.tokens import Layout, TokenSet, spec_layout, spec_tokens


@dataclass
class Problem:
    """Board, tokens and options; ``fixed_suffixes`` maps suffix node -> suffix id for ``solve``."""

    layout: Layout
    tokens: TokenSet
    distinct_tokens: bool
    fixed_suffixes: dict[int, int]

    @property
    def nodes(self) -> int:
        """Number of slots."""
        return len(self.layout.names)

    @cached_property
    def domain_sets(self) -> list[frozenset[int]]:
        """Every slot's :meth:`domain`, as sets, by node (computed once)."""
        return [frozenset(self.domain(n)) for n in range(self.nodes)]

    def domain(self, node: int) -> list[int]:
        """Token ids a slot can hold: enough partner tokens for its degree (or the given suffix)."""
        if node in self.fixed_suffixes:
            return [self.fixed_suffixes[node]]
        degree = self.layout.degree(node)
        if node in self.layout.prefix_nodes:
            return [p for p, ss in enumerate(self.tokens.suffixes_with) if len(ss) >= degree]
        return [s for s, ps in enumerate(self.tokens.prefixes_with) if len(ps) >= degree]

    def is_prefix(self, node: int) -> bool:
        """True for a prefix slot."""
        return self.layout.board.kinds[node] == "prefix"

    def token_text(self, node: int, token: int) -> str:
        """The text of a token id at a node."""
        return self.tokens.prefixes[token] if self.is_prefix(node) else self.tokens.suffixes[token]

    def solution(self, values: list[int] | tuple[int, ...]) -> BoardSolution:
        """The solution object for X (token ids in node order)."""
        names = self.layout.names
        texts = [self.token_text(i, v) for i, v in enumerate(values)]
        words = [texts[p] + texts[s] for p, s in self.layout.edges]
        return BoardSolution(words=words, tokens={names[i]: texts[i] for i in range(len(values))})

    def suffix_group(self) -> list[Symmetry]:
        """The board group acting on suffix positions (index into ``layout.suffix_nodes``), deduplicated."""
        index = {n: k for k, n in enumerate(self.layout.suffix_nodes)}
        seen: dict[tuple[int, ...], Symmetry] = {}
        for g in self.layout.group:
            perm = tuple(index[g.perm[n]] for n in self.layout.suffix_nodes)
            seen.setdefault(perm, Symmetry(g.name, perm))
        return list(seen.values())

    def symmetry_group(self) -> list[Symmetry]:
        """The board group (none when suffixes are given: a fixed view has no symmetry to break)."""
        return [self.layout.group[0]] if self.fixed_suffixes else list(self.layout.group)

    def prefix_candidates(self, vector: tuple[int, ...]) -> list[frozenset[int]]:
        """Under a suffix placement (suffix ids by suffix slot), each prefix slot's candidates (in
        ``layout.prefix_nodes`` order): its domain's prefixes that make a word with every suffix
        next to it."""
        at = dict(zip(self.layout.suffix_nodes, vector, strict=True))
        out = []
        for p in self.layout.prefix_nodes:
            cand = set(self.domain_sets[p])
            for s in self.layout.suffixes_of(p):
                cand &= self.tokens.prefixes_with[at[s]]
            out.append(frozenset(cand))
        return out

    def stabiliser(self, vector: tuple[int, ...]) -> list[Symmetry]:
        """The board symmetries that keep a suffix placement (suffix ids by suffix slot) as it is."""
        return [g for g in self.symmetry_group() if self._suffix_image(g, vector) == tuple(vector)]

    def _suffix_image(self, g: Symmetry, vector: tuple[int, ...]) -> tuple[int, ...]:
        """g·v for a suffix placement v (suffix ids by suffix slot)."""
        suffix_nodes = self.layout.suffix_nodes
        where = {n: k for k, n in enumerate(suffix_nodes)}
        out = list(vector)
        for k, n in enumerate(suffix_nodes):
            out[where[g.perm[n]]] = vector[k]
        return tuple(out)

    def placement_count(self, vector: tuple[int, ...], fillings: int) -> PlacementCount:
        """What one lex-leader suffix placement with ``fillings`` prefix fillings adds to the counts.

        Every image g·v of the placement has as many fillings, so the raw boards whose suffixes
        are any image of v number fillings × |orbit of v|. No board is fixed by a symmetry other
        than the identity (it would spell the word of an edge and of its image twice), so the
        stabiliser of v acts freely on v's fillings: they make fillings / |Stab(v)| orbits.
        """
        group = self.symmetry_group()
        images = {self._suffix_image(g, vector) for g in group}
        stab = len(group) // len(images)
        if fillings % stab:
            raise AssertionError("a symmetry fixes a board")  # impossible unless a bug
        return PlacementCount(vector, fillings, fillings * len(images), fillings // stab)


@dataclass(frozen=True)
class PlacementCount:
    """The boards of one lex-leader suffix placement: the unit of work of a sharded count.

    ``fillings``: prefix fillings of the placement itself; ``raw``: boards whose suffixes are any
    image of it (summed over the lex-leaders: the raw count); ``orbits``: those boards modulo
    symmetry (summed: the count modulo symmetry).
    """

    vector: tuple[int, ...]
    fillings: int
    raw: int
    orbits: int


def build_problem(spec: PrefixSuffixBoardSpec) -> Problem:
    """The :class:`Problem` of a spec.

    Raises
    ------
    InputError
        When ``suffixes`` names a slot that is not a suffix slot, misses one, or gives a token
        that is not a playable suffix of this dictionary and these lengths.
    """
    layout = spec_layout(spec)
    tokens = spec_tokens(spec, layout)
    fixed: dict[int, int] = {}
    if spec.task == "solve":
        names = layout.names
        suffix_names = [names[n] for n in layout.suffix_nodes]
        given = spec.suffixes or {}
        for slot, token in given.items():
            if slot not in suffix_names:
                raise InputError(f"not a suffix slot of board {layout.board.name}; its suffix slots: "
                                 f"{', '.join(suffix_names)}", field=f"suffixes.{slot}", value=slot)
            lo, hi = spec.suffix_length
            if not lo <= len(token) <= hi:
                raise InputError(f"suffix length must be {lo}-{hi} letters (suffix_length)",
                                 field=f"suffixes.{slot}", value=token)
            if token not in tokens.suffix_id:
                raise InputError("not a playable suffix: too few words of this dictionary end in it "
                                 f"(after pruning; {len(tokens.suffixes)} suffixes are playable)",
                                 field=f"suffixes.{slot}", value=token)
            fixed[names.index(slot)] = tokens.suffix_id[token]
        missing = [n for n in suffix_names if n not in given]
        if missing:
            raise InputError(f"give a suffix for every suffix slot; missing: {', '.join(missing)}",
                             field="suffixes")
    return Problem(layout, tokens, spec.distinct_tokens, fixed)
