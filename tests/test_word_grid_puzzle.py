"""Word-grid puzzles (``task: puzzle``): every board made is re-proven by code that shares nothing
with the generator: uniqueness by a brute-force enumeration of grids and by the other engine,
par by breadth-first search over swaps, colours by the checker, answers by ``cpwords.verify``."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pace import HANG_S

import cpwords
from cpwords import verify
from cpwords.cli import main
from cpwords.puzzles.word_grid import board
from cpwords.puzzles.word_grid.problem import prepare
from cpwords.puzzles.word_grid.spec import PUZZLE_DICTIONARY
from cpwords.puzzles.word_grid.spec import WordGridSpec as SPEC
from cpwords.puzzles.word_grid.uniqueness import second_grid, view_problem
from cpwords.results import Status

#: The words of four 5x5 grids (``cpwords grid --generate 4 --seed 11 --dict common-5k``) and a few more.
FIVE = ["arena", "aware", "bills", "bones", "eight", "event", "every", "goals", "great", "guess", "image", "legal",
        "lower", "newly", "seeds", "serve", "share", "solve", "split", "style", "title", "usage", "using",
        "tears", "rates", "stare", "aster", "earns", "snare", "lines", "gates", "stage", "years", "alert"]
THREE = ["cat", "car", "tar", "ate", "tea", "rat", "art", "ear", "era", "are", "act", "arc", "eat", "tee", "ore",
         "toe", "roe", "ace", "tic", "ice", "rot", "cot", "orc", "tor", "ire", "tie", "rec", "cor", "tot", "oat"]
GRIDLE = [".....", ".#.#.", ".....", ".#.#.", "....."]
GRIDLE_FIXED = {(1, 1), (1, 5), (3, 3), (5, 1), (5, 5)}
RING = ["...", ".#.", "..."]


# ---------------------------------------------------------------- independent re-proofs


def slots_of(rows: list[str]) -> list[list[tuple[int, int]]]:
    """Runs of two or more open cells, across then down (0-based cells)."""
    out = []
    for lines, cell in ((rows, lambda i, j: (i, j)), (["".join(c) for c in zip(*rows, strict=True)],
                                                     lambda i, j: (j, i))):
        for i, line in enumerate(lines):
            j = 0
            while j < len(line):
                k = j
                while k < len(line) and line[k] == ".":
                    k += 1
                if k - j >= 2:
                    out.append([cell(i, x) for x in range(j, k)])
                j = max(k, j + 1)
    return out


def crossing_order(slots: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    """The slots in an order where each one crosses as many of those before it as it can, so that a
    clash shows early (across then down would try every choice of a 5×5's three across words first)."""
    rest, order, covered = list(slots), [], set()
    while rest:
        nxt = max(rest, key=lambda s: sum(cell in covered for cell in s))
        rest.remove(nxt)
        order.append(nxt)
        covered |= set(nxt)
    return order


def all_grids(rows: list[str], words: list[str], distinct: bool = True) -> Iterator[dict[tuple[int, int], str]]:
    """Every filling of the shape's slots with ``words`` (plain backtracking, slot by slot)."""
    slots = crossing_order(slots_of(rows))

    def fill(k: int, grid: dict[tuple[int, int], str], used: list[str]) -> Iterator[dict[tuple[int, int], str]]:
        if k == len(slots):
            yield dict(grid)
            return
        for w in words:
            if len(w) != len(slots[k]) or (distinct and w in used):
                continue
            if all(grid.get(cell, ch) == ch for cell, ch in zip(slots[k], w, strict=True)):
                added = [cell for cell in slots[k] if cell not in grid]
                grid.update({cell: ch for cell, ch in zip(slots[k], w, strict=True)})
                yield from fill(k + 1, grid, [*used, w])
                for cell in added:
                    del grid[cell]

    yield from fill(0, {}, [])


def grid_of(rows: list[str]) -> dict[tuple[int, int], str]:
    return {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#"}


def brute_force_answers(shape: list[str], words: list[str], sol) -> list[dict[tuple[int, int], str]]:
    """Grids with the board's letters that keep its green cells (the fixed ones are green too)."""
    answer, scrambled = grid_of(sol.rows), grid_of(sol.scrambled)
    greens = {cell for cell in answer if sol.colors[cell[0]][cell[1]] == "g"}
    letters = Counter(scrambled.values())
    return [g for g in all_grids(shape, words) if Counter(g.values()) == letters
            and all(g[cell] == answer[cell] for cell in greens)]


def swap_distance(start: dict[tuple[int, int], str], goal: dict[tuple[int, int], str], movable: list[tuple[int, int]],
                  most: int) -> int | None:
    """Fewest swaps of two movable cells from ``start`` to ``goal`` (bidirectional breadth-first
    search over letter arrangements), None when more than ``most``."""
    def key(g: dict[tuple[int, int], str]) -> str:
        return "".join(g[c] for c in movable)

    pairs = [(i, j) for i in range(len(movable)) for j in range(i + 1, len(movable))]

    def step(layer: set[str]) -> set[str]:
        out = set()
        for s in layer:
            for i, j in pairs:
                if s[i] != s[j]:
                    t = list(s)
                    t[i], t[j] = t[j], t[i]
                    out.add("".join(t))
        return out

    a, b = key(start), key(goal)
    if a == b:
        return 0
    seen_a, seen_b, front_a, front_b = {a}, {b}, {a}, {b}
    for d in range(1, most + 1):
        if len(front_a) <= len(front_b):
            front_a = step(front_a) - seen_a
            seen_a |= front_a
            if front_a & seen_b:
                return d
        else:
            front_b = step(front_b) - seen_b
            seen_b |= front_b
            if front_b & seen_a:
                return d
    return None


def recheck(spec, result, shape: list[str], fixed: set[tuple[int, int]], words: list[str], bfs: bool = True) -> None:
    """Every puzzle of ``result``: verify, unique by brute force and by the other engine, par by BFS."""
    assert verify.check(spec, result) == [], verify.check(spec, result)
    problem = prepare(spec)
    other = "sat" if spec.engine == "cpsat" else "cpsat"
    for sol in result.solutions:
        alternatives = brute_force_answers(shape, words, sol)
        assert alternatives == [grid_of(sol.rows)], alternatives
        answer = [ord(sol.rows[r][c]) - 97 for r, c in problem.cells]
        greens = [i for i, (r, c) in enumerate(problem.cells) if sol.colors[r][c] == "g"]
        view = view_problem(problem, answer, greens)
        assert view is not None and second_grid(view, answer, other, cpwords.engines.budget.Budget()).unique
        movable = [cell for cell in grid_of(sol.rows) if (cell[0] + 1, cell[1] + 1) not in fixed]
        if bfs:
            assert swap_distance(grid_of(sol.scrambled), grid_of(sol.rows), movable, sol.par) == sol.par
        scrambled = [ord(sol.scrambled[r][c]) - 97 for r, c in problem.cells]
        colours = [sol.colors[r][c] for r, c in problem.cells]
        places = board.yellow_places(problem, scrambled, colours)
        assert not board.has_trivial_first_move(places)
        for y, options in places.items():  # the letter's true places are never ruled out
            truly = {c for s in problem.slots if y in s for c in s if colours[c] != "g" and answer[c] == scrambled[y]}
            assert truly and truly <= set(options), (y, truly, options)


# ---------------------------------------------------------------- tests


@pytest.mark.parametrize("engine", ["cpsat", "sat"])
def test_small_5x5_puzzles_are_unique_and_at_par(engine: str) -> None:
    spec = SPEC.model_validate({"kind": "word_grid", "task": "puzzle", "count": 2, "par": 4, "seed": 3,
                                "engine": engine, "dictionary": {"words": FIVE}})
    result = cpwords.solve(spec)
    assert result.status is Status.OPTIMAL and len(result.solutions) == 2
    assert result.stats["uniqueness"]["engine"] == engine and result.stats["uniqueness"]["proofs"] >= 2
    recheck(spec, result, GRIDLE, GRIDLE_FIXED, FIVE)
    for sol in result.solutions:
        assert sol.par == 4 and len(sol.swaps) == 4 and sol.difficulty is not None
        assert sol.difficulty.figures["movable"] == 16


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.sampled_from(THREE), min_size=6, max_size=22, unique=True), par=st.integers(2, 4),
       engine=st.sampled_from(["cpsat", "sat"]), seed=st.integers(0, 1000))
