"""The CP-SAT models of Letter Boxed, built here and solved by the engine module ``cpsat.py``.

:func:`build_model`, K word positions, each a word or empty: ``word_p`` (0 = empty, i + 1 = word i
of the table), ``first_p`` / ``last_p`` (letter numbers, n = none) tied to ``word_p`` by one
add_allowed_assignments table, one Boolean per (position, word) from add_map_domain. Constraints:
empties only at the end (so each answer is written one way), chaining ``first_{p+1} == last_p``,
every letter covered, each word at most once, and for listing/counting the first k-1 words of a
k-word answer not covering every letter.

:func:`cover_model`, the answers of exactly k words as an exact cover of the letters with at most
a given excess of letters: the bound on the fewest letters, and the tie-break ranked by letters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from cpwords.puzzles.letter_boxed.words import WordTable


@dataclass
class BoxModel:
    """A built model and the variables to read an answer from."""

    model: cp_model.CpModel
    word: list[cp_model.IntVar]
    used: list[Any]
    cost: list[cp_model.IntVar]
    distinct: list[cp_model.IntVar]


def build_model(table: WordTable, positions: int, *, all_used: bool, prefix_rule: bool,
                domains: list[list[int]] | None = None) -> BoxModel:
    """The model with ``positions`` word slots.

    Parameters
    ----------
    all_used: every slot holds a word (an answer of exactly ``positions`` words); otherwise
        trailing slots may be empty.
    prefix_rule: forbid answers whose words before the last already cover every letter (needed
        when listing or counting; a fewest-words answer obeys it anyway).
    domains: ``domains[p]`` the words slot p may hold (:func:`~cpwords.puzzles.letter_boxed.reach.
        position_domains`); every word in every slot when None.
    """
    n = table.box.n
    m = cp_model.CpModel()
    if domains is None:
        domains = [list(range(len(table)))] * positions
    bm, first, last, picks = _slots(m, table, domains, all_used)
    for p in range(positions - 1):
        m.add_implication(bm.used[p + 1], bm.used[p])  # empties only at the end
        m.add(first[p + 1] == last[p]).only_enforce_if(bm.used[p + 1])
    # Redundant: the words' distinct letters add up to at least n. Gives the solver a lower bound
    # on the number of words (e.g. 12 letters, at most 8 distinct in a word: 2 words or more).
    m.add(sum(bm.distinct) >= n)
    for letter in range(n):
        m.add_bool_or([b for p in range(positions) for i, b in picks[p].items() if i >= 0 and table.mask[i] >> letter & 1])
    _each_word_once(m, picks)
    if prefix_rule:
        _prefix_rule(m, table, picks, bm.used)
    return bm


def _slots(m: cp_model.CpModel, table: WordTable, domains: list[list[int]], all_used: bool,
           ) -> tuple[BoxModel, list[cp_model.IntVar], list[cp_model.IntVar], list[dict[int, Any]]]:
    """The variables of each slot p (``domains[p]`` its words), tied by one table: the word
    (0 = empty), its first and last letters (n = none), cost and distinct letters, and one
    Boolean a word (key -1: empty). Returns the model's variables, the first and last letters and
    the Booleans of each slot."""
    n, none = table.box.n, table.box.n
    costs = sorted({table.cost[i] for d in domains for i in d} | ({0} if not all_used else set()))
    bm = BoxModel(m, [], [], [], [])
    first, last, picks = [], [], []
    for p, words in enumerate(domains):
        rows = [(i + 1, table.first[i], table.last[i], table.cost[i], table.mask[i].bit_count()) for i in words]
        if not all_used:
            rows.insert(0, (0, none, none, 0, 0))
        x = m.new_int_var_from_domain(cp_model.Domain.from_values([r[0] for r in rows]), f"word_{p + 1}")
        f = m.new_int_var(0, n, f"first_{p + 1}")
        e = m.new_int_var(0, n, f"last_{p + 1}")
        c = m.new_int_var_from_domain(cp_model.Domain.from_values(costs), f"cost_{p + 1}")
        d = m.new_int_var(0, n, f"distinct_letters_{p + 1}")
        m.add_allowed_assignments([x, f, e, c, d], rows)
        bm.distinct.append(d)
        pick = {r[0] - 1: m.new_bool_var(f"pick_{p + 1}_{r[0]}") for r in rows}
        m.add_exactly_one(pick.values())
        m.add(x == sum((i + 1) * b for i, b in pick.items()))
        bm.word.append(x)
        first.append(f)
        last.append(e)
        bm.cost.append(c)
        picks.append(pick)
        if -1 in pick:
            bm.used.append(pick[-1].Not())
        else:
            always = m.new_bool_var(f"used_{p + 1}")
            m.add(always == 1)
            bm.used.append(always)
    return bm, first, last, picks


def _prefix_rule(m: cp_model.CpModel, table: WordTable, picks: list[dict[int, Any]], used: list[Any]) -> None:
    """A word after slot p only while the words up to p leave some letter uncovered."""
    n = table.box.n
    covered = None
    for p in range(len(picks) - 1):
        has = []
        for letter in range(n):
            h = m.new_bool_var(f"covers_{p + 1}_{table.box.letters[letter]}")
            m.add_max_equality(h, [b for i, b in picks[p].items() if i >= 0 and table.mask[i] >> letter & 1]
                               or [m.new_constant(0)])
            if covered is not None:
                both = m.new_bool_var(f"covered_{p + 1}_{table.box.letters[letter]}")
                m.add_max_equality(both, [h, covered[letter]])
                h = both
            has.append(h)
        covered = has
        m.add_bool_or([x.Not() for x in covered]).only_enforce_if(used[p + 1])


def _each_word_once(m: cp_model.CpModel, picks: list[dict[int, Any]]) -> None:
    """No word at two positions: at most one of each word's Booleans (key -1, an empty slot, aside)."""
    at: dict[int, list[Any]] = {}
    for pick in picks:
        for i, b in pick.items():
            if i >= 0:
                at.setdefault(i, []).append(b)
    for bs in at.values():
        if len(bs) > 1:
            m.add_at_most_one(bs)


