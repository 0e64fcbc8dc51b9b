"""Letter Boxed: the three engines agree with each other and with brute force on small random boxes."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords import api, verify
from cpwords.lexicon import Lexicon
from cpwords.puzzles.letter_boxed import counting, native
from cpwords.puzzles.letter_boxed.words import Box, playable_words

ENGINES = ("native", "cpsat", "sat")


@st.composite
def small_puzzles(draw: st.DrawFn) -> dict:
    """3 or 4 sides of 2 letters; mostly playable words (walks that change side at every letter),
    a few random strings (often unplayable), some words starting and ending alike (repeatable)."""
    n_sides = draw(st.integers(3, 4))
    letters = draw(st.permutations("abcdefghijklmnop"))[: 2 * n_sides]
    sides = ["".join(letters[i:i + 2]) for i in range(0, 2 * n_sides, 2)]
    side_of = {ch: i // 2 for i, ch in enumerate(letters)}

    def playable_word() -> str:
        word = [draw(st.sampled_from(letters))]
        for _ in range(draw(st.integers(1, 5))):
            word.append(draw(st.sampled_from([c for c in letters if side_of[c] != side_of[word[-1]]])))
        return "".join(word)

    words = [playable_word() for _ in range(draw(st.integers(1, 16)))]
    words += draw(st.lists(st.lists(st.sampled_from(letters), min_size=2, max_size=5).map("".join), max_size=4))
    return {"kind": "letter_boxed", "sides": sides, "dictionary": {"words": sorted(set(words))},
            "min_word_length": 2}


def brute_force_counts(sides: list[str], words: list[str], max_words: int) -> dict[int, int]:
    """Answers per word count by trying every sequence of distinct playable words (the rules, directly)."""
    box = Box.from_sides(sides)
    playable = [w for w in set(words) if len(w) >= 2 and box.is_playable(w)]
    letters = set(box.letters)
    out = {k: 0 for k in range(1, max_words + 1)}
    for k in range(1, max_words + 1):
        for seq in itertools.permutations(playable, k):
            if any(a[-1] != b[0] for a, b in itertools.pairwise(seq)):
                continue
            if set("".join(seq)) == letters and (k == 1 or set("".join(seq[:-1])) != letters):
                out[k] += 1
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.sampled_from(["letters", "common"]))
def test_engines_agree_on_the_minimum(puzzle: dict, rank: str) -> None:
    outcomes = {}
    for engine in ENGINES:
        result = api.solve({**puzzle, "rank": rank, "max_words": 4}, engine=engine, seed=1)
        assert result.status.value in ("optimal", "infeasible"), (engine, result)
        assert verify.check(_spec(puzzle, rank=rank, max_words=4), result) == []
        best = result.solutions[0] if result.solutions else None
        cost = None if best is None else (best.letters if rank == "letters" else best.rareness)
        outcomes[engine] = (result.objective, cost)
    assert len(set(outcomes.values())) == 1, outcomes
    # The single models with empty positions (CP-SAT objective, SAT totalizer) agree too.
    from cpwords.puzzles.letter_boxed.cpsat import min_words_by_objective
    from cpwords.puzzles.letter_boxed.sat import min_words_by_totalizer
    from cpwords.puzzles.letter_boxed.words import drop_dominated, load_table

    spec = _spec(puzzle, rank=rank, max_words=4)
    table = drop_dominated(load_table(spec.sides, spec.dictionary, min_length=2, rank=rank))
    if len(table):
        status, words = min_words_by_objective(spec, table)
        assert words == outcomes["native"][0], (status, words, outcomes)
        status, words = min_words_by_totalizer(spec, table)
        assert words == outcomes["native"][0], (status, words, outcomes)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_engines_agree_on_counts_and_listings(puzzle: dict) -> None:
    expected = brute_force_counts(puzzle["sides"], puzzle["dictionary"]["words"], 3)
    listings = {}
    for engine in ENGINES:
        counted = api.solve({**puzzle, "task": "count", "max_words": 3}, engine=engine, seed=1)
        assert counted.count_exact is True
        assert counted.stats["count_by_words"] == {str(k): v for k, v in expected.items()}, engine
        assert counted.count == sum(expected.values())
        listed = api.solve({**puzzle, "task": "enumerate", "max_words": 3, "limit": None}, engine=engine, seed=1)
        assert verify.check(_spec(puzzle, max_words=3), listed) == []
        assert listed.count == sum(expected.values())
        listings[engine] = sorted(tuple(s.words) for s in listed.solutions)
    assert listings["native"] == listings["cpsat"] == listings["sat"]


def test_native_counts_with_repeats_match_brute_force_up_to_five_words() -> None:
    # Words that start and end with the same letter can repeat in a chain; the count must not
    # include such chains (the inclusion-exclusion over position partitions removes them).
    sides = ["ab", "cd", "ef"]
    words = ["aca", "ada", "ace", "eb", "bf", "fa", "ae", "ea", "ebf", "dbd", "af"]
    expected = brute_force_counts(sides, words, 5)
    table = playable_words(Box.from_sides(sides), Lexicon.from_words(words), min_length=2)
    assert counting.count_answers(table, 5) == expected
    assert sum(expected.values()) > 0


def test_lazy_enumeration_matches_counts() -> None:
    sides = ["ab", "cd", "ef"]
    words = ["ace", "eb", "bf", "fad", "dbe", "ea", "acf", "fe"]
    table = playable_words(Box.from_sides(sides), Lexicon.from_words(words), min_length=2)
    listed: dict[int, int] = {}
    for answer in native.enumerate_answers(table, 4):
        listed[len(answer)] = listed.get(len(answer), 0) + 1
    counts = counting.count_answers(table, 4)
    assert {k: listed.get(k, 0) for k in counts} == counts


def _spec(puzzle: dict, **fields: object):  # type: ignore[no-untyped-def]
    from cpwords.puzzles.loading import parse_spec

    return parse_spec({**puzzle, **fields})


def brute_force_answers(sides: list[str], words: list[str], k: int) -> list[tuple[str, ...]]:
    """Every answer of exactly k words, by trying every sequence of distinct playable words."""
    box = Box.from_sides(sides)
    playable = [w for w in set(words) if len(w) >= 2 and box.is_playable(w)]
    letters = set(box.letters)
    return [seq for seq in itertools.permutations(playable, k)
            if all(a[-1] == b[0] for a, b in itertools.pairwise(seq))
            and set("".join(seq)) == letters and (k == 1 or set("".join(seq[:-1])) != letters)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.integers(1, 3))
def test_position_domains_keep_every_answer(puzzle: dict, k: int) -> None:
    from cpwords.puzzles.letter_boxed.reach import position_domains

    sides, words = puzzle["sides"], puzzle["dictionary"]["words"]
    table = playable_words(Box.from_sides(sides), Lexicon.from_words(words), min_length=2)
    if not len(table):
        return
    domains = position_domains(table, k)
    allowed = [{table.words[i] for i in d} for d in domains]
    for answer in brute_force_answers(sides, words, k):
        assert all(w in allowed[p] for p, w in enumerate(answer)), (answer, allowed)


def test_a_shorter_word_inside_a_longer_one_is_kept_for_the_middle() -> None:
    # 'acb' has fewer letters than 'aceb' (same ends) but only it leaves 'e' for a third word.
    puzzle = {"kind": "letter_boxed", "sides": ["ab", "cd", "ef"], "min_word_length": 2,
              "dictionary": {"words": ["ac", "acb", "aceb", "adfa", "be"]}, "task": "enumerate",
              "max_words": 3, "limit": None}
    for engine in ENGINES:
        result = api.solve(puzzle, engine=engine, seed=1)
        assert sorted(s.words for s in result.solutions) == [["adfa", "acb", "be"], ["adfa", "aceb"]], engine
        assert verify.check(_spec(puzzle), result) == []


def test_each_engine_declares_the_tasks_its_capability_table_names() -> None:
    # TASKS is what mypy checks against the task contract (TaskFunction): it must be the very
    # functions the registry dispatches to, for every task the table gives the engine.
    from cpwords.puzzles.letter_boxed import KIND

    for engine in KIND.engines:
        declared = KIND.load(KIND.engine_modules.get(engine, engine)).TASKS
        assert [KIND.task_function(engine, task) for task in KIND.capabilities[engine]] == list(declared), engine
