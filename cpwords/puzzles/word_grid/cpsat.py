"""The CP-SAT model of a word grid.

One letter variable per open cell (crossing slots share it), one word variable per slot tied
to its letters by an ``add_allowed_assignments`` table, ``AddAllDifferent`` over the word
variables of equal-length slots when words must differ, lex-leader constraints X ≤lex g·X over
the cell letters for every symmetry g (:func:`cpwords.engines.cpsat.lex_leader_constraints`), and
the total rareness as objective for ``common``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from cpwords.engines import cpsat
from cpwords.engines.budget import Budget
from cpwords.engines.cpsat import BuildTimeout, check_building, lex_leader_constraints
from cpwords.engines.found import Found
from cpwords.engines.outcome import Outcome
from cpwords.geometry import canonical_form, orbit_size
from cpwords.puzzles.word_grid.problem import GridProblem, arc_consistent, shuffled_order
from cpwords.results import Status


@dataclass
class GridModel:
    """A built model and the variables to read an answer from."""

    model: cp_model.CpModel
    cells: list[cp_model.IntVar]
    costs: list[cp_model.IntVar]
    alphabet: list[int]

    def letters(self, outcome: Outcome) -> list[int]:
        """The answer's letter indices, one per cell."""
        return [self.alphabet[outcome.value(v)] for v in self.cells]


def build_model(problem: GridProblem, alphabet: list[int] | None = None, *, symmetry: bool = True,
                with_costs: bool = False, budget: Budget | None = None) -> GridModel:
    """The CP-SAT model. A cell variable's value v stands for letter ``alphabet[v]`` (default: the
    dictionary's letters in order, a-z in English); ``generate`` passes a random order so that the
    search's "smallest value first" is random.

    Raises
    ------
    BuildTimeout
        When ``budget`` is spent while the model is built (a 7x7 grid's tables take a fraction
        of a second to build, and seconds on a loaded machine).
    """
    budget = budget or Budget()
    size = problem.alphabet.size
    alphabet = alphabet or list(range(size))
    code = [0] * size
    for v, letter in enumerate(alphabet):
        code[letter] = v
    model = cp_model.CpModel()
    cells = []
    for i, (r, c) in enumerate(problem.cells):
        if i in problem.given:
            cells.append(model.new_constant(code[problem.given[i]]))
        else:
            cells.append(model.new_int_var(0, size - 1, f"letter_r{r + 1}c{c + 1}"))
    costs = _word_tables(model, problem, cells, np.asarray(code, dtype=np.int64), with_costs, budget)
    if problem.distinct:
        _different_words(model, problem, cells, budget)
    if symmetry:
        check_building(budget)
        lex_leader_constraints(model, cells, problem.group, "lex")
    return GridModel(model, cells, costs, alphabet)


def _word_tables(model: cp_model.CpModel, problem: GridProblem, cells: list[cp_model.IntVar], recode: np.ndarray,
                 with_costs: bool, budget: Budget) -> list[cp_model.IntVar]:
    """One ``add_allowed_assignments`` table per slot over its cells' letters (value codes
    ``recode[letter]``), with a rareness column when ``with_costs``; returns the rareness variables."""
    costs = []
    for s, slot in enumerate(problem.slots):
        check_building(budget)
        n = len(slot)
        rare = problem.objective_costs()[n]
        name = problem.slot_names[s].replace(" ", "_").replace(",", "_")
        letters = [cells[c] for c in slot]
        # Letters-only tables keep CP-SAT's table expansion small; the rareness column is
        # added only when the objective needs it.
        ids = np.asarray(problem.candidates[s], dtype=np.int64)
        coded = recode[_letter_array(problem, n)[ids]] if len(ids) else np.zeros((0, n), dtype=np.int64)
        if with_costs:
            cost = model.new_int_var(0, max(rare, default=0), f"rareness_{name}")
            rows = np.column_stack([np.asarray(rare, dtype=np.int64)[ids], coded]) if len(ids) else coded
            model.add_allowed_assignments([cost, *letters], np.unique(rows, axis=0).tolist())
            costs.append(cost)
        else:
            # rows sorted, as numpy builds them in a blink where Python tuples took a second
            model.add_allowed_assignments(letters, np.unique(coded, axis=0).tolist())
    return costs


