"""The numpy link, group and landmark builders give exactly what the pure-Python references give."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.lexicon import Lexicon
from cpwords.puzzles.ladder.arrays import group_arrays, landmark_arrays, link_arrays
from cpwords.puzzles.ladder.index import build_index, one_letter_links, word_groups
from cpwords.puzzles.ladder.landmarks import landmark_tables

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


#: Long words over big alphabets: several packed keys a word (a 40-letter alphabet takes 6 bits, so
#: 10 letters a key), and letters beyond Latin-1.
long_words = st.lists(st.text(alphabet="abäöüñßçéłœжщ" + "".join(map(chr, range(0x3b1, 0x3c9))) + "\U0001f600",
                              min_size=1, max_size=3).map(lambda w: "xyzzyxyzzyxy"[: 12 - len(w) % 3] + w),
                      max_size=40, unique=True)


@settings(max_examples=200, deadline=None)
@given(st.one_of(long_words, st.lists(st.sampled_from(["kw" * 12, "kv" * 12, "kwkw" * 6 + "q", "zw" + "kw" * 11]),
                                      unique=True)))
def test_long_words_and_big_alphabets_match_the_reference(words: list[str]) -> None:
    offsets, links = link_arrays(words)
    assert [links[offsets[i]:offsets[i + 1]].tolist() for i in range(len(words))] == one_letter_links(words)


def test_the_index_groups_are_the_reference_groups() -> None:
    lex = Lexicon.from_words(["cold", "cord", "card", "ward", "warm", "worm", "word", "zzzz", "cat", "cot", "dog"])
    index = build_index(lex)
    words = list(lex)
    adjacency = one_letter_links(words)
    assert [list(index.links[index.offsets[i]:index.offsets[i + 1]]) for i in range(len(words))] == adjacency
    group, sizes, lengths = word_groups(words, adjacency)
    assert list(index.group) == group and list(index.group_sizes) == sizes and list(index.group_lengths) == lengths


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abcd", min_size=3, max_size=3), max_size=64, unique=True), st.data())
def test_landmark_arrays_are_the_reference_tables(words: list[str], data: st.DataObject) -> None:
    # Small and huge rareness (capped distances), and ties (equal distances pick the first word).
    rareness = data.draw(st.lists(st.integers(1, 3) | st.integers(10**9, 10**10), min_size=len(words),
                                  max_size=len(words)))
    k, min_group = data.draw(st.integers(0, 5)), data.draw(st.integers(0, 6))
    adjacency = one_letter_links(words)
    group, sizes, _ = word_groups(words, adjacency)
    members = [[v for v in range(len(words)) if group[v] == g] for g in range(1, len(sizes))]
    expected = landmark_tables(len(words), members, adjacency.__getitem__, rareness, k=k, min_group=min_group)
    offsets, links = link_arrays(words)
    order = np.argsort(np.array(group, dtype=np.int64), kind="stable")
    starts = np.concatenate(([0], np.cumsum(sizes)))
    got = landmark_arrays(offsets, links, np.array(rareness, dtype=np.int64), order, starts, k=k, min_group=min_group)
    assert [list(t) for t in got] == [list(t) for t in expected]
    # A group at a time, in any order, into the same tables (as LadderIndex.landmarks does): the same.
    tables = landmark_arrays(offsets, links, np.array(rareness), order, starts, k=k, groups=[])
    for g in data.draw(st.permutations(range(len(sizes) + 1))):
        landmark_arrays(offsets, links, np.array(rareness), order, starts, k=k, min_group=min_group, groups=[g],
                        tables=tables)
    assert [list(t) for t in tables] == [list(t) for t in expected]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([10, 20, 35, 50, 55, 60, 70, 80, 95, 100, 37, 101]),
                          st.integers(-300, 900)), max_size=50))
def test_rareness_array_is_rareness_word_by_word(values: list[tuple[int, int]]) -> None:
    words = [f"w{i}" for i in range(len(values))]
    lex = Lexicon(words, [lv for lv, _ in values], [z for _, z in values], name="test")
    assert lex.rareness_array().tolist() == [lex.rareness(w) for w in words]


def test_the_index_makes_a_groups_landmarks_on_first_use_and_keeps_them(tmp_path, monkeypatch) -> None:
    from itertools import product

    from cpwords.puzzles.ladder.index import LadderIndex
    from cpwords.puzzles.ladder.store import index_for

    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path))
    words = ["".join(p) for p in product("abcde", repeat=3)] + ["".join(p) for p in product("xyz", repeat=4)]
    lex = Lexicon.from_words(words)
    index = index_for(lex)
    ids = list(lex)
    adjacency = one_letter_links(ids)
    group, sizes, _ = word_groups(ids, adjacency)
    members = [[v for v in range(len(ids)) if group[v] == g] for g in range(1, len(sizes))]
    expected = landmark_tables(len(ids), members, adjacency.__getitem__, list(index.rareness))
    big = index.group_of("abc")
    assert index.group_size(big) == 125 and index.group_size(index.group_of("xyzx")) == 81
    tables = [list(t) for t in index.landmarks(big)]
    in_big = [index.group[v] == big for v in range(len(ids))]
    assert any(tables[0]) and all(not t[v] for t in tables for v in range(len(ids)) if not in_big[v])
    assert tables == [[x if in_big[v] else 0 for v, x in enumerate(t)] for t in expected]
    assert len(list(tmp_path.glob("ladder-index-landmarks-*.pickle"))) == 1
    # Another process reads the group's rows from the cache; with both groups, the whole reference.
    again = LadderIndex.from_payload(index.to_payload())
    compute = LadderIndex.compute_landmarks
    monkeypatch.setattr(LadderIndex, "compute_landmarks", lambda self, g: pytest.fail("not read from the cache"))
    again.landmarks(big)
    monkeypatch.setattr(LadderIndex, "compute_landmarks", compute)
    assert [list(t) for t in again.landmarks(index.group_of("xyzx"))] == [list(t) for t in expected]
