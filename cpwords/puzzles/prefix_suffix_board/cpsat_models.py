"""The CP-SAT models of a prefix/suffix board: the whole board, its suffix slots alone, and the
prefix slots of one suffix placement. :mod:`.cpsat` solves, counts and lists with them.

**The board model** (:func:`build_model`). One integer variable per slot holds its token id (X,
in node order); one per edge holds the id of the word it spells, tied to the two tokens by an
``add_allowed_assignments`` table of (prefix, suffix, word) rows. ``add_all_different`` on the
edge words says a word is used once; ``distinct_tokens`` adds AllDifferent on the prefixes and
on the suffixes. Symmetry: for every non-identity g of the board group, X ≤lex g·X
(:func:`cpwords.engines.cpsat.lex_leader_constraints`). Generating uses it.

**The placement model** (:func:`placement_model`): the suffix slots only, with, for every set K
of suffix slots around some prefix slot, "at least as many prefixes make a word with all of K's
suffixes as there are prefix slots around all of K" (Hall's condition on those slots, which must
hold different prefixes; 15 conditions on the contest board, each a sum of booleans that the
suffixes fix, so that every solution is one placement). Counting enumerates it: on common-10k
it gives 3,076 placements, of which 2,154 admit a board; the whole-board model instead needs
minutes per placement to prove the next one.

**The fillings model** (:func:`fillings_model`): the prefix slots of one suffix placement, each
over its candidates; its solutions are exactly the placement's fillings.
"""

from __future__ import annotations

import itertools
from typing import Any

from ortools.sat.python import cp_model

from cpwords.engines import cpsat as engine
from cpwords.engines.budget import Budget
from cpwords.engines.cpsat import check_building, lex_leader_constraints
from cpwords.puzzles.prefix_suffix_board.counting import word_clashes
from cpwords.puzzles.prefix_suffix_board.problem import Problem


