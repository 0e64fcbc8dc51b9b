"""The engine helpers on models whose answers are known by hand, and against each other."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from cpwords.engines import cpsat, sat
from cpwords.results import Status

QUEENS = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92}


def queens_cpsat(n: int) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    model = cp_model.CpModel()
    q = [model.NewIntVar(0, n - 1, f"q{i}") for i in range(n)]
    model.AddAllDifferent(q)
    model.AddAllDifferent([q[i] + i for i in range(n)])
    model.AddAllDifferent([q[i] - i for i in range(n)])
    return model, q


def queens_sat(n: int) -> tuple[sat.CnfModel, list[int]]:
    m = sat.CnfModel()
    x = {(r, c): m.var(("q", r, c)) for r in range(n) for c in range(n)}
    for r in range(n):
        m.exactly_one([x[r, c] for c in range(n)])
    for c in range(n):
        m.at_most_one([x[r, c] for r in range(n)])
    for d in range(-n, n):
        m.at_most_one([x[r, r + d] for r in range(n) if 0 <= r + d < n])
    for s in range(2 * n):
        m.at_most_one([x[r, s - r] for r in range(n) if 0 <= s - r < n])
    return m, list(x.values())


@pytest.mark.parametrize("n", sorted(QUEENS))
def test_queens_counts_agree_with_known_figures(n: int) -> None:
    model, q = queens_cpsat(n)
    found = cpsat.enumerate_solutions(model, q, keep=True)
    assert found.count == QUEENS[n]
    assert found.complete
    assert found.status == (Status.OPTIMAL if QUEENS[n] else Status.INFEASIBLE)
    assert len({tuple(s) for s in found.solutions}) == QUEENS[n]
    m, x = queens_sat(n)
    assert sat.enumerate_models(m, x).count == QUEENS[n]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_permutations_are_counted_by_both_helpers(n: int) -> None:
    model = cp_model.CpModel()
    xs = [model.NewIntVar(0, n - 1, f"x{i}") for i in range(n)]
    model.AddAllDifferent(xs)
    assert cpsat.enumerate_solutions(model, xs).count == math.factorial(n)
    m = sat.CnfModel()
    v = {(i, j): m.var((i, j)) for i in range(n) for j in range(n)}
    for i in range(n):
        m.exactly_one([v[i, j] for j in range(n)])
        m.exactly_one([v[j, i] for j in range(n)])
    # Projection on all variables; auxiliary variables of the encodings must not multiply counts.
    assert sat.enumerate_models(m, list(v.values())).count == math.factorial(n)


def test_enumeration_limit_and_callback_stop() -> None:
    model, q = queens_cpsat(8)
    limited = cpsat.enumerate_solutions(model, q, limit=5)
    assert (limited.count, limited.complete, limited.status) == (5, False, Status.FEASIBLE)
    seen = []
    stopped = cpsat.enumerate_solutions(model, q, on_solution=lambda s: seen.append(s) or len(seen) < 3)
    assert stopped.count == 3 and not stopped.complete
    m, x = queens_sat(8)
    assert sat.enumerate_models(m, x, limit=7).count == 7
    assert sat.enumerate_models(m, x, on_model=lambda s: False).count == 1


def test_cpsat_optimise_and_infeasible() -> None:
    model = cp_model.CpModel()
    x = model.NewIntVar(0, 10, "x")
    y = model.NewIntVar(0, 10, "y")
    model.Add(x + 2 * y >= 7)
    model.Minimize(x + y)
    out = cpsat.solve(model, workers=1, seed=3)
    assert out.status == Status.OPTIMAL and out.objective == 4
    model.Add(x + y <= 3)
    assert cpsat.solve(model).status == Status.INFEASIBLE


def test_sat_time_limit_interrupts_hard_instance() -> None:
    # Pigeonhole 11 into 10 is unsatisfiable and very hard for CDCL: it must stop at the limit.
    m = sat.CnfModel()
    p = {(i, h): m.var((i, h)) for i in range(11) for h in range(10)}
    for i in range(11):
        m.at_least_one([p[i, h] for h in range(10)])
    for h in range(10):
        for i, j in itertools.combinations(range(11), 2):
            m.add([-p[i, h], -p[j, h]])
    out = sat.solve(m, time_limit=0.2)
    assert out.status == Status.UNKNOWN


def _vertex_cover_brute(n: int, edges: list[tuple[int, int]]) -> int:
    for k in range(n + 1):
        for chosen in itertools.combinations(range(n), k):
            s = set(chosen)
            if all(a in s or b in s for a, b in edges):
                return k
    return n


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 8).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=14))))
def test_minimum_vertex_cover_agrees_across_helpers_and_brute_force(case: tuple[int, list[tuple[int, int]]]) -> None:
    n, raw = case
    edges = [(a, b) for a, b in raw if a != b]
    expected = _vertex_cover_brute(n, edges)
    # SAT: incremental minimisation of a count
    m = sat.CnfModel()
    x = [m.var(i) for i in range(n)]
    for a, b in edges:
        m.add([x[a], x[b]])
    out, best = sat.minimise_count(m, x)
    assert out.status == Status.OPTIMAL and best == expected
    assert all(out.is_true(x[a]) or out.is_true(x[b]) for a, b in edges)
    # CP-SAT: objective
    model = cp_model.CpModel()
    y = [model.NewBoolVar(f"y{i}") for i in range(n)]
    for a, b in edges:
        model.AddBoolOr([y[a], y[b]])
    model.Minimize(sum(y))
    res = cpsat.solve(model, workers=1)
    assert res.status == Status.OPTIMAL and res.objective == expected


@pytest.mark.parametrize("length", [1, 2, 3])
@pytest.mark.parametrize("size", [2, 3])
def test_lex_leq_on_order_encoded_integers(length: int, size: int) -> None:
    """lex_leq admits exactly the pairs of vectors with X ≤lex Y (ties allowed)."""
    m = sat.CnfModel()
    X = [[m.var(("x", i, v)) for v in range(size)] for i in range(length)]
    Y = [[m.var(("y", i, v)) for v in range(size)] for i in range(length)]
    for row in X + Y:
        m.exactly_one(row)
    m.lex_leq([m.order_literals(r) for r in X], [m.order_literals(r) for r in Y])
    projection = [v for row in X + Y for v in row]
    found = sat.enumerate_models(m, projection)
    expected = sum(1 for a in itertools.product(range(size), repeat=length)
                   for b in itertools.product(range(size), repeat=length) if a <= b)
    assert found.count == expected
    for model_vars in found.models:
        a = tuple(next(v for v in range(size) if X[i][v] in model_vars) for i in range(length))
        b = tuple(next(v for v in range(size) if Y[i][v] in model_vars) for i in range(length))
        assert a <= b


def test_cardinality_building_blocks() -> None:
    m = sat.CnfModel()
    x = [m.var(i) for i in range(6)]
    m.exactly_k(x, 2)
    assert sat.enumerate_models(m, x).count == math.comb(6, 2)
    m = sat.CnfModel()
    x = [m.var(i) for i in range(5)]
    m.at_least_k(x, 4)
    assert sat.enumerate_models(m, x).count == math.comb(5, 4) + 1
