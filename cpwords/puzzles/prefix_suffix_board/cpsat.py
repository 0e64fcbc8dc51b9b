"""The CP-SAT engine of a prefix/suffix board: its exact count by suffix placements, and the other
tasks, over the models of :mod:`.cpsat_models` (the whole board, the placement model of the suffix
slots alone, the fillings model of one placement's prefix slots).

**Counting** (``count_boards``) is split by suffix placements, as in the other engines:

1. CP-SAT enumerates the lex-leader suffix placements of the *placement model*
   (:func:`.cpsat_models.placement_model`: the suffix slots only, with Hall's conditions on the
   prefix slots around them). On common-10k it gives 3,076 placements, of which 2,154 admit a
   board; the whole-board model instead needs minutes per placement to prove the next one.
2. Each placement's prefix fillings are counted by CP-SAT enumeration of the small model of
   that placement (:func:`fillings_model`) while they are few — at most :data:`FEW_FILLINGS` —
   and otherwise by the native engine's exact counting (:func:`.counting.count_fillings`).
   ``stats`` says how many placements each way took (``placements_enumerated`` and
   ``placements_counted_natively``). A placement adds fillings × its orbit size to the raw count
   and fillings / |stabiliser| to the count modulo symmetry (:meth:`Problem.placement_count`).

The placements are the shards of a cluster run: :func:`count_placement` counts one.

**Listing** uses the same two small models instead of the board model, whose word variables
and tables make CP-SAT list several times slower (and find no common-10k board in 30 s):
``solve`` enumerates the fillings model of the given suffixes, ``enumerate`` enumerates the
placements and, from each one's solution callback, its fillings under the lex-leader of the
placement's stabiliser (:func:`enumerate_`).
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from cpwords.engines import cpsat as engine
from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.engines.outcome import Enumeration
from cpwords.geometry import orbit_size
from cpwords.puzzles.prefix_suffix_board.cpsat_models import build_model, fillings_model, placement_model
from cpwords.puzzles.prefix_suffix_board.problem import PlacementCount, Problem
from cpwords.results import Status

#: Placements with at most this many fillings are counted by CP-SAT enumeration, the others by
#: the native counting. Measured on 60 common-10k placements: CP-SAT lists about 25,000
#: fillings a second after a set-up of about 7 ms, the native count takes about 0.5 ms whatever
#: the number. At 1,000 an enumerated placement takes at most about 50 ms, and so does the
#: enumeration given up on a placement that has more (about 40% of them on common-10k).
FEW_FILLINGS = 1_000

#: Parameters of the placement enumeration: a fixed search in slot order (the lex-leader puts
#: small ids first, so that the first slots' values decide most conditions early), without
#: probing, symmetry detection or linear relaxation, which only delay the first placement (on
#: common-10k from about 9 s to 3 s; none of them removes a solution, so the count stays exact).
_PLACEMENT_PARAMETERS: dict[str, Any] = {"search_branching": cp_model.FIXED_SEARCH, "cp_model_probing_level": 0,
                                         "symmetry_level": 0, "linearization_level": 0}

#: Parameters of a fillings enumeration: a fixed search (slot by slot, smallest value first).
#: Enumeration stays exact whatever the branching; on common-10k this lists about 50,000
#: fillings a second against 35,000 with the default portfolio-less search.
_FILLINGS_PARAMETERS: dict[str, Any] = {"search_branching": cp_model.FIXED_SEARCH}


# ---------------------------------------------------------------- counting by placements


def placement_vectors(problem: Problem, budget: Budget, seed: int | None = None
                      ) -> tuple[list[tuple[int, ...]], Enumeration]:
    """The lex-leader suffix placements of :func:`placement_model`, by CP-SAT enumeration (a
    superset of those admitting a board: the others have no filling)."""
    model, xs = placement_model(problem, budget)
    vectors: list[tuple[int, ...]] = []

    def keep(values: list[int]) -> None:
        vectors.append(tuple(values))

    en = engine.enumerate_solutions(model, xs, budget, on_solution=keep, seed=seed, keep=False,
                                    parameters=_PLACEMENT_PARAMETERS)
    return vectors, en


def enumerated_fillings(problem: Problem, vector: tuple[int, ...], budget: Budget, limit: int | None
                        ) -> Enumeration:
    """CP-SAT enumeration of one placement's fillings, stopping after ``limit`` (then incomplete,
    ``stopped == "limit"``)."""
    model, ys = fillings_model(problem, vector)
    return engine.enumerate_solutions(model, ys, budget, limit=None if limit is None else limit + 1, keep=False,
                                      parameters=_FILLINGS_PARAMETERS)


def count_placement(problem: Problem, vector: tuple[int, ...], *, budget: Budget | None = None,
                    few: int = FEW_FILLINGS, search: Any = None) -> tuple[PlacementCount, str]:
    """The boards of one lex-leader suffix placement (a shard of a cluster count): CP-SAT
    enumeration when it has at most ``few`` fillings, the native count otherwise.

    Returns the count and how it was made (``enumeration`` or ``native``). ``search`` is a
    :class:`.native.BoardSearch` of the problem to reuse (made when needed).

    Raises
    ------
    SearchTimeout
        When the budget ends during the enumeration.
    """
    from cpwords.engines.budget import SearchTimeout
    from cpwords.puzzles.prefix_suffix_board import native

    budget = budget or Budget()
    en = enumerated_fillings(problem, vector, budget, few)
    if en.complete:
        return problem.placement_count(vector, en.count), "enumeration"
    if en.stopped != "limit":
        raise SearchTimeout(en.stopped)
    search = search or native.BoardSearch(problem, budget=budget)
    return search.count_placement(vector), "native"


@engine.stops_while_building
def count_boards(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Boards modulo symmetry and raw: CP-SAT-enumerated lex-leader suffix placements, each one's
    fillings enumerated by CP-SAT when few, counted natively otherwise.

    Each placement is counted from the enumeration's solution callback as it comes, so a count
    cut short by the time limit keeps the boards of the placements it finished (a lower bound).
    """
    import time

    from cpwords.engines.budget import SearchTimeout
    from cpwords.puzzles.prefix_suffix_board import native

    search = native.BoardSearch(problem, budget=budget)
    ways = {"enumeration": 0, "native": 0}
    tally = {"raw": 0, "orbits": 0, "suffix_sets": 0}
    fillings_s = 0.0
    cut: list[str] = []
    errors: list[Exception] = []
    with budget.progress("counting boards (CP-SAT placements)") as advance:

        def add(values: list[int]) -> bool:
            nonlocal fillings_s
            t0 = time.perf_counter()
            try:
                share, how = count_placement(problem, tuple(values), budget=budget, search=search)
            except SearchTimeout:
                cut.append(budget.reason or "time_limit")
                return False
            except Exception as exc:  # raised again below: CP-SAT would swallow it in a callback
                errors.append(exc)
                return False
            fillings_s += time.perf_counter() - t0
            ways[how] += 1
            tally["raw"] += share.raw
            tally["orbits"] += share.orbits
            tally["suffix_sets"] += share.fillings > 0
            advance(1)
            return True

        en = _enumerate_placements(problem, budget, spec.seed, add)
    if errors:
        raise errors[0]
    found = Found(count=tally["orbits"], stats=en.stats | {
        "raw_count": tally["raw"], "suffix_sets": tally["suffix_sets"], "placements": en.count,
        "placements_enumerated": ways["enumeration"], "placements_counted_natively": ways["native"],
        "fillings_s": round(fillings_s, 6),
        "method": f"CP-SAT-enumerated suffix placements x fillings enumerated by CP-SAT (at most {FEW_FILLINGS:,}) "
                  f"or counted natively"})
    if cut:
        return found.stop(cut[0])
    return found if en.complete else found.stop(en.stopped)


