"""The CP-SAT Spelling Bee engine: choose seven letters and a centre, count the words they allow.

Variables: ``x[l]`` (letter ``l`` is in the hive), ``y[l]`` (``l`` is the centre, one of the
hive's letters), ``z[p]`` (the hive is the letter set ``p`` of some pangram: exactly one, and
``x`` follows from it, so every hive has a pangram) and one Boolean ``w[m]`` for each set of
letters ``m`` that some word has: "every word with letter set ``m`` is valid", reified as "every
letter of ``m`` is in the hive and one of them is the centre" (all words with the same letters
are valid together, so one Boolean serves them all). The hive's words are ``Σ n[m]·w[m]`` and its
points ``Σ p[m]·w[m]`` (``n``/``p``: the number and the points of the words with letter set
``m``, pangram bonus included).

``generate`` bounds the two sums, maximises one of them when asked (``maximize``), and after each
hive adds a constraint that forbids that hive and centre before the next solve. ``words`` fixes
the hive and the centre and reads the valid letter sets off the answer.

Two ways to tie ``w[m]`` to the hive, both exact: ``w[m] → x[l]`` for each letter of ``m`` (small:
a few literals a set), or ``w[m] ≤ Σ z[p]`` over the pangrams ``p`` that hold ``m`` (large: the
sets times the pangrams holding them, but its linear relaxation is tight). The first finds hives
within bounds fastest; the second is what lets CP-SAT prove a maximum, so it is used with
``maximize``. CP-SAT's presolve is switched off: on these models it costs seconds and saves
nothing (measured on scowl-50: a hive within bounds in 0.4–0.9 s instead of 7 s; the best hive
proved in 12 s instead of over a minute).
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from cpwords.engines import cpsat as engine
from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found
from cpwords.engines.outcome import Outcome
from cpwords.puzzles.spelling_bee.words import (
    HIVE_SIZE,
    PANGRAM_BONUS,
    WordTable,
    base_points,
)
from cpwords.results import Status

#: CP-SAT parameters of every solve of this engine (see the module docstring).
PARAMETERS: dict[str, Any] = {"cp_model_presolve": False}


class HiveModel:
    """The CP-SAT model of a hive over a word table (see the module docstring).

    ``hive`` given (the ``words`` task): the hive is that mask, no pangram is required and only
    its subsets are modelled. ``tight``: link each letter set to the pangrams that hold it (for
    an objective) instead of to the letters.
    """

    def __init__(self, table: WordTable, avoid: int = 0, hive: int | None = None, *, tight: bool = False,
                 budget: Budget | None = None) -> None:
        tick = budget.ticker(256) if budget is not None else (lambda: None)
        pangrams = table.pangram_masks(avoid) if hive is None else [hive]
        within: dict[int, list[int]] = {}  # each letter set that some hive could allow: the pangrams holding it
        for k, p in enumerate(pangrams):
            tick()
            sub = p
            while sub:
                if sub in table.words:
                    within.setdefault(sub, []).append(k)
                sub = (sub - 1) & p
        self.size = table.alphabet.size
        self.model = cp_model.CpModel()
        m = self.model
        self.x = [m.new_bool_var(f"x_{table.letters_of(1 << i)}") for i in range(self.size)]
        self.y = [m.new_bool_var(f"y_{table.letters_of(1 << i)}") for i in range(self.size)]
        for i in range(self.size):
            if avoid >> i & 1:
                m.add(self.x[i] == 0)
            m.add_implication(self.y[i], self.x[i])
        m.add(sum(self.x) == HIVE_SIZE)
        m.add_exactly_one(self.y)
        self.z: list[cp_model.IntVar] = []
        if hive is None:  # the hive is the letter set of one pangram
            self.z = [m.new_bool_var(f"z_{table.letters_of(p)}") for p in pangrams]
            m.add_exactly_one(self.z)
            for i in range(self.size):
                m.add(self.x[i] == sum(z for z, p in zip(self.z, pangrams, strict=True) if p >> i & 1))
        self.masks = sorted(within)
        self.w: dict[int, cp_model.IntVar] = {}
        for mask in self.masks:
            tick()  # a big dictionary's model takes a second to write
            bits = [i for i in range(self.size) if mask >> i & 1]
            w = m.new_bool_var(f"w_{table.letters_of(mask)}")
            if tight and self.z:
                m.add(w <= sum(self.z[k] for k in within[mask]))
            else:
                for i in bits:
                    m.add_implication(w, self.x[i])
            m.add(w <= sum(self.y[i] for i in bits))  # the set holds the centre
            # every letter in the hive and the centre among them -> valid
            m.add(sum(self.x[i] for i in bits) + sum(self.y[i] for i in bits) - w <= len(bits))
            self.w[mask] = w
        self.words = sum(len(table.words[mask]) * self.w[mask] for mask in self.masks)
        self.points = sum(_set_points(table, mask) * self.w[mask] for mask in self.masks)

    def fix(self, hive: int, center: int) -> None:
        """Fix the letters and the centre."""
        for i in range(self.size):
            self.model.add(self.x[i] == (hive >> i & 1))
            self.model.add(self.y[i] == (center >> i & 1))

    def forbid(self, hive: int, center: int) -> None:
        """Forbid one hive with one centre (the same letters with another centre stay allowed)."""
        chosen = [self.x[i] for i in range(self.size) if hive >> i & 1] + [self.y[i] for i in range(self.size) if center >> i & 1]
        self.model.add(sum(chosen) <= len(chosen) - 1)

    def read(self, outcome: Outcome) -> tuple[int, int, list[int]]:
        """The hive, its centre and the letter sets the answer makes valid."""
        hive = sum(1 << i for i in range(self.size) if outcome.value(self.x[i]))
        center = sum(1 << i for i in range(self.size) if outcome.value(self.y[i]))
        return hive, center, [mask for mask in self.masks if outcome.value(self.w[mask])]


def _set_points(table: WordTable, mask: int) -> int:
    """The points of every word with letter set ``mask``, the pangram bonus included."""
    return table.points[mask] + (PANGRAM_BONUS * len(table.words[mask]) if mask.bit_count() == HIVE_SIZE else 0)


def _answer(table: WordTable, letters: str, hive: int, valid: list[int]) -> tuple[str, list[tuple[str, int, bool]]]:
    """The hive's letters (centre first) and its words as ``(word, points, pangram)``, read from
    the letter sets the model made valid."""
    found = []
    for mask in valid:
        pangram = mask == hive
        found += [(w, base_points(w) + (PANGRAM_BONUS if pangram else 0), pangram) for w in table.words[mask]]
    return letters, found


def _centre_first(table: WordTable, hive: int, center: int) -> str:
    c = table.letters_of(center)
    return c + table.letters_of(hive).replace(c, "")


def words(table: WordTable, spec: Any, budget: Budget) -> Found:
    """Every word of the spec's hive, read from the model with the letters and centre fixed."""
    hive, center = table.mask_of(spec.letters), table.mask_of(spec.center)
    hm = HiveModel(table, hive=hive)
    hm.fix(hive, center)
    outcome = engine.solve(hm.model, budget, seed=spec.seed, parameters=PARAMETERS)
    found = Found(stats=dict(outcome.stats, model_sets=len(hm.masks)))
    if not outcome.status.solved:
        return found.stop(outcome.stopped) if outcome.stopped else found
    _, _, valid = hm.read(outcome)
    letters, listed = _answer(table, spec.hive(), hive, valid)
    found.answers = [(letters, listed)]
    found.count = len(listed)
    found.objective = sum(p for _, p, _ in listed)
    return found


