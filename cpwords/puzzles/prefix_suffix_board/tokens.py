"""Boards and tokens: the slots of a board, and the prefix/suffix tokens a dictionary offers.

Tokens come from the dictionary with plural forms dropped: each word is cut at every position
that leaves a prefix of an allowed length and a suffix of an allowed length. A token used in
fewer words than the smallest degree of a slot of its kind can never sit on the board, so it is
pruned, with every cut it takes part in; that can starve other tokens, so pruning repeats until
nothing changes. Token ids are alphabetical, separately for prefixes and suffixes.

>>> from cpwords.lexicon import Lexicon
>>> lex = Lexicon.from_words(["water", "later", "wader", "lader"])
>>> ts = build_tokens(lex, (2, 3), (2, 3), min_prefix_words=2, min_suffix_words=2)
>>> ts.prefixes, ts.suffixes
(('la', 'wa'), ('der', 'ter'))
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from cpwords.engines.budget import build_checkpoint
from cpwords.geometry import Board, Symmetry, board_symmetries, load_board

if TYPE_CHECKING:
    from cpwords.lexicon import Lexicon
    from cpwords.puzzles.prefix_suffix_board.spec import PrefixSuffixBoardSpec

TOKEN_CACHE_VERSION = 1


@dataclass(frozen=True)
class Layout:
    """A board read as slots: node indices of prefix and suffix slots, edges as (prefix, suffix) nodes.

    ``group`` is the board's symmetry group (permutations of all nodes, identity first).
    """

    board: Board
    prefix_nodes: tuple[int, ...]
    suffix_nodes: tuple[int, ...]
    edges: tuple[tuple[int, int], ...]
    group: tuple[Symmetry, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """Slot names in node order."""
        return self.board.nodes

    def degree(self, node: int) -> int:
        """Number of edges at a node."""
        return sum(1 for p, s in self.edges if node in (p, s))

    def suffixes_of(self, prefix_node: int) -> list[int]:
        """Suffix nodes joined to a prefix node, in edge order."""
        return [s for p, s in self.edges if p == prefix_node]

    def prefixes_of(self, suffix_node: int) -> list[int]:
        """Prefix nodes joined to a suffix node, in edge order."""
        return [p for p, s in self.edges if s == suffix_node]

    def min_degree(self, kind: str) -> int:
        """Smallest degree of a slot of ``kind`` (``prefix`` or ``suffix``)."""
        nodes = self.prefix_nodes if kind == "prefix" else self.suffix_nodes
        return min(self.degree(n) for n in nodes)


def board_layout(ref: str | Path, *, base_dir: Path | None = None) -> Layout:
    """Load a board and check it is a prefix/suffix board.

    Raises
    ------
    InputError
        When a node kind is not ``prefix``/``suffix``, an edge does not join a prefix and a
        suffix, or a node has no edge.
    """
    board = load_board(ref, base_dir=base_dir)
    for name, kind in zip(board.nodes, board.kinds, strict=True):
        if kind not in ("prefix", "suffix"):
            raise board.error("board node kinds must be 'prefix' or 'suffix'", ["nodes", name, "kind"], value=kind)
    edges = []
    for a, b in board.edges:
        if board.kinds[a] == board.kinds[b]:
            raise board.error("every edge must join a prefix and a suffix", ["edges", board.edges.index((a, b))],
                              value=[board.nodes[a], board.nodes[b]])
        edges.append((a, b) if board.kinds[a] == "prefix" else (b, a))
    touched = {n for e in edges for n in e}
    for i, name in enumerate(board.nodes):
        if i not in touched:
            raise board.error("every slot needs at least one edge", ["nodes", name])
    return Layout(
        board,
        tuple(board.nodes_of("prefix")),
        tuple(board.nodes_of("suffix")),
        tuple(edges),
        tuple(board_symmetries(board)),
    )


@dataclass(frozen=True)
class TokenSet:
    """The playable tokens of a dictionary and the words they make.

    ``cuts[(p, s)]`` is the word id of prefix id ``p`` followed by suffix id ``s``.
    """

    prefixes: tuple[str, ...]
    suffixes: tuple[str, ...]
    words: tuple[str, ...]
    cuts: dict[tuple[int, int], int] = field(compare=False)

    @cached_property
    def prefix_id(self) -> dict[str, int]:
        """Prefix token -> id."""
        return {t: i for i, t in enumerate(self.prefixes)}

    @cached_property
    def suffix_id(self) -> dict[str, int]:
        """Suffix token -> id."""
        return {t: i for i, t in enumerate(self.suffixes)}

    @cached_property
    def prefixes_with(self) -> list[frozenset[int]]:
        """For each suffix id, the prefix ids it makes a word with."""
        out: list[set[int]] = [set() for _ in self.suffixes]
        for p, s in self.cuts:
            out[s].add(p)
        return [frozenset(x) for x in out]

    @cached_property
    def suffixes_with(self) -> list[frozenset[int]]:
        """For each prefix id, the suffix ids it makes a word with."""
        out: list[set[int]] = [set() for _ in self.prefixes]
        for p, s in self.cuts:
            out[p].add(s)
        return [frozenset(x) for x in out]

    @cached_property
    def cuts_of_word(self) -> list[list[tuple[int, int]]]:
        """For each word id, its cuts (prefix id, suffix id)."""
        out: list[list[tuple[int, int]]] = [[] for _ in self.words]
        for ps, w in self.cuts.items():
            out[w].append(ps)
        return out


def playable_cuts(words: list[str], prefix_length: tuple[int, int], suffix_length: tuple[int, int],
                  min_prefix_words: int, min_suffix_words: int,
                  stage: Callable[[], None] | None = None) -> set[tuple[str, str]]:
    """Every (prefix, suffix) cut of ``words`` that survives pruning.

    Parameters
    ----------
    words:
        The words (plurals already dropped).
    prefix_length, suffix_length:
        Allowed token lengths, inclusive ranges.
    min_prefix_words, min_suffix_words:
        A prefix (suffix) token must take part in at least this many distinct words.
    stage:
        Called between rounds of pruning; may raise to stop.

    Returns
    -------
    The set of cuts, at its fixed point: every token in it meets its threshold.

    >>> sorted(playable_cuts(["tan", "tin", "ran"], (1, 1), (2, 2), 1, 2))
    [('r', 'an'), ('t', 'an')]
    """
    (plo, phi), (slo, shi) = prefix_length, suffix_length
    cuts = {(w[:k], w[k:]) for w in words for k in range(plo, phi + 1) if slo <= len(w) - k <= shi}
    while True:
        if stage is not None:
            stage()
        prefix_words: dict[str, set[str]] = defaultdict(set)
        suffix_words: dict[str, set[str]] = defaultdict(set)
        for p, s in cuts:
            prefix_words[p].add(p + s)
            suffix_words[s].add(p + s)
        kept = {(p, s) for p, s in cuts
                if len(prefix_words[p]) >= min_prefix_words and len(suffix_words[s]) >= min_suffix_words}
        if kept == cuts:
            return cuts
        cuts = kept


def build_tokens(lexicon: Lexicon, prefix_length: tuple[int, int], suffix_length: tuple[int, int], *,
                 min_prefix_words: int, min_suffix_words: int) -> TokenSet:
    """The :class:`TokenSet` of a lexicon (plurals dropped, pruned), ids in alphabetical order."""
    # Words of the dictionary's alphabet (a-z in English, with ñ or ä ö ü in Spanish or German).
    stage = functools.partial(build_checkpoint, f"the prefix/suffix token table of {lexicon.label}")
    stage()
    words = [w for w in lexicon.filtered(drop_plurals=True) if lexicon.alphabet.is_word(w)]
    stage()
    cuts = playable_cuts(words, prefix_length, suffix_length, min_prefix_words, min_suffix_words, stage)
    prefixes = tuple(sorted({p for p, _ in cuts}))
    suffixes = tuple(sorted({s for _, s in cuts}))
    word_list = tuple(sorted({p + s for p, s in cuts}))
    pid = {t: i for i, t in enumerate(prefixes)}
    sid = {t: i for i, t in enumerate(suffixes)}
    wid = {w: i for i, w in enumerate(word_list)}
    table = {(pid[p], sid[s]): wid[p + s] for p, s in sorted(cuts)}
    return TokenSet(prefixes, suffixes, word_list, table)


def spec_lexicon(spec: PrefixSuffixBoardSpec) -> Lexicon:
    """The spec's dictionary, loaded (``generate``: without offensive words unless the spec says),
    plural forms dropped. Plurals are dropped by the dictionary before offensive words go, so
    that the plural of a word left out (``pasties``) is not taken for a plain word: the
    checker, which judges plurals against the whole dictionary, would refuse it."""
    from cpwords.lexicon import lexicon_for

    return lexicon_for(spec.model_copy(update={"dictionary": spec.dictionary.model_copy(update={"drop_plurals": True})}))


def spec_tokens(spec: PrefixSuffixBoardSpec, layout: Layout) -> TokenSet:
    """Tokens for a spec and its board (cached on disk per dictionary content, lengths and degrees)."""
    from cpwords.lexicon import cache

    lexicon = spec_lexicon(spec)
    pmin, smin = layout.min_degree("prefix"), layout.min_degree("suffix")
    key = f"psboard-tokens-{spec.prefix_length[0]}-{spec.prefix_length[1]}-{spec.suffix_length[0]}-" \
          f"{spec.suffix_length[1]}-{pmin}-{smin}"

    def build() -> TokenSet:
        return build_tokens(lexicon, spec.prefix_length, spec.suffix_length,
                            min_prefix_words=pmin, min_suffix_words=smin)

    return cache.cached(lexicon, key, build, version=TOKEN_CACHE_VERSION)


def spec_layout(spec: PrefixSuffixBoardSpec) -> Layout:
    """The spec's board as a :class:`Layout`."""
    return board_layout(spec.board)
