"""``task: puzzle``: boards for players, each with a proven unique answer and a proven par.

For each puzzle: a random answer grid (the native backtracking search with a fresh random word
order, inside the spec's given letters if any), then scrambles of it until one passes, cheapest
test first:

1. :func:`~.board.scramble_with_cycles` moves ``par + k`` cells along ``k`` cycles (every moved
   cell gets another letter; the rest, and the shape's fixed cells, are green);
2. no trivial first move (:func:`~.board.has_trivial_first_move`);
3. the answer is unique: the spec's engine searches for a second grid with the board's letters
   and green cells (:mod:`.uniqueness`) and finds none. A second grid found is remembered: the
   next scrambles keep one of the cells where it differs green, so it is ruled out;
4. par: an exhaustive cycle packing of the letter moves filters, then the unscramble model (:func:`~.unscramble.fewest_swaps`, CP-SAT) proves the fewest swaps
   from the board to the answer is exactly ``par`` (repeated letters can allow fewer).

No processes are started here; puzzles are made one after the other.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found
from cpwords.puzzles.word_grid import board
from cpwords.puzzles.word_grid.native import GridSearch
from cpwords.puzzles.word_grid.problem import GridProblem, shuffled_order
from cpwords.puzzles.word_grid.solution import GridSolution
from cpwords.puzzles.word_grid.spec import default_par
from cpwords.puzzles.word_grid.uniqueness import second_grid, view_problem
from cpwords.puzzles.word_grid.unscramble import fewest_swaps
from cpwords.results import Status
from cpwords.wording import counted

#: Scrambles tried on one answer grid before another grid is drawn.
SCRAMBLES_PER_GRID = 40
#: Answer grids drawn per puzzle asked for before giving up.
GRIDS_PER_PUZZLE = 25


def puzzle_par(problem: GridProblem, spec: Any) -> int:
    """The spec's par, or the default of the shape's size."""
    return spec.par or default_par(problem.shape.height, problem.shape.width, len(board.movable_cells(problem)))


def puzzle(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """The ``puzzle`` task of engines ``cpsat`` and ``sat``: the spec's engine proves uniqueness."""
    return make_puzzles(problem, spec, budget, spec.engine)


def make_puzzles(problem: GridProblem, spec: Any, budget: Budget, engine: str) -> Found:
    """``spec.count`` puzzles whose answers ``engine`` (``cpsat`` or ``sat``) proves unique.

    Answers of the Found are dicts (see :func:`solution_of_puzzle`); ``stats`` say how many
    grids and scrambles were tried, why scrambles were turned down, and the proofs' engines and times.
    """
    rng = random.Random(spec.seed)
    par = puzzle_par(problem, spec)
    movable = board.movable_cells(problem)
    open_problem = replace(problem, given={}, candidates=[list(range(len(problem.words[len(s)])))
                                                          for s in problem.slots])
    stats: dict[str, Any] = {
        "par": par, "grids_tried": 0, "scrambles_tried": 0,
        "turned_down": {"no_scramble": 0, "trivial_first_move": 0, "second_grid": 0, "fewer_swaps": 0},
        "uniqueness": {"engine": engine, "proofs": 0, "seconds": 0.0},
        "par_proof": {"engine": "cpsat (unscramble model)", "proofs": 0, "seconds": 0.0},
        "puzzles": []}
    found = Found(stats=stats)
    if par + 1 > len(movable):
        found.message = (f"par {par} needs at least {par + 1} movable cells; the shape has {len(movable)} "
                         "(a k-cycle of cells takes k - 1 swaps)")
        return found
    made: set[tuple[int, ...]] = set()
    while len(found.answers) < spec.count and stats["grids_tried"] < GRIDS_PER_PUZZLE * spec.count:
        if budget.expired():
            return found.stop(budget.reason)
        stats["grids_tried"] += 1
        try:
            answer = _random_grid(problem, rng, budget)
        except SearchTimeout:
            return found.stop(budget.reason)
        if answer is None:  # the search was complete: no grid at all
            found.message = ("no grid of this shape can be filled with the dictionary's words"
                             + (" and the given letters" if problem.given else ""))
            return found
        try:
            made_one = _puzzle_of(answer, open_problem, problem, movable, par, engine, rng, budget, stats, made)
        except _OutOfTime:
            return found.stop(budget.reason)
        if made_one is not None:
            found.answers.append(made_one)
    if len(found.answers) < spec.count:
        found.stop("limit")  # random draws cannot prove that no (other) puzzle exists
        found.message = (f"{counted(stats['grids_tried'], 'answer grid')} tried; a larger dictionary, another par "
                         "or seed may help")
    return found


class _OutOfTime(Exception):
    """The budget ran out in a proof."""


