"""The CP-SAT Spelling Bee engine: choose seven letters and a centre, count the words they allow.

Variables: ``x[l]`` (letter ``l`` is in the hive), ``y[l]`` (``l`` is the centre), and one
Boolean ``w[m]`` for each set of letters ``m`` that some word has, reified as "every letter of
``m`` is in the hive and one of them is the centre". The hive's words are ``Σ n[m]·w[m]`` and its
points ``Σ p[m]·w[m]`` (``n``/``p``: the words and points of the words with letter set ``m``,
pangram bonus included); the hive must equal the letter set of some word (a pangram exists).
``words`` fixes the hive and reads the allowed sets off the answer; ``generate`` bounds the two
sums, maximises one of them when asked, and forbids each hive found before the next solve.
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from cpwords.engines import cpsat as engine
from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.engines.found import Found
from cpwords.puzzles.spelling_bee.words import HIVE_SIZE, PANGRAM_BONUS, WordTable, letters_of, mask_of
from cpwords.results import Status


class HiveModel:
    """The CP-SAT model of a hive over a word table (see the module docstring)."""

    def __init__(self, table: WordTable, avoid: int = 0, hive: int | None = None,
                 budget: Budget | None = None) -> None:
        tick = budget.ticker(256) if budget is not None else (lambda: None)
        # The hive is one of the pangrams' letter sets (``generate``), or the given one (``words``,
        # where a pangram is not required).
        pangrams = table.pangram_masks(avoid) if hive is None else [hive]
        within: dict[int, list[int]] = {}  # each useful letter set: the pangrams holding it
        for k, p in enumerate(pangrams):
            tick()
            sub = p
            while sub:
                if sub in table.words:
                    within.setdefault(sub, []).append(k)
                sub = (sub - 1) & p
        self.model = cp_model.CpModel()
        m = self.model
        self.x = [m.new_bool_var(f"x_{chr(97 + i)}") for i in range(26)]
        self.y = [m.new_bool_var(f"y_{chr(97 + i)}") for i in range(26)]
        for i in range(26):
            if avoid >> i & 1:
                m.add(self.x[i] == 0)
            m.add_implication(self.y[i], self.x[i])
        m.add(sum(self.x) == HIVE_SIZE)
        m.add_exactly_one(self.y)
        self.masks = sorted(within)
        if hive is None:
            # The hive is the letter set of one pangram: one Boolean a set, the letters linked to it.
            self.z = [m.new_bool_var(f"z_{letters_of(p)}") for p in pangrams]
            m.add_exactly_one(self.z)
            for i in range(26):
                m.add(self.x[i] == sum(z for z, p in zip(self.z, pangrams, strict=True) if p >> i & 1))
        self.w: dict[int, cp_model.IntVar] = {}
        for mask in self.masks:
            tick()  # a big dictionary's model takes seconds to write
            bits = [i for i in range(26) if mask >> i & 1]
            w = m.new_bool_var(f"w_{letters_of(mask)}")
            if hive is None:  # allowed only if a chosen pangram holds the set (a tight relaxation)
                m.add(w <= sum(self.z[k] for k in within[mask]))
            else:
                for i in bits:
                    m.add_implication(w, self.x[i])
            m.add(w <= sum(self.y[i] for i in bits))
            m.add(sum(self.x[i] for i in bits) + sum(self.y[i] for i in bits) - w <= len(bits))
            self.w[mask] = w
        self.words = sum(len(table.words[mask]) * self.w[mask] for mask in self.masks)
        self.points = sum((table.points[mask] + (PANGRAM_BONUS * len(table.words[mask])
                                                  if mask.bit_count() == HIVE_SIZE else 0)) * self.w[mask]
                          for mask in self.masks)

    def fix(self, hive: int, center: int) -> None:
        """Fix the letters and the centre."""
        for i in range(26):
            self.model.add(self.x[i] == (hive >> i & 1))
            self.model.add(self.y[i] == (center >> i & 1))

    def read(self, outcome: engine.Outcome) -> tuple[int, int, list[int]]:
        """The hive, its centre and the letter sets allowed in an answer."""
        hive = sum(1 << i for i in range(26) if outcome.value(self.x[i]))
        center = sum(1 << i for i in range(26) if outcome.value(self.y[i]))
        return hive, center, [mask for mask in self.masks if outcome.value(self.w[mask])]


def _answer(table: WordTable, hive: int, center: int, allowed: list[int]) -> tuple[str, list[tuple[str, int, bool]]]:
    c = letters_of(center)
    found = []
    for mask in allowed:
        bonus = PANGRAM_BONUS if mask == hive else 0
        found += [(w, (1 if len(w) <= table.min_length else len(w)) + bonus, mask == hive)
                  for w in table.words[mask]]
    return c + letters_of(hive).replace(c, ""), found


def words(table: WordTable, spec: Any, budget: Budget) -> Found:
    """Every word of the spec's hive, read from the model with the letters fixed."""
    hive, center = mask_of(spec.letters), mask_of(spec.center)
    hm = HiveModel(table, hive=hive)
    hm.fix(hive, center)
    outcome = engine.solve(hm.model, budget, workers=spec.workers, seed=spec.seed)
    found = Found(stats=dict(outcome.stats, model_sets=len(hm.masks)))
    if not outcome.status.solved:
        return found.stop(outcome.stopped) if outcome.stopped else found
    letters, listed = _answer(table, *hm.read(outcome))
    found.answers = [(letters, listed)]
    found.count = len(listed)
    found.objective = sum(p for _, p, _ in listed)
    return found


def generate(table: WordTable, spec: Any, budget: Budget) -> Found:
    """Hives within the spec's bounds, one solve each, each new solve forbidding the hives found."""
    try:
        hm = HiveModel(table, avoid=mask_of(spec.avoid), budget=budget)
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
    found = Found(stats={"model_sets": len(hm.masks), "pangram_sets": len(table.pangram_masks(mask_of(spec.avoid)))})
    found.complete = True
    for k in range(spec.puzzles):
        outcome = engine.solve(m, budget, workers=spec.workers, seed=None if spec.seed is None else spec.seed + k,
                               randomize=spec.maximize is None)
        engine.add_stats(found.stats, outcome.stats)
        if outcome.status == Status.FEASIBLE and spec.maximize is not None:
            found.stop(outcome.stopped)  # an answer, not proved the best
        elif not outcome.status.solved:
            if outcome.stopped:
                found.stop(outcome.stopped)
            break
        hive, center, allowed = hm.read(outcome)
        if k == 0 and outcome.objective is not None:
            found.objective = int(round(outcome.objective))
        found.answers.append(_answer(table, hive, center, allowed))
        # the next hive differs in a letter or in the centre
        m.add(sum(hm.x[i] for i in range(26) if hive >> i & 1) + sum(hm.y[i] for i in range(26)
                                                                      if center >> i & 1) <= HIVE_SIZE)
        if outcome.stopped:
            break
    return found