def _different_words(model: cp_model.CpModel, problem: GridProblem, cells: list[cp_model.IntVar],
                     budget: Budget) -> None:
    """Two slots of equal length hold different words: some position differs."""
    for s in range(len(problem.slots)):
        check_building(budget)
        for t in range(s + 1, len(problem.slots)):
            a, b = problem.slots[s], problem.slots[t]
            if len(a) != len(b):
                continue
            differs = []
            for p, (ca, cb) in enumerate(zip(a, b, strict=True)):
                if ca == cb:
                    continue
                d = model.new_bool_var(f"differ_{s}_{t}_{p}")
                model.add(cells[ca] != cells[cb]).only_enforce_if(d)
                model.add(cells[ca] == cells[cb]).only_enforce_if(d.Not())  # fixed by the letters
                differs.append(d)
            model.add_bool_or(differs)


_LETTERS: dict[int, tuple[GridProblem, dict[int, np.ndarray]]] = {}


def _letter_array(problem: GridProblem, n: int) -> np.ndarray:
    """The ``n``-letter words as an (words, n) array of letter indices, built once per problem
    (``generate`` builds many models of one problem)."""
    cached = _LETTERS.get(id(problem))
    if cached is None or cached[0] is not problem:
        _LETTERS.clear()
        cached = (problem, {})
        _LETTERS[id(problem)] = cached
    if n not in cached[1]:
        ws = problem.words[n]
        flat = np.frombuffer(problem.alphabet.codes("".join(ws)), dtype=np.uint8).astype(np.int64)
        cached[1][n] = flat.reshape(len(ws), n)
    return cached[1][n]


#: Presolve probing and symmetry detection cost seconds on word tables and buy nothing here
#: (the search needs a few branches).
LIGHT_PRESOLVE = {"cp_model_probing_level": 0, "symmetry_level": 0}

#: Random anchor words ``generate`` tries before it solves the whole model instead.
ANCHOR_TRIES = 20


def _generate_anchored(problem: GridProblem, spec: Any, budget: Budget) -> Found | None:
    """``generate`` by random anchors: fix a random word in the first slot, prune the other slots'
    tables by arc consistency, and let CP-SAT complete the grid. Small tables make each solve
    fast; a grid seen before (or its mirror image) is skipped. Returns None to fall back to the
    whole model when ANCHOR_TRIES anchors in a row lead nowhere, or when every anchor was tried
    before ``count`` grids were made (one grid an anchor proves nothing about the others)."""
    rng = random.Random(spec.seed)
    anchors = list(problem.candidates[0])
    rng.shuffle(anchors)
    found = Found(stats={"anchors": 0})
    seen: set[tuple[int, ...]] = set()
    failures = 0
    for word in anchors:
        if len(found.answers) == spec.count or failures >= ANCHOR_TRIES:
            break
        if budget.expired():
            return found.stop(budget.reason)
        found.stats["anchors"] += 1
        pruned = arc_consistent(problem, [[word], *problem.candidates[1:]])
        if pruned is None:
            failures += 1
            continue
        sub = replace(problem, candidates=pruned, group=[g for g in problem.group if g.is_identity])
        try:
            gm = build_model(sub, shuffled_order(problem.alphabet.size, rng), symmetry=False, budget=budget)
        except BuildTimeout as exc:
            return found.stop(exc.reason) if found.answers else exc.found()
        outcome = cpsat.solve(gm.model, budget, workers=spec.threads or 1, seed=spec.seed, randomize=True,
                              parameters=LIGHT_PRESOLVE)
        cpsat.add_stats(found.stats, outcome.stats)
        if outcome.stopped is not None and not outcome.status.solved:
            return _stopped(found, outcome)
        if not outcome.status.solved:
            failures += 1
            continue
        key = canonical_form(gm.letters(outcome), problem.group)
        if key not in seen:
            seen.add(key)
            found.answers.append(list(key))
            failures = 0
    if len(found.answers) < spec.count:  # one grid an anchor: other grids may share the anchors
        return None
    return found