def test_random_small_lists(words: list[str], par: int, engine: str, seed: int) -> None:
    spec = SPEC.model_validate({"kind": "word_grid", "task": "puzzle", "shape": "ring-3x3", "par": par, "seed": seed,
                                "engine": engine, "dictionary": {"words": words}})
    result = cpwords.solve(spec)
    assert result.status in (Status.OPTIMAL, Status.INFEASIBLE, Status.FEASIBLE, Status.UNKNOWN)
    recheck(spec, result, RING, set(), words)


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_engines_agree_on_uniqueness(data: st.DataObject) -> None:
    """The CP-SAT and SAT searches for a second grid agree with a brute-force enumeration on random views."""
    words = data.draw(st.lists(st.sampled_from(THREE), min_size=8, max_size=24, unique=True))
    grids = list(all_grids(RING, words))
    if not grids:
        return
    spec = SPEC.model_validate({"kind": "word_grid", "task": "puzzle", "shape": "ring-3x3",
                                "dictionary": {"words": words}})
    problem = prepare(spec)
    chosen = data.draw(st.sampled_from(grids))
    answer = [ord(chosen[cell]) - 97 for cell in problem.cells]
    known = data.draw(st.sets(st.sampled_from(range(len(problem.cells)))))
    view = view_problem(problem, answer, sorted(known))
    brute = [g for g in grids if Counter(g.values()) == Counter(chosen.values())
             and all(g[problem.cells[c]] == chosen[problem.cells[c]] for c in known)]
    budget = cpwords.engines.budget.Budget
    assert view is not None
    verdicts = {engine: second_grid(view, answer, engine, budget()) for engine in ("cpsat", "sat")}
    for proof in verdicts.values():
        assert proof.unique == (len(brute) == 1)
        if proof.other is not None:
            other = {cell: chr(97 + ch) for cell, ch in zip(problem.cells, proof.other, strict=True)}
            assert other in brute and other != chosen