def cover_model(table: WordTable, k: int, domains: list[list[int]],
                slack: int | None) -> tuple[cp_model.CpModel, list[dict[int, Any]]] | None:
    """The answers of k words with at most n + k - 1 + ``slack`` letters in all, as an exact cover
    with at most ``slack`` letters of *excess*; None when some position has no word that fits.

    k words covering n letters have at least n + k - 1 letters: each letter is in some word, and
    each join letter in two neighbours. Everything beyond is excess: a word's repeated letters,
    and each word holding a letter that an earlier word holds too, unless the two are neighbours
    joined on it. Booleans ``pick`` (position p holds word i), ``has`` (the word at p has letter
    l) and ``join`` (the words at p and p + 1 meet on letter l), with the chaining and "every
    letter covered" as clauses. At no excess the letters of a word may appear elsewhere only as a
    join, pair by pair, so picking a word rules out by propagation every word elsewhere sharing a
    letter, as an exact-cover search does; with excess, an indicator per (position, letter)
    marks a letter seen before, and the indicators and repeats add up to at most ``slack``.
    ``slack`` None: any number of letters (every answer of k words).
    """
    n = table.box.n
    cost, mask, first, last = table.cost, table.mask, table.first, table.last
    kept = [[i for i in d if slack is None or cost[i] - mask[i].bit_count() <= slack] for d in domains]
    if any(not d for d in kept):
        return None
    m = cp_model.CpModel()
    pick = [{i: m.new_bool_var(f"pick_{p + 1}_{i + 1}") for i in d} for p, d in enumerate(kept)]
    letters = table.box.letters
    has = [[m.new_bool_var(f"has_{p + 1}_{letters[c]}") for c in range(n)] for p in range(k)]
    join = [[m.new_bool_var(f"join_{p + 1}_{letters[c]}") for c in range(n)] for p in range(k - 1)]
    excess: list[Any] = []
    for p in range(k):
        m.add_exactly_one(pick[p].values())
        holders: list[list[Any]] = [[] for _ in range(n)]
        for i, x in pick[p].items():
            for c in range(n):
                if mask[i] >> c & 1:
                    m.add_implication(x, has[p][c])
                    holders[c].append(x)
            if p + 1 < k:
                m.add_implication(x, join[p][last[i]])
            if p > 0:
                m.add_implication(x, join[p - 1][first[i]])
            if slack is not None and cost[i] > mask[i].bit_count():
                excess.append((cost[i] - mask[i].bit_count()) * x)  # repeated letters
        for c in range(n):
            m.add_bool_or([has[p][c].Not(), *holders[c]])
    for row in join:
        m.add_exactly_one(row)
    for c in range(n):
        m.add_bool_or([has[p][c] for p in range(k)])  # every letter covered
        excess += _letter_excess(m, [row[c] for row in has], [row[c] for row in join], slack, letters[c])
    if k > 1:  # ... and not already by the words before the last (the answer would end there)
        late = [m.new_bool_var(f"only_last_{letters[c]}") for c in range(n)]
        for c in range(n):
            for p in range(k - 1):
                m.add_implication(late[c], has[p][c].Not())
        m.add_bool_or(late)
    if slack != 0:
        if slack is not None:
            m.add(sum(excess) <= slack)
        _each_word_once(m, pick)  # (without excess a second use is impossible anyway)
    return m, pick


def _letter_excess(m: cp_model.CpModel, has: list[Any], join: list[Any], slack: int | None,
                   letter: str) -> list[Any]:
    """One letter's rules in :func:`cover_model`: ``has[p]``, the word at p has it; ``join[p]``,
    the words at p and p + 1 meet on it. Without excess, no two words have it unless they are
    neighbours joined on it; with excess, the Booleans marking each word that has it after an
    earlier word did (not as their join), returned to be counted."""
    k = len(has)
    if slack is None:
        return []
    if slack == 0:
        for p in range(k):
            for q in range(p + 1, k):
                m.add_bool_or([has[p].Not(), has[q].Not(), *([join[p]] if q == p + 1 else [])])
        return []
    excess = []
    seen = has[0]  # some word before p has the letter
    for p in range(1, k):
        extra = m.new_bool_var(f"excess_{p + 1}_{letter}")
        m.add_bool_or([has[p].Not(), seen.Not(), join[p - 1], extra])
        excess.append(extra)
        if p + 1 < k:
            now = m.new_bool_var(f"seen_{p + 1}_{letter}")
            m.add_implication(seen, now)
            m.add_implication(has[p], now)
            seen = now
    return excess
