"""Counting word grids over alphabets beyond a-z (Spanish ñ: 27 letters, German ä ö ü: 29).

The counts of every engine (native sum-product, SAT, CP-SAT) are compared with a brute force written
here: it tries every word in every slot of a small shape, keeps the fillings whose crossings agree,
and takes a filling and its transpose as one grid when the shape is its own transpose. Random lists
over the extra letters (hypothesis) exercise every plan of the sum-product: dense, cut and the
2×2-block kernel of the 7×7 shape.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pace import HANG_S

from cpwords import api, verify
from cpwords.geometry import load_grid
from cpwords.puzzles.loading import parse_spec
from cpwords.puzzles.word_grid import count_engine
from cpwords.puzzles.word_grid.count import count_grids, count_grids_einsum
from cpwords.puzzles.word_grid.count_engine import NetworkPlan, TooLargeToContract
from cpwords.puzzles.word_grid.count_network import build_network, word_arrays
from cpwords.puzzles.word_grid.problem import GridProblem, prepare
from cpwords.puzzles.word_grid.spec import WordGridSpec

RING = ["...", ".#.", "..."]  # two across and two down 3-letter words
SQUARE = ["...", "...", "..."]  # three across and three down 3-letter words
RECT = ["....", ".#.#", "...."]  # two across 4-letter words, two down 3-letter words (no transpose)

SPANISH_WORDS = ["año", "ñoa", "oña", "ñaa", "nao", "ano", "ona", "aña", "oño", "ñañ", "ola", "ala", "ñol", "lña",
                 "ñaño", "aoña", "caña", "baño", "niño"]
# German writes ß as ss: "süß" is the 4-letter word "süss"
GERMAN_WORDS = ["süß", "üba", "bäs", "sub", "aüs", "bös", "öbs", "äbü", "sös", "bus", "üüs", "äsa", "säs", "büs",
                "bösa", "süsä", "über", "büse"]


def shape_file(folder: Path, rows: list[str]) -> str:
    path = folder / ("shape-" + "-".join(r.replace(".", "o").replace("#", "x") for r in rows) + ".yaml")
    path.write_text("rows:\n" + "".join(f"  - '{r}'\n" for r in rows))
    return str(path)


def slots_of(rows: list[str]) -> list[list[tuple[int, int]]]:
    """The runs of two or more open cells, across then down, each as its cells in reading order."""
    height, width = len(rows), len(rows[0])
    runs = []
    for lines in ([[(r, c) for c in range(width)] for r in range(height)],
                  [[(r, c) for r in range(height)] for c in range(width)]):
        for line in lines:
            for open_, run in itertools.groupby(line, key=lambda rc: rows[rc[0]][rc[1]] == "."):
                cells = list(run)
                if open_ and len(cells) >= 2:
                    runs.append(cells)
    return runs


def brute_force(rows: list[str], words: list[str], distinct: bool) -> tuple[int, int]:
    """(every grid, grids modulo the transpose when the shape is its own transpose) by trying every
    word in every slot, slot after slot, dropping a partial filling as soon as two letters clash."""
    slots = slots_of(rows)
    grids = set()

    def fill(k: int, letters: dict[tuple[int, int], str], used: tuple[str, ...]) -> None:
        if k == len(slots):
            grids.add(tuple(sorted(letters.items())))
            return
        for w in words:
            if len(w) != len(slots[k]) or (distinct and w in used):
                continue
            if all(letters.get(cell, ch) == ch for cell, ch in zip(slots[k], w, strict=True)):
                fill(k + 1, {**letters, **dict(zip(slots[k], w, strict=True))}, (*used, w))

    fill(0, {}, ())
    rows = list(rows)
    square = rows == ["".join(col) for col in zip(*rows, strict=True)]
    if not square:
        return len(grids), len(grids)
    orbits = {min(g, tuple(sorted(((c, r), ch) for (r, c), ch in g))) for g in grids}
    return len(grids), len(orbits)


def brute_force_raw(rows: list[str], words: list[str]) -> int:
    """Every grid (repeats allowed) by trying every word in every across slot: across slots never
    cross each other, nor do down slots, so once the across words are placed each down slot takes,
    on its own, any word that agrees with them at its crossings (the grids are the product)."""
    slots = slots_of(rows)
    across = [s for s in slots if len({r for r, _ in s}) == 1]
    down = [s for s in slots if s not in across]
    where = {cell: (a, i) for a, s in enumerate(across) for i, cell in enumerate(s)}
    crossings = []  # per down slot: (across slot, letter of its word) at each crossing, in order
    matching = []  # per down slot: how many of its words show each sequence of letters there
    for s in down:
        crossings.append([where[cell] for cell in s if cell in where])
        at = [i for i, cell in enumerate(s) if cell in where]
        matching.append(Counter(tuple(w[i] for i in at) for w in words if len(w) == len(s)))
    total = 0
    for chosen in itertools.product(*([w for w in words if len(w) == len(s)] for s in across)):
        grids = 1
        for crossing, counts in zip(crossings, matching, strict=True):
            grids *= counts[tuple(chosen[a][i] for a, i in crossing)]
        total += grids
    return total


def count_spec(shape: str, words: list[str], language: str, distinct: bool, engine: str) -> dict:
    return {"kind": "word_grid", "shape": shape, "task": "count", "engine": engine, "distinct_words": distinct,
            "dictionary": {"words": words, "language": language}}


@pytest.mark.parametrize("engine", ["native", "sat", "cpsat"])
@pytest.mark.parametrize(("language", "words"), [("spanish", SPANISH_WORDS), ("german", GERMAN_WORDS)])
@pytest.mark.parametrize("distinct", [False, True])
def test_counts_with_extra_letters_equal_brute_force(tmp_path: Path, engine: str, language: str, words: list[str],
                                                     distinct: bool) -> None:
    folded = sorted({w.replace("ß", "ss") for w in words})  # German writes ß as ss
    for rows in (RING, RECT):
        spec = parse_spec(count_spec(shape_file(tmp_path, rows), words, language, distinct, engine))
        result = api.solve(spec)
        verify.verify(spec, result)
        raw, modulo = brute_force(rows, folded, distinct)
        assert raw > 0 and (result.count, result.stats["raw_count"]) == (modulo, raw)


def test_the_extra_letters_are_counted_as_letters(tmp_path: Path) -> None:
    """ñ is not n: a list whose only grids need ñ ≠ n at a crossing counts exactly those."""
    words = ["año", "ano", "ñoa", "noa", "oña", "ona"]
    shape = shape_file(tmp_path, RING)
    counted = api.solve(parse_spec(count_spec(shape, words, "spanish", False, "native")))
    assert (counted.count, counted.stats["raw_count"]) == brute_force(RING, words, False)[::-1]
    # the same list read as Italian folds ñ to n: fewer words, other grids
    italian = api.solve(parse_spec(count_spec(shape, words, "italian", False, "native")))
    assert italian.stats["raw_count"] == brute_force(RING, sorted({w.replace("ñ", "n") for w in words}), False)[0]


# ---------------------------------------------------------------- engines on random lists (hypothesis)

EXTRA = {"spanish": "ñ", "german": "äöü"}


@st.composite
def extra_letter_lists(draw: st.DrawFn, language: str, lengths: set[int], shape_rows: list[str] | None = None,
                       most: int = 12) -> list[str]:
    """Random words over a few letters, at least one of them beyond z; with ``shape_rows``, sometimes
    also the words of one random filling of the shape (so that a grid exists)."""
    pool = draw(st.lists(st.sampled_from("abz" + EXTRA[language]), min_size=2, max_size=4, unique=True))
    pool = [*pool, draw(st.sampled_from(EXTRA[language]))]
    words: set[str] = set()
    for n in sorted(lengths):
        words |= set(draw(st.lists(st.text(pool, min_size=n, max_size=n), min_size=2, max_size=most)))
    if shape_rows is not None and draw(st.booleans()):
        cells = {cell: draw(st.sampled_from(pool)) for s in slots_of(shape_rows) for cell in s}
        words |= {"".join(cells[c] for c in s) for s in slots_of(shape_rows)}
    return sorted(words)


def problem_for(shape: str, words: list[str], language: str, distinct: bool) -> GridProblem:
    return prepare(WordGridSpec.model_validate(count_spec(shape, words, language, distinct, "native")))


# ñ in part 1 (German's cut plans, block kernel and engines follow), German under `sweep`. The 3×3
# square's einsum reference takes about a second an example: 4 examples with ñ, 12 with German.
@pytest.mark.parametrize("language", ["spanish", pytest.param("german", marks=pytest.mark.sweep)])
@pytest.mark.parametrize("rows", [RING, SQUARE, RECT])
def test_sum_product_and_einsum_equal_brute_force_on_random_lists(tmp_path: Path, language: str,
                                                                   rows: list[str]) -> None:
    shape = shape_file(tmp_path, rows)
    examples = 4 if rows == SQUARE and language == "spanish" else 12

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(words=extra_letter_lists(language, {len(s) for s in slots_of(rows)}, rows), distinct=st.booleans())
    def check(words: list[str], distinct: bool) -> None:
        problem = problem_for(shape, words, language, distinct)
        counted, einsum = count_grids(problem), count_grids_einsum(problem)
        expected = brute_force(rows, words, distinct)
        assert (counted.raw, counted.modulo_symmetry) == expected
        assert (einsum.raw, einsum.modulo_symmetry) == expected

    check()


@pytest.mark.parametrize("language", [pytest.param("spanish", marks=pytest.mark.sweep), "german"])
def test_cut_plans_with_extra_letters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """With the dense plan refused, every network is summed by a cut plan (leaves of cut letters)."""

    def refuse(*_args: object) -> None:
        raise TooLargeToContract

    monkeypatch.setattr(count_engine.DensePlan, "__init__", refuse)
    shape = shape_file(tmp_path, SQUARE)

    @settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
    @given(words=extra_letter_lists(language, {3}, SQUARE), distinct=st.booleans())
    def check(words: list[str], distinct: bool) -> None:
        problem = problem_for(shape, words, language, distinct)
        plan = NetworkPlan(build_network(problem, tuple((s,) for s in range(len(problem.slots))), None,
                                         word_arrays(problem)))
        assert plan.kind in ("cut", "zero")
        counted = count_grids(problem)
        assert (counted.raw, counted.modulo_symmetry) == brute_force(SQUARE, words, distinct)

    check()


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(words=extra_letter_lists("german", {7}, list(load_grid("gridle-7x7").rows), most=8))
def test_the_7x7_block_kernel_with_german_letters(words: list[str]) -> None:
    """The 7×7 Gridle shape runs the 2×2-block kernel (letters renumbered from the used ones)."""
    problem = problem_for("gridle-7x7", words, "german", False)
    network = build_network(problem, tuple((s,) for s in range(len(problem.slots))), None, word_arrays(problem))
    plan = NetworkPlan(network)
    assert plan.kind in ("grid4x4", "zero")
    assert count_grids(problem).raw == brute_force_raw(list(load_grid("gridle-7x7").rows), words)


def test_sat_and_cpsat_agree_with_native_on_random_german_lists(tmp_path: Path) -> None:
    shape = shape_file(tmp_path, SQUARE)

    @settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
    @given(words=extra_letter_lists("german", {3}, SQUARE, most=8), distinct=st.booleans())
    def check(words: list[str], distinct: bool) -> None:
        got = {engine: api.solve(parse_spec(count_spec(shape, words, "german", distinct, engine)))
               for engine in ("native", "sat", "cpsat")}
        assert len({(r.count, r.stats["raw_count"]) for r in got.values()}) == 1, \
            {e: (r.count, r.stats["raw_count"]) for e, r in got.items()}

    check()


# ---------------------------------------------------------------- as a user runs it


def test_cli_counts_a_spanish_grid(tmp_path: Path) -> None:
    shape = shape_file(tmp_path, RING)
    (tmp_path / "words.txt").write_text("\n".join(SPANISH_WORDS) + "\n", encoding="utf-8")
    (tmp_path / "count.yaml").write_text(
        f"kind: word_grid\nshape: {shape}\ntask: count\ndictionary: {{path: words.txt, language: es}}\n",
        encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, "-m", "cpwords", "solve", "count.yaml", "--json"], capture_output=True,
                          text=True, encoding="utf-8", cwd=tmp_path, env=env, timeout=HANG_S)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (out["count"], out["stats"]["raw_count"]) == brute_force(RING, SPANISH_WORDS, True)[::-1]
