"""The CP-SAT model of a word grid.

One letter variable per open cell (crossing slots share it), one word variable per slot tied
to its letters by an ``AddAllowedAssignments`` table, ``AddAllDifferent`` over the word
variables of equal-length slots when words must differ, lex-leader constraints X ≤lex g·X over
the cell letters for every symmetry g, and the total rareness as objective for ``common``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from cpwords.engines import cpsat
from cpwords.geometry import Symmetry, canonical_form, orbit_size
from cpwords.puzzles.word_grid import grid_result
from cpwords.puzzles.word_grid.problem import GridProblem, arc_consistent, shuffled_order
from cpwords.results import Result, Status


@dataclass
class GridModel:
    """A built model and the variables to read an answer from."""

    model: cp_model.CpModel
    cells: list[cp_model.IntVar]
    costs: list[cp_model.IntVar]
    alphabet: list[int]

    def letters(self, outcome: cpsat.Outcome) -> list[int]:
        """The answer's letter indices, one per cell."""
        return [self.alphabet[outcome.value(v)] for v in self.cells]


def lex_leq(model: cp_model.CpModel, xs: list[cp_model.IntVar], ys: list[cp_model.IntVar], name: str) -> None:
    """Post X ≤lex Y with a chain of "equal so far" booleans (equal vectors allowed)."""
    equal_so_far = None  # None: true (nothing compared yet)
    for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
        if x is y:
            continue  # a cell the symmetry keeps in place compares equal to itself
        le = model.Add(x <= y)
        if equal_so_far is not None:
            le.OnlyEnforceIf(equal_so_far)
        same = model.NewBoolVar(f"{name}_same_{i}")
        model.Add(x == y).OnlyEnforceIf(same)
        model.Add(x != y).OnlyEnforceIf(same.Not())
        nxt = model.NewBoolVar(f"{name}_eq_{i}")
        model.AddImplication(nxt, same)
        if equal_so_far is None:
            model.AddBoolOr([same.Not(), nxt])
        else:
            model.AddImplication(nxt, equal_so_far)
            model.AddBoolOr([equal_so_far.Not(), same.Not(), nxt])
        equal_so_far = nxt


def lex_leader_constraints(model: cp_model.CpModel, cells: list[cp_model.IntVar], group: list[Symmetry]) -> None:
    """For every non-identity g: cells ≤lex g·cells (one representative per orbit)."""
    for g in group:
        if g.is_identity:
            continue
        src = g.source_indices()
        lex_leq(model, cells, [cells[src[j]] for j in range(len(cells))], f"lex_{g.name}")


def build_model(problem: GridProblem, alphabet: list[int] | None = None, *, symmetry: bool = True,
                with_costs: bool = False) -> GridModel:
    """The CP-SAT model. A cell variable's value v stands for letter ``alphabet[v]`` (default: a-z in
    order); ``generate`` passes a random alphabet so that the search's "smallest value first" is random."""
    alphabet = alphabet or list(range(26))
    code = [0] * 26
    for v, letter in enumerate(alphabet):
        code[letter] = v
    model = cp_model.CpModel()
    cells = []
    for i, (r, c) in enumerate(problem.cells):
        if i in problem.given:
            cells.append(model.NewConstant(code[problem.given[i]]))
        else:
            cells.append(model.NewIntVar(0, 25, f"letter_r{r + 1}c{c + 1}"))
    costs = []
    for s, slot in enumerate(problem.slots):
        n = len(slot)
        ws, rare = problem.words[n], problem.rareness[n]
        name = problem.slot_names[s].replace(" ", "_").replace(",", "_")
        letters = [cells[c] for c in slot]
        # Letters-only tables keep CP-SAT's table expansion small; the rareness column is
        # added only when the objective needs it.
        if with_costs:
            cost = model.NewIntVar(0, max(rare, default=0), f"rareness_{name}")
            table = sorted((rare[wid], *(code[ord(ch) - 97] for ch in ws[wid])) for wid in problem.candidates[s])
            model.AddAllowedAssignments([cost, *letters], table)
            costs.append(cost)
        else:
            table = sorted(tuple(code[ord(ch) - 97] for ch in ws[wid]) for wid in problem.candidates[s])
            model.AddAllowedAssignments(letters, table)
    if problem.distinct:
        # Two slots of equal length hold different words: some position differs.
        for s in range(len(problem.slots)):
            for t in range(s + 1, len(problem.slots)):
                a, b = problem.slots[s], problem.slots[t]
                if len(a) != len(b):
                    continue
                differs = []
                for p, (ca, cb) in enumerate(zip(a, b, strict=True)):
                    if ca == cb:
                        continue
                    d = model.NewBoolVar(f"differ_{s}_{t}_{p}")
                    model.Add(cells[ca] != cells[cb]).OnlyEnforceIf(d)
                    model.Add(cells[ca] == cells[cb]).OnlyEnforceIf(d.Not())  # fixed by the letters
                    differs.append(d)
                model.AddBoolOr(differs)
    if symmetry:
        lex_leader_constraints(model, cells, problem.group)
    return GridModel(model, cells, costs, alphabet)


#: Presolve probing and symmetry detection cost seconds on word tables and buy nothing here
#: (the search needs a few branches).
LIGHT_PRESOLVE = {"cp_model_probing_level": 0, "symmetry_level": 0}


def _solve_light(model: cp_model.CpModel, **options: object) -> cpsat.Outcome:
    """cpsat.solve with :data:`LIGHT_PRESOLVE`."""
    return cpsat.solve(model, parameters=LIGHT_PRESOLVE, **options)  # type: ignore[arg-type]


#: Random anchor words ``generate`` tries before it solves the whole model instead.
ANCHOR_TRIES = 20