def _enumerate_placements(problem: Problem, budget: Budget, seed: int | None,
                          on_placement: Any) -> Enumeration:
    """CP-SAT enumeration of :func:`placement_model`, calling ``on_placement(values)`` for each
    (returning False stops it)."""
    model, xs = placement_model(problem, budget)
    return engine.enumerate_solutions(model, xs, budget, on_solution=on_placement, seed=seed, keep=False,
                                      parameters=_PLACEMENT_PARAMETERS)


@engine.stops_while_building
def count_suffix_sets(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Suffix placements (lex-leaders on the suffix slots) admitting a board: each placement of
    :func:`placement_model` is kept when its fillings model has a solution."""
    vectors, en = placement_vectors(problem, budget, spec.seed)
    found = Found(count=0, stats={"raw_count": 0, "placements": len(vectors)})
    if not en.complete:
        return found.stop(en.stopped)
    sgroup = problem.suffix_group()
    for vector in vectors:
        model, _ = fillings_model(problem, vector)
        out = engine.solve(model, budget, workers=1, seed=spec.seed)
        engine.add_stats(found.stats, out.stats)
        if out.status.solved:
            found.count = (found.count or 0) + 1
            found.stats["raw_count"] += orbit_size(vector, sgroup) if sgroup else 1
        elif out.status is not Status.INFEASIBLE:
            return found.stop(out.stopped)
    return found


# ---------------------------------------------------------------- listing and generating


def board_of(problem: Problem, vector: tuple[int, ...], prefixes: list[int]) -> list[int]:
    """X (token ids in node order) of a suffix placement and a filling of its prefix slots."""
    x = [0] * problem.nodes
    for n, v in zip(problem.layout.suffix_nodes, vector, strict=True):
        x[n] = v
    for n, v in zip(problem.layout.prefix_nodes, prefixes, strict=True):
        x[n] = v
    return x


def solve(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Every filling of the player's suffixes (counted; up to ``limit`` listed), by CP-SAT
    enumeration of the placement's fillings model (prefix slots only, no word variables)."""
    vector = tuple(problem.fixed_suffixes[n] for n in problem.layout.suffix_nodes)
    model, ys = fillings_model(problem, vector)
    found = Found()

    def keep(values: list[int]) -> None:
        if spec.limit is None or len(found.answers) < spec.limit:
            found.answers.append(board_of(problem, vector, values))

    en = engine.enumerate_solutions(model, ys, budget, on_solution=keep, seed=spec.seed, keep=False,
                                    parameters=_FILLINGS_PARAMETERS)
    found.count, found.stats = en.count, en.stats
    return found if en.complete else found.stop(en.stopped)


@engine.stops_while_building
def enumerate_(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Boards modulo symmetry, up to ``limit``, each as its orbit's lex-leader.

    Split as the count is: CP-SAT enumerates the lex-leader suffix placements
    (:func:`placement_model`), and for each one, from its solution callback, the fillings of
    :func:`fillings_model` with the stabiliser's lex-leader (one filling per orbit of boards).
    Boards of different placements lie in different orbits, so nothing repeats; each board is
    listed as its orbit's lex-leader under the whole group, as the other engines list it.
    """
    from cpwords.geometry import canonical_form

    group = problem.symmetry_group()
    found = Found(count=0)
    placements = 0
    inner: dict[str, Any] = {}
    cut: list[str] = []
    errors: list[Exception] = []

    def fill(vector_values: list[int]) -> bool:
        try:
            return fill_one(tuple(vector_values))
        except Exception as exc:  # raised again below: CP-SAT would swallow it in a callback
            errors.append(exc)
            return False

    def fill_one(vector: tuple[int, ...]) -> bool:
        nonlocal placements
        placements += 1
        model, ys = fillings_model(problem, vector, modulo=True)
        # one board past the limit tells a listing cut at the limit from one that ends there
        left = None if spec.limit is None else spec.limit - len(found.answers) + 1

        def keep(values: list[int]) -> None:
            if spec.limit is None or len(found.answers) < spec.limit:
                found.answers.append(list(canonical_form(board_of(problem, vector, values), group)))

        en = engine.enumerate_solutions(model, ys, budget, on_solution=keep, limit=left, keep=False,
                                        parameters=_FILLINGS_PARAMETERS)
        engine.add_stats(inner, en.stats)
        if not en.complete:
            cut.append(en.stopped or "time_limit")
            return False
        return True

    outer = _enumerate_placements(problem, budget, spec.seed, fill)
    if errors:
        raise errors[0]
    found.count = len(found.answers)
    found.stats = outer.stats | {"placements": placements, "fillings_solver_s": inner.get("solver_s", 0.0),
                                 "method": "CP-SAT-enumerated suffix placements x CP-SAT-enumerated fillings"}
    if cut:
        return found.stop(cut[0])
    return found if outer.complete else found.stop(outer.stopped)


@engine.stops_while_building
def generate(problem: Problem, spec: Any, budget: Budget) -> Found:
    """Random boards: a randomised search per board, each board forbidden before the next; every
    search gets only what is left of the run's budget."""
    model, xs = build_model(problem, "board", budget)
    found = Found()
    for k in range(spec.count):
        out = engine.solve(model, budget, workers=1, seed=(spec.seed or 0) + k, randomize=True)
        engine.add_stats(found.stats, out.stats)
        if out.status is Status.INFEASIBLE:
            return found
        if not out.status.solved:
            if not found.answers and out.message is not None:
                found.message, found.stats["stopped"] = out.message, out.stopped
            return found.stop(out.stopped)
        x = [out.value(v) for v in xs]
        found.answers.append(x)
        model.add_forbidden_assignments(xs, [x])
    return found