def _random_grid(problem: GridProblem, rng: random.Random, budget: Budget) -> list[int] | None:
    orders = {n: shuffled_order(len(ws), rng) for n, ws in problem.words.items()}
    ids = next(GridSearch(problem, orders, budget).solutions(), None)
    return None if ids is None else problem.letters_of_words(ids)


def _puzzle_of(answer: list[int], open_problem: GridProblem, problem: GridProblem, movable: list[int], par: int,
               engine: str, rng: random.Random, budget: Budget, stats: dict[str, Any],
               made: set[tuple[int, ...]]) -> dict[str, Any] | None:
    """One puzzle of ``answer``, or None when no scramble passed."""
    differences: list[set[int]] = []  # per second grid found: the cells where it differs
    turned = stats["turned_down"]
    for _ in range(SCRAMBLES_PER_GRID):
        greens: set[int] = set()
        for cells in differences:
            if not greens & cells:
                greens.add(rng.choice(sorted(cells)))
        stats["scrambles_tried"] += 1
        scrambled = board.scramble_with_cycles(answer, [c for c in movable if c not in greens], par, rng)
        if scrambled is None or tuple(scrambled) in made:
            turned["no_scramble"] += 1
            if len(movable) - len(greens) <= par:
                return None  # the second grids ask for too many greens: another answer
            continue
        colours = board.colours(problem, answer, scrambled)
        places = board.yellow_places(problem, scrambled, colours)
        if board.has_trivial_first_move(places):
            turned["trivial_first_move"] += 1
            continue
        if board.fewest_swaps_by_cycles([(s, a) for s, a in zip(scrambled, answer, strict=True) if s != a]) != par:
            turned["fewer_swaps"] += 1  # repeated letters allow more cycles: the CP-SAT proof would say so
            continue
        view = view_problem(open_problem, answer, [c for c, colour in enumerate(colours) if colour == board.GREEN])
        assert view is not None, "the answer fits its own view"
        proof = second_grid(view, answer, engine, budget, seed=rng.randrange(2**31))
        stats["uniqueness"]["proofs"] += 1
        stats["uniqueness"]["seconds"] = round(stats["uniqueness"]["seconds"] + proof.seconds, 6)
        if proof.status is Status.UNKNOWN:
            raise _OutOfTime
        if proof.other is not None:
            turned["second_grid"] += 1
            differences.append({c for c, (a, b) in enumerate(zip(answer, proof.other, strict=True)) if a != b})
            continue
        swaps, par_s = _proven_swaps(view, answer, scrambled, budget, rng)
        stats["par_proof"]["proofs"] += 1
        stats["par_proof"]["seconds"] = round(stats["par_proof"]["seconds"] + par_s, 6)
        if len(swaps) != par:
            turned["fewer_swaps"] += 1
            continue
        made.add(tuple(scrambled))
        cycles = board.cycle_lengths(scrambled, answer, swaps, problem)
        stats["puzzles"].append({"uniqueness_s": proof.seconds, "par_s": par_s})
        return {"letters": answer, "scrambled": scrambled, "colours": colours, "swaps": swaps, "par": par,
                "difficulty": board.difficulty(problem, answer, scrambled, colours, places, cycles)}
    return None


def _proven_swaps(view: GridProblem, answer: list[int], scrambled: list[int], budget: Budget,
                  rng: random.Random) -> tuple[list[list[list[int]]], float]:
    """The fewest swaps from ``scrambled`` to ``answer`` (proven by the unscramble model on the
    answer's own grid, the only one of the view) and the seconds it took."""
    import time

    t0 = time.perf_counter()
    ids = [[view.words[len(slot)].index("".join(view.alphabet.letters[answer[c]] for c in slot))] for slot in view.slots]
    forced = replace(view, given=dict(enumerate(answer)), candidates=ids)
    found = fewest_swaps(forced, scrambled, budget, workers=1, seed=rng.randrange(2**31))
    if not found.complete or not found.answers:
        raise _OutOfTime
    return found.answers[0][1], round(time.perf_counter() - t0, 6)


def solution_of_puzzle(problem: GridProblem, answer: dict[str, Any], rareness: dict[int, dict[str, int]]) -> GridSolution:
    """The :class:`GridSolution` of one made puzzle."""
    words = problem.words_of(answer["letters"])
    return GridSolution(words=words, rows=problem.rows_of(answer["letters"]),
                        rareness=sum(rareness[len(w)][w] for w in words), swaps=answer["swaps"],
                        scrambled=problem.rows_of(answer["scrambled"]),
                        colors=board.colour_rows(problem, answer["colours"]), par=answer["par"],
                        difficulty=answer["difficulty"])
