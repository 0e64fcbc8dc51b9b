"""Ladders a person would pick (issue 25): the common ladder takes the fewest steps among the least
rare, and ladders avoid offensive words when an equal (or any, for the common ladder) one does.
Offensive words are written in ROT13 (see test_offensive)."""

from __future__ import annotations

import codecs
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pace import HANG_S

import cpwords
from cpwords.cli import main
from cpwords.lexicon import load_lexicon, offensive_words
from cpwords.puzzles import loading
from cpwords.puzzles.ladder.search import fewest_steps, least_rare_ladders

CPWORDS = str(Path(sys.executable).parent / "cpwords")


def ladder(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    """``cpwords ladder ARGS --json`` through ``cpwords.cli.main``: the printed result."""
    code = main(["ladder", *args, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_cold_warm_common_ladder_takes_the_fewest_steps_among_the_least_rare(
        capsys: pytest.CaptureFixture[str]) -> None:
    """It printed a 4-step shortest ladder of rareness 6 and a 6-step common ladder of rareness 6."""
    for seed in ("1", "2", "3"):
        result = ladder(capsys, "cold", "warm", "--seed", seed)
        shortest, common = result["solutions"]
        assert shortest["steps"] == 4 and common["rareness"] <= shortest["rareness"]
        assert common["steps"] == 4
    spec = loading.parse_spec({"kind": "ladder", "start": "cold", "target": "warm"})
    assert cpwords.verify.check(spec, cpwords.solve(spec)) == []


def test_black_white_ladders_avoid_offensive_words(capsys: pytest.CaptureFixture[str]) -> None:
    """A shortest ladder went through one slur and the common ladder through another, though other
    ladders of the same length avoid them."""
    bad = offensive_words()
    for seed in ("1", "2"):
        result = ladder(capsys, "black", "white", "--seed", seed)
        for solution in result["solutions"]:
            assert not set(solution["words"]) & bad, solution
        assert result["solutions"][0]["steps"] == 7  # still a shortest ladder
    for word in ("puvax", "juber"):
        assert codecs.decode(word, "rot13") in bad


def test_the_common_ladder_says_so_when_every_ladder_needs_an_offensive_word() -> None:
    lexicon = load_lexicon("scowl-70")
    word = codecs.decode("jbc", "rot13")  # a 3-letter slur; the only bridge between two words
    start, target = "m" + word[1:], word[:2] + "n"
    assert start in lexicon and target in lexicon and word in offensive_words()
    spec = {"kind": "ladder", "start": start, "target": target, "dictionary": {"words": [start, word, target]}}
    result = cpwords.solve(spec)
    common = result.solutions[1]
    assert common.words == [start, word, target] and result.stats["common_offensive"] == [word]
    assert "offensive" in (result.message or "")
    # With a clean detour, both ladders take it: the shortest among equals, the common one always.
    detour = [start, "mon", target] if "mon" in lexicon else None
    if detour:
        spec["dictionary"] = {"words": [start, word, "mon", target]}
        result = cpwords.solve(spec)
        assert all(s.words == detour for s in result.solutions) and not result.message


def test_ladder_takes_exclude_like_the_other_commands(capsys: pytest.CaptureFixture[str]) -> None:
    word = codecs.decode("jbc", "rot13")
    code = main(["ladder", "m" + word[1:], word[:2] + "n", "--exclude", "offensive", "--json", "--dict", "scowl-70",
                 "--mode", "shortest"])
    out = json.loads(capsys.readouterr().out)
    assert code in (0, 1)
    assert word not in out["solutions"][0]["words"] if code == 0 else True
    assert "exclude=offensive" in out["stats"]["dictionary"] or "left out" in out["stats"]["dictionary"]
    # as a user runs it: the installed command's exit code and one-line message
    bad = subprocess.run([CPWORDS, "ladder", "cold", "warm", "--exclude", "rude"], capture_output=True, text=True,
                         timeout=HANG_S, check=False)
    assert bad.returncode == 2 and "--exclude" in bad.stderr and "Traceback" not in bad.stderr


def test_fewest_steps_on_a_hand_made_graph() -> None:
    # Two ladders of rareness 5 from 0 to 3: 0-1-3 (2 steps) and 0-2-4-3 (3 steps).
    adj = [[1, 2], [0, 3], [0, 4], [1, 4], [2, 3]]
    graph = least_rare_ladders(adj.__getitem__, [1, 4, 1, 1, 3], 0, 3)
    assert graph is not None and graph.cost == 5 and graph.count == 2
    short = fewest_steps(graph)
    assert short.count == 1 and short.sample(random.Random(0)) == [0, 1, 3] and short.cost == 5


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 8), edges=st.sets(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=20),
       rareness=st.lists(st.integers(1, 4), min_size=8, max_size=8), seed=st.integers(0, 5))
def test_fewest_steps_among_least_rare_matches_brute_force(n: int, edges: set[tuple[int, int]],
                                                          rareness: list[int], seed: int) -> None:
    """Every simple path, by networkx: the least rare, then the fewest steps among them."""
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from((a, b) for a, b in edges if a < n and b < n and a != b)
    if not nx.has_path(g, 0, n - 1) or n - 1 == 0:
        return
    adj = [sorted(g.neighbors(v)) for v in range(n)]
    paths = list(nx.all_simple_paths(g, 0, n - 1))
    cost = {tuple(p): sum(rareness[v] for v in p[1:]) for p in paths}
    least = min(cost.values())
    steps = min(len(p) - 1 for p in cost if cost[p] == least)
    best = {p for p in cost if cost[p] == least and len(p) - 1 == steps}
    graph = least_rare_ladders(adj.__getitem__, rareness[:n], 0, n - 1)
    assert graph is not None and graph.cost == least
    short = fewest_steps(graph)
    assert short.count == len(best) and tuple(short.sample(random.Random(seed))) in best
    assert all(tuple(p) in best for p in itertools.islice(short.ladders(str), 50))