def generate(table: WordTable, spec: Any, budget: Budget) -> Found:
    """Hives within the spec's bounds, one solve each; each new solve forbids the hives found.

    With ``maximize`` the first hive is the best (proved unless the time limit came first) and
    each next one the best of those left.
    """
    avoid = table.mask_of(spec.avoid)
    try:
        hm = HiveModel(table, avoid=avoid, tight=spec.maximize is not None, budget=budget)
    except SearchTimeout as exc:
        return Found(message="the time limit was reached while the model was written").stop(
            exc.args[0] if exc.args else None)
    m = hm.model
    for bound, expr, low in ((spec.min_words, hm.words, True), (spec.max_words, hm.words, False),
                             (spec.min_points, hm.points, True), (spec.max_points, hm.points, False)):
        if bound is not None:
            m.add(expr >= bound if low else expr <= bound)
    if spec.maximize is not None:
        m.maximize(hm.words if spec.maximize == "words" else hm.points)
    found = Found(stats={"model_sets": len(hm.masks), "pangram_sets": len(hm.z)})
    for k in range(spec.puzzles):
        outcome = engine.solve(m, budget, seed=None if spec.seed is None else spec.seed + k,
                               randomize=spec.maximize is None, parameters=PARAMETERS)
        engine.add_stats(found.stats, outcome.stats)
        if not outcome.status.solved:
            if outcome.stopped:  # stopped before this hive; an infeasible solve means no more hives
                found.stop(outcome.stopped)
            break
        if outcome.status == Status.FEASIBLE:
            found.stop(outcome.stopped)  # a hive, not proved the best
        hive, center, valid = hm.read(outcome)
        if k == 0 and outcome.objective is not None:
            found.objective = int(round(outcome.objective))
        found.answers.append(_answer(table, _centre_first(table, hive, center), hive, valid))
        if outcome.stopped:
            break
        hm.forbid(hive, center)
    return found