def test_colours_follow_the_rule() -> None:
    spec = SPEC.model_validate({"kind": "word_grid", "task": "puzzle", "shape": "ring-3x3",
                                "dictionary": {"words": THREE}})
    problem = prepare(spec)
    answer_rows = ["cat", "o#e", "tea"]

    def colours_of(board_rows: list[str]) -> list[str]:
        letters = [[ord(rows[r][c]) - 97 for r, c in problem.cells] for rows in (answer_rows, board_rows)]
        return board.colour_rows(problem, board.colours(problem, *letters))

    assert colours_of(["cta", "o#e", "tea"]) == ["gyy", "g#g", "ggg"]  # swapped inside the top word
    assert colours_of(["cet", "o#e", "taa"]) == ["g-g", "g#g", "g-g"]  # swapped between two words


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_colours_equal_the_checkers(data: st.DataObject) -> None:
    """The generator's colours and the checker's own implementation of the rule agree on random boards."""
    from cpwords.geometry import load_grid
    from cpwords.puzzles.word_grid.check import puzzle_colours

    spec = SPEC.model_validate({"kind": "word_grid", "task": "puzzle", "dictionary": {"words": FIVE}})
    problem = prepare(spec)
    answer = data.draw(st.lists(st.integers(0, 4), min_size=21, max_size=21))
    scrambled = data.draw(st.permutations(answer))
    rows = [problem.rows_of(v) for v in (answer, scrambled)]
    slots = [(d, list(run)) for d, run in load_grid("gridle-5x5").slots()]
    assert board.colour_rows(problem, board.colours(problem, answer, list(scrambled))) == puzzle_colours(slots, *rows)


def test_default_dictionary_and_par() -> None:
    spec = SPEC.model_validate({"kind": "word_grid", "task": "puzzle"})
    assert spec.dictionary.label() == PUZZLE_DICTIONARY and spec.engine == "cpsat"
    mine = SPEC.model_validate({"kind": "word_grid", "task": "puzzle", "dictionary": "common-5k"})
    assert mine.dictionary.label() == "common-5k"
    from cpwords.puzzles.word_grid.puzzle import puzzle_par

    assert puzzle_par(prepare(spec.model_copy(update={"dictionary": mine.dictionary})), spec) == 10