def _generate_anchored(spec, problem: GridProblem, t0: float) -> Result | None:  # noqa: ANN001
    """``generate`` by random anchors: fix a random word in the first slot, prune the other slots'
    tables by arc consistency, and let CP-SAT complete the grid. Small tables make each solve
    fast; a grid seen before (or its mirror image) is skipped. Returns None to fall back to the
    whole model when ANCHOR_TRIES anchors in a row lead nowhere."""
    rng = random.Random(spec.seed)
    anchors = list(problem.candidates[0])
    rng.shuffle(anchors)
    deadline = None if spec.time_limit is None else time.monotonic() + spec.time_limit
    grids: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    failures = 0
    stats: dict = {"anchors": 0}
    for word in anchors:
        if len(grids) == spec.count or failures >= ANCHOR_TRIES:
            break
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            break
        stats["anchors"] += 1
        pruned = arc_consistent(problem, [[word], *problem.candidates[1:]])
        if pruned is None:
            failures += 1
            continue
        sub = replace(problem, candidates=pruned, group=[g for g in problem.group if g.is_identity])
        gm = build_model(sub, shuffled_order(26, rng), symmetry=False)
        outcome = _solve_light(gm.model, time_limit=left, workers=spec.workers or 1, seed=spec.seed, randomize=True)
        for k, v in outcome.stats.items():
            stats[k] = stats.get(k, 0) + v
        if not outcome.status.solved:
            failures += 1
            continue
        key = canonical_form(gm.letters(outcome), problem.group)
        if key not in seen:
            seen.add(key)
            grids.append(list(key))
            failures = 0
    if not grids and failures >= ANCHOR_TRIES:
        return None
    if len(grids) < spec.count and failures >= ANCHOR_TRIES:
        return None
    status = Status.OPTIMAL if len(grids) == spec.count else (Status.FEASIBLE if grids else Status.UNKNOWN)
    if len(grids) < spec.count and not (deadline is not None and time.monotonic() >= deadline):
        if stats["anchors"] == len(anchors):  # every anchor tried: the search was complete
            status = Status.OPTIMAL if grids else Status.INFEASIBLE
    message = None
    if status == Status.UNKNOWN:
        message = "time limit reached before any grid was found"
    elif grids and len(grids) < spec.count:
        message = f"found {len(grids)} different grids of the {spec.count} asked for"
    stats["search_s"] = round(time.perf_counter() - t0, 6)
    return grid_result(spec, problem, status=status, grids=grids, stats=stats, message=message)


def solve_cpsat(spec, problem: GridProblem) -> Result:  # noqa: ANN001
    """Run one task with CP-SAT."""
    t0 = time.perf_counter()
    if spec.task in ("count", "enumerate"):
        return _enumerate(spec, problem, t0)
    if spec.task == "generate" and spec.objective == "none":
        anchored = _generate_anchored(spec, problem, t0)
        if anchored is not None:
            return anchored
    if spec.task == "generate" and spec.objective == "none":
        alphabet = shuffled_order(26, random.Random(spec.seed))
    else:
        alphabet = None
    gm = build_model(problem, alphabet, with_costs=spec.objective == "common")
    if spec.objective == "common":
        gm.model.Minimize(sum(gm.costs))
    grids: list[list[int]] = []
    status = Status.OPTIMAL
    stats: dict = {}
    deadline = None if spec.time_limit is None else time.monotonic() + spec.time_limit
    for _ in range(spec.count):
        left = None if deadline is None else max(0.01, deadline - time.monotonic())
        outcome = _solve_light(gm.model, time_limit=left,
                               workers=spec.workers or (None if spec.objective == "common" else 1), seed=spec.seed,
                               randomize=spec.task == "generate" and spec.objective == "none")
        for k, v in outcome.stats.items():
            stats[k] = stats.get(k, 0) + v
        if not outcome.status.solved:
            if outcome.status == Status.UNKNOWN:
                status = Status.FEASIBLE if grids else Status.UNKNOWN
            elif not grids:
                status = Status.INFEASIBLE
            break
        if outcome.status == Status.FEASIBLE:
            status = Status.FEASIBLE
        gm.model.AddForbiddenAssignments(gm.cells, [[outcome.value(v) for v in gm.cells]])
        grids.append(gm.letters(outcome))
    message = None
    if status == Status.UNKNOWN:
        message = "time limit reached before any grid was found"
    elif grids and len(grids) < spec.count and status == Status.OPTIMAL:
        message = f"only {len(grids)} different grids exist"
    stats["search_s"] = round(time.perf_counter() - t0, 6)
    return grid_result(spec, problem, status=status, grids=grids, stats=stats, message=message)


def _enumerate(spec, problem: GridProblem, t0: float) -> Result:  # noqa: ANN001
    gm = build_model(problem)
    raw = [0]
    counting = spec.task == "count"

    def on_solution(values: list[int]) -> None:
        raw[0] += orbit_size(values, problem.group)

    found = cpsat.enumerate_solutions(gm.model, gm.cells, on_solution=on_solution,
                                      limit=None if counting else spec.limit,
                                      time_limit=spec.time_limit, seed=spec.seed, keep=not counting)
    complete = found.complete
    if found.count and not complete and not counting and spec.limit is not None and found.count >= spec.limit:
        status = Status.FEASIBLE
    elif found.count:
        status = Status.OPTIMAL if complete else Status.FEASIBLE
    else:
        status = Status.INFEASIBLE if complete else Status.UNKNOWN
    stats = {**found.stats, "raw_count": raw[0]} if counting else dict(found.stats)
    message = None
    if not complete and counting:
        message = "time limit reached: the count is a lower bound"
    return grid_result(spec, problem, status=status, grids=found.solutions, stats=stats,
                       count=found.count, count_exact=complete, message=message)