def _solve_repeatedly(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """Up to ``count`` grids from the whole model, each forbidden before the next (optimising the
    total rareness with ``objective: common``); every solve gets what is left of the budget."""
    randomize = spec.task == "generate" and spec.objective == "none"
    alphabet = shuffled_order(problem.alphabet.size, random.Random(spec.seed)) if randomize else None
    gm = build_model(problem, alphabet, with_costs=spec.objective == "common", budget=budget)
    if spec.objective == "common":
        gm.model.minimize(sum(gm.costs))
    found = Found()
    for _ in range(spec.count):
        outcome = cpsat.solve(gm.model, budget, workers=spec.threads or (None if spec.objective == "common" else 1),
                              seed=spec.seed, randomize=randomize, parameters=LIGHT_PRESOLVE)
        cpsat.add_stats(found.stats, outcome.stats)
        if outcome.status is Status.INFEASIBLE:
            break
        if not outcome.status.solved:
            return _stopped(found, outcome)
        gm.model.add_forbidden_assignments(gm.cells, [[outcome.value(v) for v in gm.cells]])
        found.answers.append(gm.letters(outcome))
        if outcome.status is not Status.OPTIMAL:
            return found.stop(outcome.stopped)
    if 0 < len(found.answers) < spec.count:
        found.message = "no other grid exists"
    return found


def _stopped(found: Found, outcome: Outcome) -> Found:
    """``found``, stopped as ``outcome`` was; its reason in words when nothing was found."""
    if not found.answers and outcome.message is not None:
        found.message = outcome.message
        found.stats["stopped"] = outcome.stopped
    return found.stop(outcome.stopped)


def generate(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """``count`` random grids (random anchor words first), or the least rare with ``objective: common``."""
    try:
        if spec.objective == "none":
            anchored = _generate_anchored(problem, spec, budget)
            if anchored is not None:
                return anchored
        return _solve_repeatedly(problem, spec, budget)
    except BuildTimeout as exc:
        return exc.found()


def fill(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """Complete the given letters: up to ``count`` different grids (least rare with ``objective: common``)."""
    try:
        return _solve_repeatedly(problem, spec, budget)
    except BuildTimeout as exc:
        return exc.found()


def _enumeration(problem: GridProblem, spec: Any, budget: Budget, counting: bool) -> Found:
    try:
        gm = build_model(problem, budget=budget)
    except BuildTimeout as exc:
        return exc.found()
    raw = 0

    def on_solution(values: list[int]) -> None:
        nonlocal raw
        raw += orbit_size(values, problem.group)

    en = cpsat.enumerate_solutions(gm.model, gm.cells, budget, on_solution=on_solution,
                                   limit=None if counting else spec.limit, seed=spec.seed, keep=not counting)
    found = Found(answers=[[gm.alphabet[v] for v in values] for values in en.solutions], count=en.count,
                  stats=dict(en.stats))
    if counting:
        found.stats |= {"raw_count": raw, "method": "enumeration"}
    if not en.count and en.message is not None:
        found.message = en.message
        found.stats["stopped"] = en.stopped
    return found if en.complete else found.stop(en.stopped)


def enumerate_(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """Grids modulo symmetry (lex-leaders) by solution callbacks, up to ``limit``."""
    return _enumeration(problem, spec, budget, counting=False)


def count(problem: GridProblem, spec: Any, budget: Budget) -> Found:
    """Grids modulo symmetry by enumeration of the lex-leaders; raw count from their orbit sizes."""
    return _enumeration(problem, spec, budget, counting=True)
