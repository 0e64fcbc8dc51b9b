"""Is a puzzle's answer the only one? A search for a second grid, by CP-SAT or by SAT.

The player of a ``task: puzzle`` board knows the letters (the scramble holds exactly the
answer's), the shape's fixed cells and the green cells. A second grid of dictionary words with
those letters that keeps those cells would be a second answer; both engines search for one
and the answer is unique when the search comes back infeasible. Each slot's candidate words are
first cut to those that fit the known cells and use no letter more often than the board has it
(:func:`view_problem`); the search itself counts every letter exactly.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from cpwords.alphabet import ENGLISH, Alphabet
from cpwords.engines import cpsat, sat
from cpwords.engines.budget import Budget
from cpwords.puzzles.word_grid.cpsat import LIGHT_PRESOLVE, build_model
from cpwords.puzzles.word_grid.problem import GridProblem, arc_consistent
from cpwords.puzzles.word_grid.sat import GridCnf
from cpwords.results import Status


@dataclass
class Proof:
    """The end of one search for a second grid.

    Attributes
    ----------
    status: ``infeasible`` (the answer is unique), ``optimal`` (a second grid: ``other``) or
        ``unknown`` (the budget ran out).
    other: the second grid found, one letter index per cell.
    engine: ``cpsat`` or ``sat``.
    seconds: wall time of the search (the model included).
    """

    status: Status
    other: list[int] | None
    engine: str
    seconds: float

    @property
    def unique(self) -> bool:
        """The search proved that no second grid exists."""
        return self.status is Status.INFEASIBLE


def fits_letters(word: str, letters: Counter[int], alphabet: Alphabet = ENGLISH) -> bool:
    """Whether ``word`` uses no letter more often than ``letters`` (by letter index) holds it.

    >>> fits_letters("noon", Counter({ENGLISH.index["n"]: 2, ENGLISH.index["o"]: 2}))
    True
    """
    return all(letters[alphabet.index[ch]] >= k for ch, k in Counter(word).items())


def view_problem(problem: GridProblem, answer: Sequence[int], known: Iterable[int]) -> GridProblem | None:
    """The grid problem of the player's view: the ``known`` cells (fixed and green) given their
    answer letters, candidates cut to words that fit them and the board's letters, pruned by arc
    consistency, no symmetry (the board has an orientation). None if no grid fits (never for a
    real answer: it fits)."""
    letters = np.bincount(np.asarray(answer, dtype=np.int64), minlength=problem.alphabet.size)
    given = {c: answer[c] for c in known}
    candidates = []
    for s, slot in enumerate(problem.slots):
        codes, counts = _word_letters(problem, len(slot))
        ids = np.asarray(problem.candidates[s], dtype=np.int64)
        keep = (counts[ids] <= letters).all(axis=1)
        for p, c in enumerate(slot):
            if c in given:
                keep &= codes[ids, p] == given[c]
        candidates.append(ids[keep].tolist())
    pruned = arc_consistent(replace(problem, given=given), candidates)
    if pruned is None:
        return None
    return replace(problem, given=given, candidates=pruned, group=[g for g in problem.group if g.is_identity])


_WORD_LETTERS: dict[int, tuple[GridProblem, dict[int, tuple[np.ndarray, np.ndarray]]]] = {}


def _word_letters(problem: GridProblem, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``n``-letter words as letter codes (words × n) and letter counts (words × letters), built
    once per problem (a puzzle tries many views of one problem)."""
    cached = _WORD_LETTERS.get(id(problem.words))
    if cached is None or cached[0].words is not problem.words:
        _WORD_LETTERS.clear()
        cached = (problem, {})
        _WORD_LETTERS[id(problem.words)] = cached
    if n not in cached[1]:
        ws = problem.words[n]
        codes = np.frombuffer(problem.alphabet.codes("".join(ws)), dtype=np.uint8).astype(np.int64).reshape(len(ws), n)
        counts = np.zeros((len(ws), problem.alphabet.size), dtype=np.int64)
        for p in range(n):
            np.add.at(counts, (np.arange(len(ws)), codes[:, p]), 1)
        cached[1][n] = (codes, counts)
    return cached[1][n]


def second_grid(view: GridProblem, answer: Sequence[int], engine: str, budget: Budget, *,
                seed: int | None = None) -> Proof:
    """Search for a grid of ``view`` with exactly the letters of ``answer`` other than ``answer``."""
    t0 = time.perf_counter()
    search = _second_grid_cpsat if engine == "cpsat" else _second_grid_sat
    status, other = search(view, answer, budget, seed)
    return Proof(status, other, engine, round(time.perf_counter() - t0, 6))


def _letter_needs(view: GridProblem, answer: Sequence[int]) -> tuple[list[int], Counter[int]]:
    """The cells to fill (not given) and how many of each letter they take."""
    free = [c for c in range(len(view.cells)) if c not in view.given]
    return free, Counter(answer[c] for c in free)


def _second_grid_cpsat(view: GridProblem, answer: Sequence[int], budget: Budget,
                       seed: int | None) -> tuple[Status, list[int] | None]:
    gm = build_model(view, symmetry=False)
    model = gm.model
    free, needs = _letter_needs(view, answer)
    if not free:
        return Status.INFEASIBLE, None  # every cell known: the answer is the only grid
    has: dict[int, list[Any]] = {ch: [] for ch in needs}
    for c in free:
        model.add_allowed_assignments([gm.cells[c]], [[ch] for ch in sorted(needs)])
        for ch in needs:
            b = model.new_bool_var(f"cell{c}_is_{ch}")
            model.add(gm.cells[c] == ch).only_enforce_if(b)
            model.add(gm.cells[c] != ch).only_enforce_if(b.Not())
            has[ch].append(b)
    for ch, k in needs.items():
        model.add(sum(has[ch]) == k)
    model.add_forbidden_assignments([gm.cells[c] for c in free], [[answer[c] for c in free]])
    outcome = cpsat.solve(model, budget, workers=1, seed=seed, parameters=LIGHT_PRESOLVE)
    if outcome.status.solved:
        return Status.OPTIMAL, gm.letters(outcome)
    return outcome.status, None


def _second_grid_sat(view: GridProblem, answer: Sequence[int], budget: Budget,
                     seed: int | None) -> tuple[Status, list[int] | None]:
    cnf = GridCnf(view, budget=budget)
    m = cnf.model
    free, needs = _letter_needs(view, answer)
    if not free:
        return Status.INFEASIBLE, None
    for ch in range(view.alphabet.size):
        lits = [cnf.letter[c][ch] for c in free]
        if needs[ch]:
            m.exactly_k(lits, needs[ch])
        else:
            for lit in lits:
                m.add([-lit])
    m.add([-cnf.letter[c][answer[c]] for c in free])
    outcome = sat.solve(m, budget)
    if outcome.status.solved:
        return Status.OPTIMAL, cnf.letters(outcome.true_vars)
    return outcome.status, None

