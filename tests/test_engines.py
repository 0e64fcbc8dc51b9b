"""The engine helpers on models whose answers are known by hand, and against each other."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model
from pace import HANG_S, Stopwatch

from cpwords.engines import cpsat, sat
from cpwords.engines.budget import Budget
from cpwords.results import Status

QUEENS = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92}


def queens_cpsat(n: int) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{i}") for i in range(n)]
    model.add_all_different(q)
    model.add_all_different([q[i] + i for i in range(n)])
    model.add_all_different([q[i] - i for i in range(n)])
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
    found = cpsat.enumerate_solutions(model, q, Budget(), keep=True)
    assert found.count == QUEENS[n]
    assert found.complete
    assert found.status == (Status.OPTIMAL if QUEENS[n] else Status.INFEASIBLE)
    assert len({tuple(s) for s in found.solutions}) == QUEENS[n]
    m, x = queens_sat(n)
    assert sat.enumerate_models(m, x, Budget()).count == QUEENS[n]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_permutations_are_counted_by_both_helpers(n: int) -> None:
    model = cp_model.CpModel()
    xs = [model.new_int_var(0, n - 1, f"x{i}") for i in range(n)]
    model.add_all_different(xs)
    assert cpsat.enumerate_solutions(model, xs, Budget()).count == math.factorial(n)
    m = sat.CnfModel()
    v = {(i, j): m.var((i, j)) for i in range(n) for j in range(n)}
    for i in range(n):
        m.exactly_one([v[i, j] for j in range(n)])
        m.exactly_one([v[j, i] for j in range(n)])
    # Projection on all variables; auxiliary variables of the encodings must not multiply counts.
    assert sat.enumerate_models(m, list(v.values()), Budget()).count == math.factorial(n)


def test_enumeration_limit_and_callback_stop() -> None:
    model, q = queens_cpsat(8)
    limited = cpsat.enumerate_solutions(model, q, Budget(), limit=5)
    assert (limited.count, limited.complete, limited.status) == (5, False, Status.FEASIBLE)
    seen = []
    stopped = cpsat.enumerate_solutions(model, q, Budget(), on_solution=lambda s: seen.append(s) or len(seen) < 3)
    assert stopped.count == 3 and not stopped.complete
    m, x = queens_sat(8)
    assert sat.enumerate_models(m, x, Budget(), limit=7).count == 7
    assert sat.enumerate_models(m, x, Budget(), on_model=lambda s: False).count == 1


def test_cpsat_optimise_and_infeasible() -> None:
    model = cp_model.CpModel()
    x = model.new_int_var(0, 10, "x")
    y = model.new_int_var(0, 10, "y")
    model.add(x + 2 * y >= 7)
    model.minimize(x + y)
    out = cpsat.solve(model, Budget(), workers=1, seed=3)
    assert out.status == Status.OPTIMAL and out.objective == 4
    model.add(x + y <= 3)
    assert cpsat.solve(model, Budget()).status == Status.INFEASIBLE


def test_sat_time_limit_interrupts_hard_instance() -> None:
    # Pigeonhole 11 into 10 is unsatisfiable and very hard for CDCL: it must stop at the limit.
    m = sat.CnfModel()
    p = {(i, h): m.var((i, h)) for i in range(11) for h in range(10)}
    for i in range(11):
        m.at_least_one([p[i, h] for h in range(10)])
    for h in range(10):
        for i, j in itertools.combinations(range(11), 2):
            m.add([-p[i, h], -p[j, h]])
    out = sat.solve(m, Budget(0.2))
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
    out, best = sat.minimise_count(m, x, Budget())
    assert out.status == Status.OPTIMAL and best == expected
    assert all(out.is_true(x[a]) or out.is_true(x[b]) for a, b in edges)
    # CP-SAT: objective
    model = cp_model.CpModel()
    y = [model.new_bool_var(f"y{i}") for i in range(n)]
    for a, b in edges:
        model.add_bool_or([y[a], y[b]])
    model.minimize(sum(y))
    res = cpsat.solve(model, Budget(), workers=1)
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
    found = sat.enumerate_models(m, projection, Budget())
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
    assert sat.enumerate_models(m, x, Budget()).count == math.comb(6, 2)
    m = sat.CnfModel()
    x = [m.var(i) for i in range(5)]
    m.at_least_k(x, 4)
    assert sat.enumerate_models(m, x, Budget()).count == math.comb(5, 4) + 1


@pytest.mark.parametrize("length", [1, 2, 3])
@pytest.mark.parametrize("size", [2, 3])
def test_cpsat_lex_leq_admits_exactly_the_lex_ordered_pairs(length: int, size: int) -> None:
    """The CP-SAT lex_leq against brute force, with every helper boolean fixed by the values
    (otherwise enumeration would count helper assignments, not pairs)."""
    model = cp_model.CpModel()
    xs = [model.new_int_var(0, size - 1, f"x{i}") for i in range(length)]
    ys = [model.new_int_var(0, size - 1, f"y{i}") for i in range(length)]
    cpsat.lex_leq(model, list(zip(xs, ys, strict=True)), "t")
    found = cpsat.enumerate_solutions(model, xs + ys, Budget())
    expected = {(a, b) for a in itertools.product(range(size), repeat=length)
                for b in itertools.product(range(size), repeat=length) if a <= b}
    assert found.count == len(expected)
    assert {(tuple(v[:length]), tuple(v[length:])) for v in found.solutions} == expected


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["square4", "ring", "line"]), st.integers(2, 3))
def test_cpsat_lex_leaders_are_one_per_orbit(shape: str, size: int) -> None:
    """lex_leader_constraints keep exactly the canonical forms of a computed symmetry group."""
    from cpwords.geometry import canonical_form, point_symmetries

    points = {"square4": [(0, 0), (0, 1), (1, 0), (1, 1)], "ring": [(0, 0), (0, 2), (2, 0), (2, 2), (1, 1)],
              "line": [(0, 0), (0, 1), (0, 2)]}[shape]
    group = point_symmetries(points)
    model = cp_model.CpModel()
    xs = [model.new_int_var(0, size - 1, f"x{i}") for i in range(len(points))]
    cpsat.lex_leader_constraints(model, xs, group)
    found = cpsat.enumerate_solutions(model, xs, Budget())
    leaders = {canonical_form(v, group) for v in itertools.product(range(size), repeat=len(points))}
    assert {tuple(v) for v in found.solutions} == leaders


def test_budget_reads_and_children() -> None:
    b = Budget(HANG_S)  # a deadline no test reaches: what is left is between nothing and all of it
    assert 0 < b.left() <= HANG_S and not b.expired()
    child = b.child(0.0)
    assert child.expired() and child.reason == "time_limit" and not b.expired()
    assert Budget(float("inf")).left() is None and Budget(1e30).left() is None
    b.stop("interrupted")
    assert b.child(5).expired() and b.child(5).stopped


def test_budget_travels_to_other_processes_with_its_deadline() -> None:
    import pickle

    b = Budget(0.5)
    copy = pickle.loads(pickle.dumps(b))
    assert copy.deadline == b.deadline and not copy.stopped


@pytest.mark.timing  # it bounds seconds: run alone (see pyproject.toml)
def test_stop_request_reaches_a_running_cpsat_search() -> None:
    """A stop from another thread (what Ctrl-C does) ends a hard CP-SAT search at once: the stop
    comes 0.3 s in (the clock's); building the model and ending the search are processor work."""
    import threading

    model = cp_model.CpModel()
    n = 13  # pigeonhole 13 into 12: unsatisfiable and slow to prove (minutes without the stop)
    x = [[model.new_bool_var(f"p{i}_{h}") for h in range(n - 1)] for i in range(n)]
    for i in range(n):
        model.add_exactly_one(x[i])
    for h in range(n - 1):
        model.add_at_most_one(x[i][h] for i in range(n))
    budget = Budget()
    with Stopwatch() as watch:
        threading.Timer(0.3, budget.stop).start()
        out = cpsat.solve(model, budget, workers=2, parameters={"symmetry_level": 0, "cp_model_presolve": False})
    assert out.status == Status.UNKNOWN and out.stopped == "interrupted"
    watch.assert_within(0.3, 0.5, "a CP-SAT search stopped 0.3 s in")


def test_stop_request_reaches_a_running_sat_search() -> None:
    import threading

    m = sat.CnfModel()
    p = {(i, h): m.var((i, h)) for i in range(12) for h in range(11)}
    for i in range(12):
        m.at_least_one([p[i, h] for h in range(11)])
    for h in range(11):
        for i, j in itertools.combinations(range(12), 2):
            m.add([-p[i, h], -p[j, h]])
    budget = Budget()
    threading.Timer(0.3, budget.stop).start()
    out = sat.solve(m, budget)
    assert out.status == Status.UNKNOWN and out.stopped == "interrupted"


def test_increasing_k_finds_the_first_satisfiable_size_and_stops_with_the_budget() -> None:
    from cpwords.engines.minimum import increasing_k

    calls = []

    def solve_k(k: int, budget: Budget) -> tuple[Status, str | None, dict]:
        calls.append(k)
        return (Status.OPTIMAL, f"k={k}", {"solver_s": 0.5}) if k >= 3 else (Status.INFEASIBLE, None, {"solver_s": 0.5})

    m = increasing_k(range(1, 6), solve_k, Budget())
    assert (m.k, m.answer, m.complete, calls, m.stats["solver_s"]) == (3, "k=3", True, [1, 2, 3], 1.5)
    none = increasing_k(range(1, 3), solve_k, Budget())
    assert none.k is None and none.complete
    spent = Budget()
    spent.stop()
    assert increasing_k(range(1, 6), solve_k, spent).stopped == "interrupted"


def test_a_forked_call_returns_and_raises() -> None:
    """A call run in a forked process gives back its value, and its exception."""
    from cpwords.engines import forked

    assert forked.call(lambda: {"answer": [1, 2, 3]}, Budget(None)) == {"answer": [1, 2, 3]}

    def fails() -> None:
        raise ValueError("from the child")

    with pytest.raises(ValueError, match="from the child"):
        forked.call(fails, Budget(None))


@pytest.mark.timing  # it bounds seconds: run alone (see pyproject.toml)
def test_a_forked_call_is_killed_on_a_stop_request() -> None:
    """A stop request kills a forked call at once (a call of 30 s, stopped 0.2 s in: the clock's;
    forking and killing are processor work)."""
    import threading
    import time

    from cpwords.engines import forked

    budget = Budget(None)  # no deadline: only the stop request ends the call
    with Stopwatch() as watch:
        threading.Timer(0.2, budget.stop).start()
        assert forked.call(lambda: time.sleep(30), budget) is None
    assert budget.reason == "interrupted"
    watch.assert_within(0.2, 0.5, "a forked call stopped 0.2 s in")