def test_given_full_grid_makes_its_puzzle() -> None:
    rows = ["seeds", "t#v#h", "every", "l#n#e", "event"]  # not all words: the spec fails cleanly
    bad = cpwords.solve(SPEC.model_validate({"kind": "word_grid", "task": "puzzle", "given": rows, "par": 4,
                                             "dictionary": {"words": FIVE}}))
    assert bad.status is Status.INFEASIBLE and not bad.solutions and "given letters" in bad.message
    grid = next(all_grids(GRIDLE, FIVE))
    rows = ["".join(grid.get((r, c), "#") for c in range(5)) for r in range(5)]
    spec = SPEC.model_validate({"kind": "word_grid", "task": "puzzle", "given": rows, "par": 3, "seed": 1,
                                "dictionary": {"words": FIVE}})
    result = cpwords.solve(spec)
    if result.solutions:  # this grid may have no unique-answer board at par 3: then it says so
        assert result.solutions[0].rows == rows
        recheck(spec, result, GRIDLE, GRIDLE_FIXED, FIVE)
    else:
        assert result.message


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cpwords", *args], capture_output=True, text=True, timeout=HANG_S)


def test_cli_puzzle(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    run = cli("grid", "--puzzle", "1", "--seed", "4", "--json")  # as a user runs it
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    sol = out["solutions"][0]
    assert out["status"] == "optimal" and sol["par"] == 10 and len(sol["swaps"]) == 10
    assert len(sol["colors"]) == 5 and sol["colors"][1][1] == "#" and sol["difficulty"]["level"]
    assert out["stats"]["uniqueness"]["engine"] == "cpsat"
    # a generating task: stats.dictionary also says how many offensive words were left out
    assert out["stats"]["dictionary"].startswith(f"{PUZZLE_DICTIONARY}, ") and "offensive words left out" in \
        out["stats"]["dictionary"]
    # the pictures are the same code in this process
    svg = tmp_path / "board.svg"
    assert main(["grid", "--puzzle", "1", "--seed", "4", "--svg", str(svg), "--blank"]) == 0, capsys.readouterr().err
    picture = svg.read_text()
    assert "par 10" in picture and "swaps:" not in picture and "solved" not in picture
    assert picture.count("<text") == 21 + 1  # the 21 letters of the board and the caption
    answer_svg = tmp_path / "answer.svg"
    assert main(["grid", "--puzzle", "1", "--seed", "4", "--svg", str(answer_svg)]) == 0
    assert "10 swaps:" in answer_svg.read_text()


def test_cli_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grid", "--generate", "1", "--par", "3"]) == 2
    err = capsys.readouterr().err
    assert "--par" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert main(["grid", "--puzzle", "1", "--par", "40"]) == 1
    assert "movable cells" in capsys.readouterr().out
    assert main(["grid", "--puzzle", "1", "--par", "0"]) == 2
    err = capsys.readouterr().err
    assert "par" in err and "Traceback" not in err


@pytest.mark.parametrize("shape", ["gridle-5x5", "gridle-7x7"])
def test_full_size_puzzles_other_engine_agrees(shape: str) -> None:
    """Daily-size puzzles (par 10 on 5x5, 20 on 7x7, common-10k): SAT re-proves what CP-SAT proved, and
    every answer passes verify (par itself is re-proven by BFS on the small instances above)."""
    spec = SPEC.model_validate({"kind": "word_grid", "task": "puzzle", "shape": shape, "seed": 8, "count": 2})
    result = cpwords.solve(spec)
    assert result.status is Status.OPTIMAL and verify.check(spec, result) == []
    problem = prepare(spec)
    for sol in result.solutions:
        assert sol.par == (10 if shape == "gridle-5x5" else 20) == len(sol.swaps)
        answer = [ord(sol.rows[r][c]) - 97 for r, c in problem.cells]
        greens = [i for i, (r, c) in enumerate(problem.cells) if sol.colors[r][c] == "g"]
        view = view_problem(problem, answer, greens)
        assert view is not None and second_grid(view, answer, "sat", cpwords.engines.budget.Budget()).unique
