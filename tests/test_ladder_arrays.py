"""The numpy link and group builder gives exactly what the pure-Python reference gives."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.lexicon import Lexicon
from cpwords.puzzles.ladder.arrays import group_arrays, link_arrays
from cpwords.puzzles.ladder.index import build_index, one_letter_links, word_groups

words_lists = st.lists(st.text(alphabet="abcé", min_size=1, max_size=4), max_size=60, unique=True)


@settings(max_examples=300, deadline=None)
@given(words_lists)
def test_links_and_groups_match_the_reference(words: list[str]) -> None:
    adjacency = one_letter_links(words)
    offsets, links = link_arrays(words)
    assert [links[offsets[i]:offsets[i + 1]].tolist() for i in range(len(words))] == adjacency
    if words:
        alphabetical = np.array(sorted(range(len(words)), key=words.__getitem__))
        got = group_arrays(words, offsets, links, alphabetical)
        assert [a.tolist() for a in got] == [list(a) for a in word_groups(words, adjacency)]


def test_the_index_groups_are_the_reference_groups() -> None:
    lex = Lexicon.from_words(["cold", "cord", "card", "ward", "warm", "worm", "word", "zzzz", "cat", "cot", "dog"])
    index = build_index(lex)
    words = list(lex)
    adjacency = one_letter_links(words)
    assert [list(index.links[index.offsets[i]:index.offsets[i + 1]]) for i in range(len(words))] == adjacency
    group, sizes, lengths = word_groups(words, adjacency)
    assert list(index.group) == group and list(index.group_sizes) == sizes and list(index.group_lengths) == lengths
