"""Ladder puzzles (``mode: generate``): every pair made is re-proven by a breadth-first search that
shares nothing with the generator (par, the number of shortest ladders, the least rareness), and
every answer passes ``cpwords.verify``."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pace import HANG_S

import cpwords
from cpwords import verify
from cpwords.cli import main
from cpwords.lexicon import lexicon_for
from cpwords.lexicon.exclude import offensive_words
from cpwords.puzzles.ladder.spec import GENERATE_DICTIONARY, LadderSpec
from cpwords.results import Status

THREE = ["cat", "cot", "cog", "dog", "dot", "hot", "hat", "bat", "bag", "big", "dig", "dim", "him", "hip", "hop",
         "top", "tip", "tap", "cap", "cup", "pup", "pop", "mop", "map", "mat", "rat", "rot", "rod", "god", "nod"]


def bfs_facts(words: list[str], rareness: dict[str, int], start: str) -> dict[str, tuple[int, int, int]]:
    """word -> (distance from start, number of shortest ladders, least rareness of a shortest one).

    Words one letter apart share a pattern with that letter blanked ("c_ld"): a word's neighbours
    are the other words of its patterns (each once: two words differ at one place only)."""
    by_pattern: dict[str, list[str]] = defaultdict(list)
    for w in words:
        for i in range(len(w)):
            by_pattern[w[:i] + "_" + w[i + 1:]].append(w)

    def linked(v: str) -> Iterator[str]:
        for i in range(len(v)):
            yield from (w for w in by_pattern[v[:i] + "_" + v[i + 1:]] if w != v)

    facts = {start: (0, 1, 0)}
    layer = [start]
    while layer:
        nxt: dict[str, tuple[int, int, int]] = {}
        for v in layer:
            d, n, r = facts[v]
            for w in linked(v):
                if w in facts:
                    continue
                _, m, best = nxt.get(w, (d + 1, 0, 10**12))
                nxt[w] = (d + 1, m + n, min(best, r + rareness[w]))
        facts.update(nxt)
        layer = list(nxt)
    return facts


def recheck(spec: LadderSpec, result) -> None:
    assert verify.check(spec, result) == [], verify.check(spec, result)
    lexicon = lexicon_for(spec)
    words = [w for w in lexicon.by_length(spec.length)]
    rareness = {w: lexicon.rareness(w) for w in words}
    pairs = set()
    for sol in result.solutions:
        start, target = sol.words[0], sol.words[-1]
        facts = bfs_facts(words, rareness, start)
        assert facts[target][0] == spec.par == sol.steps == len(sol.words) - 1
        assert sol.ladders == facts[target][1]
        assert sol.rareness == facts[target][2]
        assert sol.difficulty is not None and sol.difficulty.figures["shortest_ladders"] == sol.ladders
        assert frozenset((start, target)) not in pairs
        pairs.add(frozenset((start, target)))


def test_generated_pairs_are_at_par() -> None:
    spec = LadderSpec.model_validate({"kind": "ladder", "mode": "generate", "count": 4, "par": 4, "seed": 5})
    assert spec.dictionary.label() == GENERATE_DICTIONARY and spec.length == 4
    result = cpwords.solve(spec)
    assert result.status is Status.OPTIMAL and len(result.solutions) == 4
    recheck(spec, result)
    again = cpwords.solve(spec)
    assert [s.words for s in again.solutions] == [s.words for s in result.solutions]  # seeded
    banned = offensive_words()
    assert not any(w in banned for s in result.solutions for w in s.words)


def test_fixed_start_and_length() -> None:
    spec = LadderSpec.model_validate({"kind": "ladder", "mode": "generate", "start": "Stone", "par": 3, "count": 2,
                                      "seed": 1})
    assert spec.length == 5
    result = cpwords.solve(spec)
    assert all(s.words[0] == "stone" for s in result.solutions) and result.solutions
    recheck(spec, result)


def pairs_at(words: list[str], pars: tuple[int, ...]) -> dict[int, set[frozenset[str]]]:
    """Every unordered pair of ``words`` at each distance of ``pars`` (a breadth-first search from
    every word over the links of :func:`bfs_facts`'s patterns, sharing nothing with cpwords)."""
    by_pattern: dict[str, list[str]] = defaultdict(list)
    for w in words:
        for i in range(len(w)):
            by_pattern[w[:i] + "_" + w[i + 1:]].append(w)
    linked = {w: {v for i in range(len(w)) for v in by_pattern[w[:i] + "_" + w[i + 1:]] if v != w} for w in words}
    out: dict[int, set[frozenset[str]]] = {p: set() for p in pars}
    for w in words:
        seen, layer = {w}, {w}
        for d in range(1, max(pars) + 1):
            layer = {v for u in layer for v in linked[u]} - seen
            seen |= layer
            if d in out:
                out[d] |= {frozenset((w, v)) for v in layer}
    return out


@settings(max_examples=30, deadline=None)
@given(words=st.lists(st.sampled_from(THREE), min_size=4, max_size=30, unique=True), par=st.integers(1, 4),
       count=st.integers(1, 40), seed=st.integers(0, 99))
def test_random_small_lists(words: list[str], par: int, count: int, seed: int) -> None:
    """Every pair at par comes, up to ``count`` (A6: not one a start word), and "no more" is said
    only when it is so."""
    spec = LadderSpec.model_validate({"kind": "ladder", "mode": "generate", "par": par, "length": 3, "count": count,
                                      "seed": seed, "dictionary": {"words": words}})
    result = cpwords.solve(spec)
    recheck(spec, result)
    exist = pairs_at(words, (par,))[par]
    made = {frozenset((s.words[0], s.words[-1])) for s in result.solutions}
    assert made <= exist and len(made) == min(count, len(exist))
    if 0 < len(made) < count:
        assert result.status is Status.OPTIMAL
        assert result.message.startswith(f"{len(made)} of the {count} ladder puzzles asked for: ")
        assert result.message.endswith("there are no more")
    if not exist:
        assert result.status is Status.INFEASIBLE


def common_four_letter_words() -> list[str]:
    spec = LadderSpec.model_validate({"kind": "ladder", "mode": "generate", "length": 4})
    return list(lexicon_for(spec).by_length(4))


@pytest.fixture(scope="module")
def common_pairs() -> dict[int, set[frozenset[str]]]:
    """The pairs of the generator's default list at 15, 18 and 19 steps, found independently."""
    return pairs_at(common_four_letter_words(), (15, 18, 19))


def test_every_target_of_a_start_word_is_drawn(common_pairs: dict[int, set[frozenset[str]]]) -> None:
    """A6: common-20k's 4-letter words have 135 pairs at 15 steps from 80 start words; asked for
    200, the generator gave 80 (one a start word) and said "every start word tried: there are
    no more". Now it gives exactly the 135 pairs an independent search finds, and says so."""
    assert len(common_pairs[15]) == 135  # figure of the list (version 1 of the common lists)
    spec = LadderSpec.model_validate({"kind": "ladder", "mode": "generate", "count": 200, "par": 15, "seed": 3})
    result = cpwords.solve(spec)
    assert {frozenset((s.words[0], s.words[-1])) for s in result.solutions} == common_pairs[15]
    assert result.status is Status.OPTIMAL and len(result.solutions) == 135
    assert result.message == ("135 of the 200 ladder puzzles asked for: every 4-letter start word was tried with each "
                              "of its targets at 15 steps: there are no more")
    assert verify.check(spec, result) == []


@pytest.mark.parametrize("seed", [1, 2])
def test_a_rare_pair_is_found_whatever_the_draw(seed: int, common_pairs: dict[int, set[frozenset[str]]]) -> None:
    """E7: one pair of 4-letter words is 18 steps apart; generation gave up after 60 start words
    (``unknown``) whatever its time limit. Now it tries every start word within its limit (here
    none) and finds that pair."""
    result = cpwords.solve({"kind": "ladder", "mode": "generate", "count": 1, "par": 18, "seed": seed}, check=False)
    assert result.status is Status.OPTIMAL
    assert {frozenset((s.words[0], s.words[-1])) for s in result.solutions} == common_pairs[18]


def test_no_pair_at_par_is_proved(common_pairs: dict[int, set[frozenset[str]]]) -> None:
    """E7: no pair is 19 steps apart: every start word tried proves it (``infeasible``, not ``unknown``)."""
    none = cpwords.solve({"kind": "ladder", "mode": "generate", "count": 1, "par": 19, "seed": 1})
    assert not common_pairs[19] and none.status is Status.INFEASIBLE and "19 steps" in none.message


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cpwords", *args], capture_output=True, text=True, timeout=HANG_S)


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    run = cli("ladder", "--generate", "2", "--par", "3", "--length", "5", "--seed", "9", "--json")  # as a user runs it
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["status"] == "optimal" and [len(s["words"]) for s in out["solutions"]] == [4, 4]
    assert all(len(w) == 5 for s in out["solutions"] for w in s["words"])
    assert all(s["ladders"] >= 1 and s["difficulty"]["level"] for s in out["solutions"])
    # the text and the refusals are the same code in this process
    assert main(["ladder", "--generate", "1", "--seed", "9"]) == 0
    text = capsys.readouterr().out
    assert "par 5" in text and "shortest ladder" in text
    for args, field in ((("ladder", "cold", "warm", "--par", "3"), "--par"),
                        (("ladder", "cold", "warm", "--generate", "2"), "TARGET"),
                        (("ladder", "--generate", "1", "--par", "0"), "par")):
        assert main(list(args)) == 2
        err = capsys.readouterr().err
        assert field in err and "Traceback" not in err, err
        assert len(err.strip().splitlines()) == 1


def test_no_pair_at_par() -> None:
    spec = LadderSpec.model_validate({"kind": "ladder", "mode": "generate", "par": 3, "length": 3, "seed": 1,
                                      "dictionary": {"words": ["cat", "cot", "dog"]}})
    result = cpwords.solve(spec)
    assert not result.solutions and result.status is Status.INFEASIBLE and "3 steps" in result.message
