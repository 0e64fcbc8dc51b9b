"""Letter Boxed: the reach tables against their definition, and the models at the letter bound.

k words covering the n letters of a box have at least n + k - 1 letters in all. The CP-SAT and
SAT engines first ask for an answer at exactly that bound (an exact cover, see
``cpsat.at_the_bound`` and ``sat._cover_cnf``), then for answers with at most s letters more
(the same models with excess, which break the tie-break); these tests hold both to brute force.
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_letter_boxed_engines import small_puzzles

from cpwords import api, verify
from cpwords.engines import sat as sat_engine
from cpwords.engines.budget import Budget
from cpwords.lexicon import Lexicon
from cpwords.puzzles.letter_boxed import cpsat, cpsat_models, reach, sat
from cpwords.puzzles.letter_boxed.words import Box, WordTable, playable_words
from cpwords.puzzles.loading import parse_spec
from cpwords.results import Status


def _table(puzzle: dict) -> WordTable:
    return playable_words(Box.from_sides(puzzle["sides"]), Lexicon.from_words(puzzle["dictionary"]["words"]),
                          min_length=2)


def reach_by_definition(table: WordTable, steps: int) -> list[np.ndarray]:
    """``can_finish`` straight from its definition: r more words from letter e finish the box
    from the covered set m, and no word but the last completes it."""
    n, full = table.box.n, table.box.full
    out = [np.zeros((n, 1 << n), dtype=bool)]
    out[0][:, full] = True
    for _ in range(steps):
        prev, nxt = out[-1], np.zeros((n, 1 << n), dtype=bool)
        for e in range(n):
            for m in range(1 << n):
                nxt[e, m] = m != full and any(prev[table.last[w], m | table.mask[w]]
                                              for w in range(len(table)) if table.first[w] == e)
        out.append(nxt)
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.integers(1, 3))
def test_can_finish_matches_its_definition(puzzle: dict, steps: int) -> None:
    table = _table(puzzle)
    if not len(table):
        return
    expected = reach_by_definition(table, steps)
    got = reach.can_finish(table, steps)
    assert len(got) == steps + 1
    for r, (a, b) in enumerate(zip(got, expected, strict=True)):
        assert (a == b).all(), r
    # Steps computed for fewer words are reused as they are, and give the same tables.
    again = reach.can_finish(table, steps, known=reach.can_finish(table, 1))
    assert all((a == b).all() for a, b in zip(again, expected, strict=True))
    assert len(reach.can_finish(table, 1, known=got)) == 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.integers(1, 3))
def test_the_bound_models_find_exactly_the_answers_at_the_bound(puzzle: dict, k: int) -> None:
    table = _table(puzzle)
    if not len(table):
        return
    expected = set(answers_within(puzzle, k, 0))  # no fewer letters exist
    domains = reach.position_domains(table, k)
    spec = parse_spec({**puzzle, "seed": 1})
    status, answer, _ = cpsat.at_the_bound(table, k, domains, spec, Budget(None))
    assert status is (Status.OPTIMAL if expected else Status.INFEASIBLE)
    if expected:
        assert tuple(table.words[i] for i in answer) in expected
    bc = sat._cover_cnf(table, k, domains, 0)
    if bc is None:
        assert not expected
        return
    outcome = sat_engine.solve(bc.cnf, Budget(None), solver_name=sat.MINIMUM_SOLVER)
    assert outcome.status is (Status.OPTIMAL if expected else Status.INFEASIBLE)
    if expected:
        assert tuple(table.words[i] for i in sat._decode(bc, outcome.true_vars)) in expected


def test_an_answer_above_the_bound_is_still_found_and_proved() -> None:
    # Two words must share a letter besides their join (a is in both), so no answer has
    # 6 + 2 - 1 = 7 letters: the bound models say so, and the search goes on from 8.
    puzzle = {"kind": "letter_boxed", "sides": ["ab", "cd", "ef"], "min_word_length": 2,
              "dictionary": {"words": ["acbe", "edfa", "acbedf"]}}
    for engine in ("native", "cpsat", "sat"):
        result = api.solve({**puzzle, "max_words": 3}, engine=engine, seed=1)
        assert result.status.value == "optimal", (engine, result.message)
        assert verify.check(parse_spec({**puzzle, "max_words": 3}), result) == []
        assert (result.objective, result.solutions[0].letters) == (1, 6), engine
    puzzle["dictionary"]["words"] = ["acbe", "edfa"]
    for engine in ("native", "cpsat", "sat"):
        result = api.solve({**puzzle, "max_words": 3}, engine=engine, seed=1)
        assert result.status.value == "optimal", (engine, result.message)
        assert (sorted(result.solutions[0].words), result.solutions[0].letters) == (["acbe", "edfa"], 8), engine
        assert "tie_break" not in result.stats


def test_a_hard_box_is_settled_at_the_bound_by_both_solver_engines() -> None:
    # LRT CPU YOE NHW QIA: 3 words and 17 letters = 15 + 3 - 1, the bound itself.
    spec = {"kind": "letter_boxed", "sides": ["lrt", "cpu", "yoe", "nhw", "qia"], "seed": 1}
    native = api.solve(spec, engine="native")
    assert (native.objective, native.solutions[0].letters) == (3, 17)
    for engine in ("cpsat", "sat"):
        result = api.solve(spec, engine=engine)
        assert result.status.value == "optimal" and result.stats["tie_break"] == "at the bound"
        assert (result.objective, result.solutions[0].letters) == (3, 17)
        assert verify.check(parse_spec(spec), result) == []


def answers_within(puzzle: dict, k: int, slack: int) -> list[tuple[str, ...]]:
    """Every answer of exactly k distinct words with at most n + k - 1 + slack letters, by brute force
    (as everywhere: the words before the last do not cover every letter already)."""
    box = Box.from_sides(puzzle["sides"])
    playable = [w for w in set(puzzle["dictionary"]["words"]) if len(w) >= 2 and box.is_playable(w)]
    letters = set(box.letters)
    return [seq for seq in itertools.permutations(playable, k)
            if all(a[-1] == b[0] for a, b in itertools.pairwise(seq))
            and set("".join(seq)) == letters and sum(map(len, seq)) <= box.n + k - 1 + slack
            and (k == 1 or set("".join(seq[:-1])) != letters)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.integers(1, 3), st.integers(0, 4))
@example({"kind": "letter_boxed", "sides": ["ab", "cd", "ef"], "min_word_length": 2,
          "dictionary": {"words": ["ac", "acbda", "eafa"]}}, 3, 3)  # eafa acbda cover all: ac is no third word
@example({"kind": "letter_boxed", "sides": ["ab", "cd", "ef"], "min_word_length": 2,
          "dictionary": {"words": ["ac", "adeb", "adfa", "bc", "ca", "df", "fca"]}}, 3, 1)  # fca adeb bc: the same, per path
def test_the_cover_models_with_excess_find_exactly_the_answers_within_it(puzzle: dict, k: int, slack: int) -> None:
    table = _table(puzzle)
    if not len(table):
        return
    expected = set(answers_within(puzzle, k, slack))
    domains = reach.position_domains(table, k)
    spec = parse_spec({**puzzle, "seed": 1})
    built = cpsat_models.cover_model(table, k, domains, slack)
    if built is None:
        assert not expected
    else:
        model, pick = built
        outcome = cpsat._solve(model, spec, Budget(None))
        assert outcome.status is (Status.OPTIMAL if expected else Status.INFEASIBLE)
        if expected:
            assert tuple(table.words[next(i for i, x in row.items() if outcome.value(x))] for row in pick) in expected
    cover = sat._cover_cnf(table, k, domains, slack)
    if cover is None:
        assert not expected
        return
    found = sat_engine.solve(cover.cnf, Budget(None), solver_name=sat.MINIMUM_SOLVER)
    assert found.status is (Status.OPTIMAL if expected else Status.INFEASIBLE)
    if expected:
        assert tuple(table.words[i] for i in sat._decode(cover, found.true_vars)) in expected


def test_no_answer_of_k_words_ends_after_the_letters_were_covered() -> None:
    """``fca adeb bc``: the first two words cover every letter, so the answer ends there and the
    third word makes no answer of three words (the position domains allow each word where it
    stands; only the whole path shows it). Both cover models refuse it when it is forced."""
    puzzle = {"kind": "letter_boxed", "sides": ["ab", "cd", "ef"], "min_word_length": 2,
              "dictionary": {"words": ["ac", "adeb", "adfa", "bc", "ca", "df", "fca"]}}
    table = _table(puzzle)
    forced = [table.words.index(w) for w in ("fca", "adeb", "bc")]
    domains = reach.position_domains(table, 3)
    assert all(i in d for i, d in zip(forced, domains, strict=True))
    spec = parse_spec({**puzzle, "seed": 1})
    for slack in (1, None):
        built = cpsat_models.cover_model(table, 3, domains, slack)
        assert built is not None
        model, pick = built
        for p, i in enumerate(forced):
            model.add(pick[p][i] == 1)
        assert cpsat._solve(model, spec, Budget(None)).status is Status.INFEASIBLE, slack
    cover = sat._cover_cnf(table, 3, domains, 1)
    assert cover is not None
    for p, i in enumerate(forced):
        cover.cnf.add([cover.pick[p][i]])
    assert sat_engine.solve(cover.cnf, Budget(None), solver_name=sat.MINIMUM_SOLVER).status is Status.INFEASIBLE
