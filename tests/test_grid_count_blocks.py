"""Exact grid counts (sparse networks, 2×2-block kernel, terms) against brute-force enumeration."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import shared_file
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords.engines.budget import SearchTimeout
from cpwords.geometry import load_grid
from cpwords.puzzles.word_grid import count_cut, count_dense, count_k44
from cpwords.puzzles.word_grid.count import (
    CountProgress,
    combine_terms,
    count_grids,
    count_grids_einsum,
    count_term,
    count_terms,
)
from cpwords.puzzles.word_grid.count_engine import NetworkPlan
from cpwords.puzzles.word_grid.count_network import build_network, word_arrays
from cpwords.puzzles.word_grid.problem import GridProblem, prepare
from cpwords.puzzles.word_grid.spec import WordGridSpec

# Shapes besides the shipped gridle-5x5 and gridle-7x7 (written to files by the fixture).
SHAPES = {
    # rows and columns 1, 4, 7 of a 7×7: a 3×3 crossing grid of 7-letter words
    "rows147": [".......", ".##.##.", ".##.##.", ".......", ".##.##.", ".##.##.", "......."],
    # 5 wide, 7 tall: four 5-letter across words, three 7-letter down words
    "rect5x7": [".....", ".#.#.", ".....", ".#.#.", ".....", ".#.#.", "....."],
    # 9 wide, 7 tall: four 9-letter across, four 7-letter down words, all crossing (no transpose)
    "wide9x7": [".........", ".#.###.#.", ".........", ".#.###.#.", ".........", ".#.###.#.", "........."],
    # the smallest ring: two across and two down 3-letter words
    "ring3x3": ["...", ".#.", "..."],
}


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("shapes")
    out = {"gridle-5x5": "gridle-5x5", "gridle-7x7": "gridle-7x7"}
    for name, rows in SHAPES.items():
        path = folder / f"{name}.yaml"
        path.write_text("rows:\n" + "".join(f"  - '{r}'\n" for r in rows))
        out[name] = str(path)
    return out


def problem_of(shape: str, words: list[str], distinct: bool) -> GridProblem:
    spec = WordGridSpec.model_validate({"kind": "word_grid", "shape": shape, "dictionary": {"words": words},
                                        "task": "count", "distinct_words": distinct})
    return prepare(spec)


def brute_force(problem: GridProblem) -> tuple[int, int]:
    """(raw, modulo symmetry) by trying every word in every slot, checking crossings."""
    # fill slots in an order where each one crosses those already filled (prunes early)
    order, covered = [0], set(problem.slots[0])
    while len(order) < len(problem.slots):
        s = max((s for s in range(len(problem.slots)) if s not in order),
                key=lambda s: len(covered & set(problem.slots[s])))
        order.append(s)
        covered |= set(problem.slots[s])
    words = [[problem.words[len(slot)][i] for i in problem.candidates[s]] for s, slot in enumerate(problem.slots)]
    letters: list[str | None] = [None] * len(problem.cells)
    grids: list[tuple[str, ...]] = []

    def place(k: int, used: set[str]) -> None:
        if k == len(order):
            grids.append(tuple(letters))  # type: ignore[arg-type]
            return
        slot = problem.slots[order[k]]
        for w in words[order[k]]:
            if problem.distinct and w in used:
                continue
            if all(letters[c] in (None, ch) for c, ch in zip(slot, w, strict=True)):
                placed = [c for c in slot if letters[c] is None]
                for c, ch in zip(slot, w, strict=True):
                    letters[c] = ch
                place(k + 1, used | {w})
                for c in placed:
                    letters[c] = None

    place(0, set())
    orbits = set()
    for grid in grids:
        images = []
        for g in problem.group:
            moved = [""] * len(grid)
            for i, j in enumerate(g.perm):
                moved[j] = grid[i]
            images.append(tuple(moved))
        orbits.add(min(images))
    return len(grids), len(orbits)


def word_lists(draw: st.DrawFn, lengths: set[int], alphabet: str, most: int) -> list[str]:
    words: set[str] = set()
    for n in sorted(lengths):
        words |= set(draw(st.lists(st.text(alphabet, min_size=n, max_size=n), min_size=3, max_size=most)))
    return sorted(words)


@st.composite
def small_lists(draw: st.DrawFn, lengths: set[int], most: int = 30, shape: str | None = None) -> list[str]:
    """3–``most`` random words per length over a 3–5 letter alphabet; with a ``shape``, the list
    also holds the words of one random filling of the shape, so some grid always exists."""
    alphabet = "abcde"[:draw(st.integers(3, 5))]
    words = word_lists(draw, lengths, alphabet, most)
    if shape is not None and draw(st.booleans()):
        grid = load_grid(shape)
        cells = {cell: draw(st.sampled_from(alphabet)) for cell in grid.open_cells()}
        words = sorted(set(words) | {"".join(cells[c] for c in run) for _, run in grid.slots()})
    return words


LENGTHS = {"gridle-5x5": {5}, "gridle-7x7": {7}, "rows147": {7}, "rect5x7": {5, 7}, "wide9x7": {7, 9},
           "ring3x3": {3}}
# distinct words on 8 equal slots needs 2,152 networks (Bell(8) partitions, half by symmetry)
EXAMPLES = {"gridle-5x5": 12, "gridle-7x7": 4, "rows147": 10, "rect5x7": 8, "wide9x7": 6, "ring3x3": 15}


def _counts_agree(shape: str, lengths: set[int], examples: int, distinct: st.SearchStrategy[bool]) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(words=small_lists(lengths, shape=shape), distinct=distinct)
    def check(words: list[str], distinct: bool) -> None:
        problem = problem_of(shape, words, distinct)
        counted = count_grids(problem)
        assert (counted.raw, counted.modulo_symmetry) == brute_force(problem)
        assert counted.raw == counted.fixed_points["identity"]

    check()


#: Distinct words on the 7×7's eight slots of one length take the count 3 to 4 s a list (the
#: partitions' networks), whatever the list: drawn as one example in four, they made this test
#: take 4 s or 28 s by chance. One distinct list here, more in the sweep.
DISTINCT_7X7_EXAMPLES = 1


@pytest.mark.parametrize("name", list(LENGTHS))
def test_counts_equal_brute_force(shapes: dict[str, str], name: str) -> None:
    """Random lists, repeated words allowed or not (distinct lists on the 7×7: the tests below)."""
    _counts_agree(shapes[name], LENGTHS[name], EXAMPLES[name],
                  st.just(False) if name == "gridle-7x7" else st.booleans())


def test_distinct_counts_on_gridle_7x7_equal_brute_force(shapes: dict[str, str]) -> None:
    _counts_agree(shapes["gridle-7x7"], {7}, DISTINCT_7X7_EXAMPLES, st.just(True))


@pytest.mark.sweep
def test_distinct_counts_on_gridle_7x7_equal_brute_force_more_lists(shapes: dict[str, str]) -> None:
    _counts_agree(shapes["gridle-7x7"], {7}, 6, st.just(True))


# one list a shape in part 1, the second under `sweep`
@pytest.mark.parametrize(("name", "seed"), [(name, 1) for name in LENGTHS] + [
    pytest.param(name, 2, marks=pytest.mark.sweep) for name in LENGTHS if name != "gridle-7x7"])
def test_filled_shapes_equal_brute_force(shapes: dict[str, str], name: str, seed: int) -> None:
    """Lists holding two random fillings of the shape plus random words: grids always exist."""
    rng = random.Random(seed)
    grid = load_grid(shapes[name])
    alphabet = "abcd"[:3 + seed % 2]
    words = {"".join(rng.choice(alphabet) for _ in range(n)) for n in LENGTHS[name] for _ in range(12)}
    for _ in range(2):
        cells = {cell: rng.choice(alphabet) for cell in grid.open_cells()}
        words |= {"".join(cells[c] for c in run) for _, run in grid.slots()}
    for distinct in (False, True):
        problem = problem_of(shapes[name], sorted(words), distinct)
        counted = count_grids(problem)
        assert (counted.raw, counted.modulo_symmetry) == brute_force(problem)
        assert distinct or counted.raw > 0


def test_kernel_takes_the_4x4_grids(shapes: dict[str, str]) -> None:
    """The 7×7 Gridle and the 9×7 shape use the 2×2-block kernel; the transposable one halves its leaves."""
    words = ["abcabca", "bcabcab", "cabcabc", "aabbcca", "abababa", "bcbcbcb", "cacacac", "abcbaca"]
    problem = problem_of("gridle-7x7", words, False)
    network = build_network(problem, tuple((s,) for s in range(8)), None, word_arrays(problem))
    plan = NetworkPlan(network)
    assert plan.kind == "grid4x4" and plan.outer.symmetric
    assert count_grids(problem).raw == brute_force(problem)[0]


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(words=small_lists({7}, most=20, shape="gridle-7x7"), chunk=st.integers(1, 5))
def test_terms_shard_the_kernel(words: list[str], chunk: int) -> None:
    """count_terms + count_term on every chunk + combine_terms == count_grids (7×7 kernel chunks)."""
    problem = problem_of("gridle-7x7", words, False)
    terms = count_terms(problem, chunk_leaves=chunk)
    assert all(t.chunk is None or 0 <= t.chunk[0] < t.chunk[1] <= t.leaves for t in terms)
    values = [count_term(problem, t) for t in reversed(terms)][::-1]  # any order
    got, direct = combine_terms(problem, terms, values), count_grids(problem)
    assert (got.raw, got.modulo_symmetry, got.fixed_points) == (direct.raw, direct.modulo_symmetry,
                                                                 direct.fixed_points)


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(words=small_lists({5}, most=25, shape="gridle-5x5"), chunk=st.integers(1, 4))
def test_terms_shard_distinct_words(words: list[str], chunk: int) -> None:
    """Inclusion–exclusion and Burnside terms, chunked, recombine to the brute-force figures."""
    problem = problem_of("gridle-5x5", words, True)
    terms = count_terms(problem, chunk_leaves=chunk)
    got = combine_terms(problem, terms, [count_term(problem, t) for t in terms])
    assert (got.raw, got.modulo_symmetry) == brute_force(problem)


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(words=small_lists({5}, most=25))
def test_terms_shard_cut_plans(shapes: dict[str, str], words: list[str]) -> None:
    problem = problem_of(shapes["rect5x7"], words + ["abcdeab", "bbbbbbb", "aaaaaaa"], False)
    terms = count_terms(problem, chunk_leaves=2)
    got = combine_terms(problem, terms, [count_term(problem, t) for t in terms])
    assert (got.raw, got.modulo_symmetry) == brute_force(problem)


def test_python_integers_when_float64_could_round(shapes: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """With the float exactness limits lowered to 2 and 4, contractions fall back to Python ints."""
    cases = [("gridle-7x7", ["aabbaab", "ababbab", "bbaabab", "abababa", "bababab", "aaaabbb", "bbbaaaa", "abbaabb"]),
             ("rect5x7", ["aabab", "babab", "abbba", "aaaaa", "ababa", "bbbbb", "aabaaba", "babbaba", "abababa"]),
             ("gridle-5x5", ["aabab", "babab", "abbba", "aaaaa", "ababa", "bbbbb", "baaab"])]
    expected = {name: brute_force(problem_of(shapes[name], words, False)) for name, words in cases}
    monkeypatch.setattr(count_dense, "EXACT_LIMIT", 4.0)
    monkeypatch.setattr(count_dense, "FLOAT32_LIMIT", 2.0)
    monkeypatch.setattr(count_cut, "FLOAT32_LIMIT", 2.0)
    monkeypatch.setattr(count_k44, "EXACT_LIMIT", 4.0)
    monkeypatch.setattr(count_k44, "FLOAT32_EXACT", 2.0)
    for name, words in cases:
        counted = count_grids(problem_of(shapes[name], words, False))
        assert (counted.raw, counted.modulo_symmetry) == expected[name]


def test_budget_stops_the_count() -> None:
    class Tick:
        calls = 0

        def check(self) -> None:
            self.calls += 1
            if self.calls > 3:
                raise SearchTimeout("time_limit")

        def expired(self) -> bool:
            return self.calls > 3

    words = ["abcabca", "bcabcab", "cabcabc", "aabbcca", "abababa", "bcbcbcb", "cacacac", "abcbaca"]
    with pytest.raises(SearchTimeout):
        count_grids(problem_of("gridle-7x7", words, True), budget=Tick())


def test_stopped_count_keeps_a_lower_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without distinct words the leaves summed before a stop bound the raw count from below."""
    import cpwords.puzzles.word_grid.count as count_module

    monkeypatch.setattr(count_module, "RUN_CHUNK", 4)
    words = Path(shared_file("gridle-words-7.txt")).read_text().split()[::50]
    problem = problem_of("gridle-7x7", words, False)
    exact = count_grids(problem).raw

    class After:
        def __init__(self, n: int) -> None:
            self.calls, self.n = 0, n

        def check(self) -> None:
            self.calls += 1
            if self.calls > self.n:
                raise SearchTimeout("time_limit")

        def expired(self) -> bool:
            return self.calls > self.n

    total = After(10**9)
    count_grids(problem, budget=total)
    bounds = []
    for n in sorted({37, total.calls - 3, total.calls - 2, total.calls}):
        progress = CountProgress()
        try:
            counted = count_grids(problem, budget=After(n), progress=progress)
            assert counted.raw == exact == progress.raw_at_least
        except SearchTimeout:
            assert progress.raw_at_least is not None and 0 <= progress.raw_at_least <= exact
            assert progress.terms_done < progress.terms
        bounds.append(progress.raw_at_least)
    assert bounds == sorted(bounds) and bounds[-1] == exact
    assert any(0 < b < exact for b in bounds)


