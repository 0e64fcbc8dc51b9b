"""Exact projected model counting (#∃SAT) with Ganak, puzzle-agnostic.

The number of models of a CNF *projected* on a set of variables is the number of assignments
of those variables that extend to a model: auxiliary variables (cardinality encodings, order
literals, helper booleans) never multiply it. When the projection is a puzzle's answer
variables (one-hot slot literals), it is the number of answers; with lex-leader clauses added,
the number of answers modulo symmetry.

Ganak comes from PyPI as ``pyganak`` (MIT licence; its FlowCutter part BSD-2). Wheels exist
for CPython 3.9–3.13 on Linux x86-64 and ARM64 (manylinux_2_34, glibc 2.34 or later) and on
macOS on Apple silicon; there is none for Windows or Intel Macs, so the dependency is
optional: :func:`available` says whether it is installed, and callers fall back to
enumeration when it is not.

Ganak cannot be interrupted: ``Counter.count()`` runs to the end in C++ and holds the
interpreter. So every count runs in a worker process of the execution layer
(:class:`CountingPool`, on :func:`~cpwords.engines.parallel.parallel_map`): when the run's budget
ends (time limit, Ctrl-C, a cancelled job) the layer kills the workers, which ends a count at once. Callers split big
counts into many small ones (one per shard) so that a stop loses little work. The jobs and the
function that turns a job into a CNF are sent to the workers, so CNFs are built in parallel.

>>> count_models([[1, 2, 3]], [1, 2])  # x1 ∨ x2 ∨ x3, projected on x1, x2
4
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from cpwords.engines.budget import Budget
from cpwords.engines.parallel import MapRun, parallel_map

J = TypeVar("J", bound=Hashable)

#: What a job becomes: the clauses and the projection (the variables to count).
Cnf = tuple[list[list[int]], list[int]]


def available() -> bool:
    """True when ``pyganak`` can be imported."""
    try:
        import pyganak  # noqa: F401
    except ImportError:
        return False
    return True


def count_models(clauses: Iterable[Sequence[int]], projection: Sequence[int], *, seed: int = 0) -> int:
    """Models of ``clauses`` projected on ``projection``, counted by Ganak in this process.

    It cannot be interrupted: use it for small formulas, or through :class:`CountingPool`.
    An empty projection counts 1 for a satisfiable formula and 0 otherwise.

    Raises
    ------
    ImportError
        When ``pyganak`` is not installed.
    """
    from pyganak import Counter

    counter = Counter(verbose=0, seed=seed)
    top = 0
    for clause in clauses:
        if not clause:
            return 0  # Ganak rejects the empty clause; the formula is false
        counter.add_clause(clause)
        top = max(top, max(abs(lit) for lit in clause))
    if projection:
        top = max(top, max(projection))
    counter.new_vars(max(0, top - counter.nof_vars()))
    if not projection:
        # Ganak counts every variable when no sampling set is given: project on a fresh
        # variable fixed false, so that the count is 1 (satisfiable) or 0.
        counter.new_vars(1)
        fresh = counter.nof_vars()
        counter.add_clause([-fresh])
        projection = [fresh]
    counter.set_sampling_set(list(projection))
    with _quiet_stdout():
        return int(counter.count())


@contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Ganak prints comment lines ("c o ...") on file descriptor 1 for some formulas; a count
    must not write into a ``--json`` answer, so fd 1 points at /dev/null meanwhile."""
    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


@dataclass
class Counted(Generic[J]):
    """One job's count, the seconds it took in its worker and the size of its CNF."""

    job: J
    count: int
    seconds: float
    clauses: int


@dataclass
class PoolRun(MapRun):
    """How a :meth:`CountingPool.counts` run ended (:class:`~cpwords.engines.parallel.MapRun`:
    whether every job was counted, why not, ``done`` jobs), and the seconds spent counting."""

    counter_s: float = 0.0


_BUILD: Callable[[Any], Cnf] | None = None


def _set_build(build: Callable[[Any], Cnf]) -> None:
    """A worker's initializer: the function that turns a job into its CNF."""
    global _BUILD
    _BUILD = build


def _count_chunk(jobs: list[Any]) -> list[Counted[Any]]:
    assert _BUILD is not None
    out = []
    for job in jobs:
        t0 = time.perf_counter()
        clauses, projection = _BUILD(job)
        n = count_models(clauses, projection)
        out.append(Counted(job, n, time.perf_counter() - t0, len(clauses)))
    return out


class CountingPool(Generic[J]):
    """Count the models of many CNFs on local workers of the execution layer, which are killed
    when the budget ends (Ganak cannot be interrupted, so even one worker is a process of its own).

    Parameters
    ----------
    build:
        A picklable function from a job to its CNF (clauses, projection); it runs in the
        workers, which receive it once.
    budget:
        The run's budget: its deadline and stop switch end the workers.
    workers:
        Processes to count in (at least one: a count in this process could not be stopped).
    chunk:
        Jobs sent to a worker at a time (a stop loses at most ``workers × chunk`` counts).

    Example
    -------
    >>> pool = CountingPool(_demo_cnf, Budget())
    >>> sorted((c.job, c.count) for c in pool.counts([1, 2, 3]))
    [(1, 1), (2, 3), (3, 7)]
    >>> pool.run.complete
    True
    """

    def __init__(self, build: Callable[[J], Cnf], budget: Budget, *, workers: int = 1, chunk: int = 4) -> None:
        self.build = build
        self.budget = budget
        self.workers = max(1, workers)
        self.chunk = max(1, chunk)
        self.run = PoolRun()

    def counts(self, jobs: Iterable[J], advance: Callable[[int], None] | None = None) -> Iterator[Counted[J]]:
        """Each job's count, in the order they finish; stops early (``run.complete`` False)
        when the budget ends, after killing the workers."""
        self.run = run = PoolRun()
        job_list = list(jobs)
        if not job_list:
            return
        chunks = [job_list[i:i + self.chunk] for i in range(0, len(job_list), self.chunk)]
        mapped = parallel_map(_count_chunk, chunks, self.budget, workers=self.workers, isolate=True, grace_s=0.0,
                              initializer=_set_build, initargs=(self.build,))
        try:
            for _, done in mapped:
                for counted in done:
                    run.done += 1
                    run.counter_s += counted.seconds
                    yield counted
                if advance is not None:
                    advance(len(done))
        finally:
            run.complete, run.stopped = mapped.run.complete, mapped.run.stopped
            run.stats = {"counter_s": round(run.counter_s, 6), "counts": run.done, "workers": mapped.workers}


def _demo_cnf(n: int) -> Cnf:
    """A job for the example: at least one of n variables true (2^n − 1 models)."""
    return [list(range(1, n + 1))], list(range(1, n + 1))
