"""``unscramble``: the Gridle game itself, as a CP-SAT model.

The scrambled grid holds every letter of the answer; the shape's fixed cells already hold
theirs. We choose a valid grid made of exactly those letters *and* the permutation σ that
carries them there (target cell j takes the letter of scrambled cell σ(j)), minimising swaps.
Turning a permutation into the identity takes n − (number of cycles of σ) swaps of two cells,
so we maximise the cycles. Cycles are counted with a label per cell: labels are equal along
σ (label[j] = label[σ(j)]) and label[j] ≤ j, so a cycle can set its label to its smallest cell
only, and it counts when label[j] = j. Repeated letters make σ a choice: the solver picks the
best one together with the grid.
"""

from __future__ import annotations

from typing import Any

from cpwords.engines import cpsat
from cpwords.engines.budget import Budget
from cpwords.engines.cpsat import BuildTimeout
from cpwords.engines.found import Found
from cpwords.errors import InputError
from cpwords.puzzles.word_grid.cpsat import build_model
from cpwords.puzzles.word_grid.problem import GridProblem, grid_shape, parse_rows, prepare


def swaps_of(sources: list[int]) -> list[tuple[int, int]]:
    """Swaps (pairs of positions) that move item ``sources[j]`` to position j, n − cycles of them.

    >>> swaps_of([1, 2, 0])  # position 0 takes item 1, 1 takes 2, 2 takes 0
    [(0, 1), (1, 2)]
    """
    seen = [False] * len(sources)
    swaps: list[tuple[int, int]] = []
    for start in range(len(sources)):
        if seen[start]:
            continue
        cycle = []
        j = start
        while not seen[j]:
            seen[j] = True
            cycle.append(j)
            j = sources[j]
        swaps.extend((cycle[i], cycle[i + 1]) for i in range(len(cycle) - 1))
    return swaps


def _scrambled_letters(spec: Any) -> dict[tuple[int, int], str]:
    shape = grid_shape(spec)
    letters = parse_rows(spec.scrambled, shape, field_name="scrambled", alphabet=spec.alphabet())
    missing = [c for c in shape.open_cells() if c not in letters]
    if missing:
        r, c = missing[0]
        raise InputError(f"open cell [{r + 1}, {c + 1}] has no letter", field="scrambled")
    return letters


def unscramble_problem(spec: Any) -> GridProblem:
    """The grid problem of the game: the shape's fixed cells given (their scrambled letters stay),
    every other open cell free, no symmetry (the scrambled grid has an orientation).

    Raises
    ------
    InputError
        Scrambled rows that do not fit the shape, or an open cell without a letter.
    """
    shape = grid_shape(spec)
    letters = _scrambled_letters(spec)
    fixed_rows = ["".join(letters[(r, c)] if (r + 1, c + 1) in shape.fixed else ("?" if shape.is_open(r, c) else "#")
                          for c in range(shape.width)) for r in range(shape.height)]
    problem = prepare(spec, given_rows=fixed_rows)
    problem.group = [g for g in problem.group if g.is_identity]
    return problem


def unscramble(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """The grid of the scrambled letters that needs the fewest swaps, and the swaps.

    Returns a Found whose answer is ``(letters, swaps)``: one letter index per cell and the swaps
    as pairs of 1-based [row, col] cells; the objective is the number of swaps.
    """
    letters = _scrambled_letters(spec)
    scrambled = [problem.alphabet.index[letters[cell]] for cell in problem.cells]
    found = fewest_swaps(problem, scrambled, budget, workers=spec.threads, seed=spec.seed)
    if found.answers and found.stopped is not None:
        cause = {"time_limit": "the time limit was reached", "interrupted": "the search was interrupted"}.get(
            found.stopped, "CP-SAT ended its run before the time limit")
        found.message = f"{cause}: the swaps shown are the fewest found, not proved fewest"
    return found


def fewest_swaps(problem: GridProblem, scrambled: list[int], budget: Budget, *, workers: int | None = None,
                 seed: int | None = None) -> Found:
    """The model of the game: a valid grid of ``problem`` made of the letters of ``scrambled`` (one
    letter index per cell; the problem's given cells must hold theirs) and the fewest swaps of
    movable cells (not the shape's fixed cells) that reach it.

    ``task: puzzle`` proves its par with it on a problem whose only grid is the answer. ``workers``:
    CP-SAT's threads (None: its default), not the spec's worker processes.

    Returns a Found whose answer is ``(letters, swaps)`` (swaps as pairs of 1-based [row, col]
    cells), objective the number of swaps, complete when that number is proved fewest; none,
    stopped, when the budget ends before CP-SAT has its model.
    """
    shape = problem.shape
    try:
        gm = build_model(problem, symmetry=False, budget=budget)
    except BuildTimeout as exc:
        return exc.found()
    model = gm.model
    movable = [i for i, (r, c) in enumerate(problem.cells) if (r + 1, c + 1) not in shape.fixed]
    n = len(movable)
    source_letters = [scrambled[i] for i in movable]
    sources = [model.new_int_var(0, n - 1, f"source_{k}") for k in range(n)]
    model.add_all_different(sources)
    labels = [model.new_int_var(0, k, f"cycle_label_{k}") for k in range(n)]
    counted = []
    for k, cell in enumerate(movable):
        model.add_element(sources[k], source_letters, gm.cells[cell])
        model.add_element(sources[k], labels, labels[k])
        is_min = model.new_bool_var(f"cycle_min_{k}")
        model.add(labels[k] == k).only_enforce_if(is_min)
        model.add(labels[k] != k).only_enforce_if(is_min.Not())
        counted.append(is_min)
    model.maximize(sum(counted))
    outcome = cpsat.solve(model, budget, workers=workers, seed=seed)  # CP-SAT threads (default: its own)
    found = Found(stats={**outcome.stats, "movable_cells": n})
    if not outcome.status.solved and outcome.message is not None:
        found.message = outcome.message
        found.stats["stopped"] = outcome.stopped
    if not outcome.status.solved:
        return found if outcome.stopped is None else found.stop(outcome.stopped)
    grid = [outcome.value(v) for v in gm.cells]
    src = [outcome.value(v) for v in sources]
    swaps = [[[problem.cells[movable[a]][0] + 1, problem.cells[movable[a]][1] + 1],
              [problem.cells[movable[b]][0] + 1, problem.cells[movable[b]][1] + 1]] for a, b in swaps_of(src)]
    found.answers = [(grid, swaps)]
    found.objective = len(swaps)
    if outcome.stopped is not None:
        found.stop(outcome.stopped)
    return found