def build_model(problem: Problem, symmetry: str | None, budget: Budget | None = None
                ) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The board model; ``symmetry`` is ``board`` (lex-leader on X), ``suffix`` (on the suffix slots) or None.

    Returns the model and X (token variables in node order). Raises :class:`BuildTimeout` when
    ``budget`` is spent while the word tables are built.
    """
    budget = budget or Budget()
    model = cp_model.CpModel()
    lay, tokens = problem.layout, problem.tokens
    names = lay.names
    domains = [problem.domain(n) for n in range(problem.nodes)]
    xs = [model.new_int_var_from_domain(cp_model.Domain.from_values(domains[n] or [0]), f"token_{names[n]}")
          for n in range(problem.nodes)]
    for n in range(problem.nodes):
        if not domains[n]:
            model.add_bool_or([])  # no token fits this slot
    words = []
    for p, s in lay.edges:
        check_building(budget)
        dp, ds = set(domains[p]), set(domains[s])
        rows = [(a, b, w) for (a, b), w in tokens.cuts.items() if a in dp and b in ds]
        w_dom = sorted({w for _, _, w in rows}) or [0]
        word = model.new_int_var_from_domain(cp_model.Domain.from_values(w_dom), f"word_{names[p]}_{names[s]}")
        model.add_allowed_assignments([xs[p], xs[s], word], rows)
        words.append(word)
    model.add_all_different(words)
    if problem.distinct_tokens:
        model.add_all_different([xs[n] for n in lay.prefix_nodes])
        model.add_all_different([xs[n] for n in lay.suffix_nodes])
    if symmetry == "board":
        lex_leader_constraints(model, xs, problem.symmetry_group())
    elif symmetry == "suffix" and not problem.fixed_suffixes:
        lex_leader_constraints(model, [xs[n] for n in lay.suffix_nodes], problem.suffix_group(), "suffix_lex")
    return model, xs


def placement_model(problem: Problem, budget: Budget | None = None) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The suffix slots alone, with the conditions of a board that they decide (see the module
    docstring); every helper boolean is fixed by the suffixes. Returns the model and the suffix
    variables (``layout.suffix_nodes`` order). Raises :class:`BuildTimeout` when ``budget`` is
    spent while it is built (half a second on common-20k)."""
    budget = budget or Budget()
    model = cp_model.CpModel()
    lay = problem.layout
    where = {n: k for k, n in enumerate(lay.suffix_nodes)}
    around = [frozenset(where[s] for s in lay.suffixes_of(p)) for p in lay.prefix_nodes]
    xs, is_value = _suffix_slots(model, problem, around)
    _hall_conditions(model, problem, around, is_value, budget)
    if not problem.fixed_suffixes:
        lex_leader_constraints(model, xs, problem.suffix_group(), "suffix_lex")
    model.add_decision_strategy(xs, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
    return model, xs


def _suffix_slots(model: cp_model.CpModel, problem: Problem, around: list[frozenset[int]]
                  ) -> tuple[list[cp_model.IntVar], list[dict[int, cp_model.IntVar]]]:
    """A token variable per suffix slot, tied to one boolean per token it may take ([x_k ==
    token], by slot), the slots that must differ made different."""
    lay = problem.layout
    xs: list[cp_model.IntVar] = []
    is_value: list[dict[int, cp_model.IntVar]] = []
    for n in lay.suffix_nodes:
        domain = problem.domain(n)
        x = model.new_int_var_from_domain(cp_model.Domain.from_values(domain or [0]), f"token_{lay.names[n]}")
        if not domain:
            model.add_bool_or([])
        flags = {t: model.new_bool_var(f"is_{lay.names[n]}_{t}") for t in domain}
        model.add_exactly_one(flags.values())
        model.add(x == sum(t * b for t, b in flags.items()))
        xs.append(x)
        is_value.append(flags)
    if problem.distinct_tokens:
        model.add_all_different(xs)
    else:  # two suffixes around one prefix slot must differ, or its word repeats
        for nb in around:
            for k1, k2 in itertools.combinations(sorted(nb), 2):
                model.add(xs[k1] != xs[k2])
    return xs, is_value


def _hall_conditions(model: cp_model.CpModel, problem: Problem, around: list[frozenset[int]],
                     is_value: list[dict[int, cp_model.IntVar]], budget: Budget) -> None:
    """For every set K of two or more suffix slots around some prefix slot: at least as many
    prefixes make a word with all of K's suffixes as there are prefix slots around all of K."""
    tokens, prefix_nodes = problem.tokens, problem.layout.prefix_nodes
    pairs_with: dict[tuple[int, int], Any] = {}  # (slot, prefix) -> [the slot's suffix pairs with it]

    def pairs(k: int, a: int) -> Any:
        if (k, a) not in pairs_with:
            lits = [is_value[k][t] for t in tokens.suffixes_with[a] if t in is_value[k]]
            if len(lits) <= 1:
                pairs_with[(k, a)] = lits[0] if lits else None
            else:
                flag = model.new_bool_var("")
                for lit in lits:
                    model.add_implication(lit, flag)
                model.add_bool_or(lits).only_enforce_if(flag)
                pairs_with[(k, a)] = flag
        return pairs_with[(k, a)]

    groups = {group for nb in around for r in range(2, len(nb) + 1) for group in itertools.combinations(sorted(nb), r)}
    for group in sorted(groups):
        check_building(budget)
        slots = [i for i, nb in enumerate(around) if nb.issuperset(group)]
        fitting = []
        for a in sorted(set().union(*(problem.domain_sets[prefix_nodes[i]] for i in slots))):
            lits = [pairs(k, a) for k in group]
            if any(lit is None for lit in lits):
                continue
            fits = model.new_bool_var("")  # a makes a word with every suffix of the group
            for lit in lits:
                model.add_implication(fits, lit)
            model.add_bool_or([*(lit.Not() for lit in lits), fits])
            fitting.append(fits)
        model.add(sum(fitting) >= len(slots))


def fillings_model(problem: Problem, vector: tuple[int, ...], *, modulo: bool = False
                   ) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The prefix slots of one suffix placement: each over its candidates, different where they
    must be (distinct tokens, or around suffixes with equal tokens), and no two (slot, prefix)
    pairs spelling one word through different cuts. Returns the model and the prefix variables
    (``layout.prefix_nodes`` order); its solutions are exactly the placement's fillings.

    With ``modulo``, X ≤lex g·X is posted for every g of the placement's stabiliser: g leaves
    the suffix slots as they are, so the comparison runs over the prefix slots alone, and one
    filling per orbit of boards remains."""
    model = cp_model.CpModel()
    lay = problem.layout
    candidates = problem.prefix_candidates(vector)
    at = dict(zip(lay.suffix_nodes, vector, strict=True))
    slot_suffixes = [tuple(at[s] for s in lay.suffixes_of(p)) for p in lay.prefix_nodes]
    ys = [model.new_int_var_from_domain(cp_model.Domain.from_values(sorted(c) or [0]), f"token_{lay.names[p]}")
          for p, c in zip(lay.prefix_nodes, candidates, strict=True)]
    if any(not c for c in candidates) or any(len(set(s)) < len(s) for s in slot_suffixes):
        model.add_bool_or([])  # an empty slot, or a prefix slot whose word would repeat
        return model, ys
    if problem.distinct_tokens:
        model.add_all_different(ys)
    else:
        for i, j in itertools.combinations(range(len(ys)), 2):
            if not set(slot_suffixes[i]).isdisjoint(slot_suffixes[j]):
                model.add(ys[i] != ys[j])
    multi_cut: dict[int, list[tuple[int, int]]] = {}
    for w, cuts in enumerate(problem.tokens.cuts_of_word):
        if len(cuts) > 1:
            for a, s in cuts:
                multi_cut.setdefault(s, []).append((a, w))
    for (i, a), others in word_clashes(candidates, slot_suffixes, multi_cut).items():
        for j, b in others:
            if i < j:
                model.add_forbidden_assignments([ys[i], ys[j]], [(a, b)])
    if modulo:
        at_prefix = {n: ys[i] for i, n in enumerate(lay.prefix_nodes)}
        for g in problem.stabiliser(vector):
            if not g.is_identity:
                src = g.source_indices()
                pairs = [(at_prefix[j], at_prefix[src[j]]) for j in range(problem.nodes) if j in at_prefix]
                engine.lex_leq(model, pairs, f"stab_{g.name}")
    return model, ys