def test_agrees_with_einsum_counter_on_gridle_5x5() -> None:
    """The whole 2,315-word Gridle list: new counter == original einsum counter == known figures."""
    path = shared_file("gridle-words-5.txt")
    for distinct in (True, False):
        spec = WordGridSpec.model_validate({"kind": "word_grid", "shape": "gridle-5x5", "task": "count",
                                            "dictionary": {"path": str(path)}, "distinct_words": distinct})
        problem = prepare(spec)
        new, old = count_grids(problem), count_grids_einsum(problem)
        assert (new.raw, new.modulo_symmetry, new.fixed_points) == (old.raw, old.modulo_symmetry, old.fixed_points)
        if distinct:
            assert (new.modulo_symmetry, new.raw) == (168_239_310, 336_478_620)


# distinct words (no grid of this slice; seconds of inclusion-exclusion) under `sweep`: the filled
# 7×7 list above counts distinct words against the brute force in part 1
@pytest.mark.parametrize("distinct", [False, pytest.param(True, marks=pytest.mark.sweep)])
def test_gridle_7x7_sample_equals_enumeration(distinct: bool) -> None:
    """A slice of the game's 7-letter list (real letter statistics): counter == native enumeration."""
    from cpwords.puzzles.word_grid.native_tasks import enumerate_grids

    words = Path(shared_file("gridle-words-7.txt")).read_text().split()[::30]  # 383 words
    problem = problem_of("gridle-7x7", words, distinct)
    counted = count_grids(problem)
    _, count, raw, complete, _ = enumerate_grids(problem, None, keep=False)
    assert complete and (counted.raw, counted.modulo_symmetry) == (raw, count)
