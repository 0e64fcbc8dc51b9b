"""How a test that bounds seconds stays honest on a busy machine.

A promise such as "``--time-limit 1`` ends the command within about a second and a second" has a
part that the clock on the wall bounds whatever the load (the search stops at its deadline, the
check at half a second past it, the one-second backstop after Ctrl-C) and a part that is work
done by the processor (starting Python and importing the engines, printing, stopping). On a
machine where other processes run, the second part takes longer by as much as the processor is
shared. So a test that bounds seconds:

- measures how shared the processor is *now*, just before and just after the step it times
  (:func:`contention`: the wall time of a fixed piece of processor work over its processor
  time, 1.0 on an idle machine, about 1.5 with three busy processes on two cores);
- allows the wall-clock part as it is, and the processor part times that factor
  (:meth:`Stopwatch.allowed`): a machine four times slower gets four times the start-up and
  printing allowance, but never more time for the search itself;
- measures start-up in processor seconds (:func:`startup_cpu_s`), which do not grow with the load.

With ``PACE_LOG=FILE`` in the environment, every timed step appends a line to FILE: its share of
the allowance, seconds taken, seconds allowed, contention and name (``sort -rn FILE | head``
shows the closest calls).

Tests outside the ``timing`` marker never depend on how long anything takes: a timeout there
(:data:`HANG_S`) only stops a test that hangs, and a deadline is exercised with a budget that is
stopped or spent (see docs/design.md, "Tests").
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

#: A guard against a test that hangs, never a bound on how long something may take: a command
#: that takes seconds on an idle machine takes several times as long on a busy one.
HANG_S = 600.0

#: What a solving command imports (the reference for start-up).
STARTUP_IMPORTS = ("import cpwords.cli, cpwords.api, ortools.sat.python.cp_model, pysat.solvers, numpy, "
                   "rich.table")


def contention(cpu_s: float = 0.15) -> float:
    """How many times its processor time a fixed piece of processor work takes on this machine
    now (at least 1.0): 1.0 when a core is free, about 1.5 with three busy processes on two cores.

    >>> 1.0 <= contention(0.01) < 1000
    True
    """
    wall0, cpu0 = time.monotonic(), time.thread_time()
    spins = 0
    while time.thread_time() - cpu0 < cpu_s:
        spins += 1
    return max(1.0, (time.monotonic() - wall0) / max(time.thread_time() - cpu0, 1e-9))


class Stopwatch:
    """Times one step of a test and how shared the processor was around it.

    >>> with Stopwatch() as watch:
    ...     pass
    >>> watch.elapsed < watch.allowed(0.0, 1.0)
    True
    """

    def __init__(self, sample_cpu_s: float = 0.15) -> None:
        self.sample_cpu_s = sample_cpu_s
        self.elapsed = 0.0
        self.contention = 1.0

    def __enter__(self) -> Stopwatch:
        self._before = contention(self.sample_cpu_s)
        self._t0 = time.monotonic()
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.elapsed = time.monotonic() - self._t0
        self.contention = max(self._before, contention(self.sample_cpu_s))

    def allowed(self, wall_s: float, cpu_s: float) -> float:
        """Seconds allowed for ``wall_s`` that the clock bounds plus ``cpu_s`` of processor work
        (as on an idle machine), at the contention measured around the step."""
        return wall_s + self.contention * cpu_s

    def assert_within(self, wall_s: float, cpu_s: float, what: str) -> None:
        allowed = self.allowed(wall_s, cpu_s)
        if os.environ.get("PACE_LOG"):  # a line per timed step: how close it came to its allowance
            with open(os.environ["PACE_LOG"], "a", encoding="utf-8") as log:
                log.write(f"{self.elapsed / allowed:.2f} {self.elapsed:.2f} {allowed:.2f} {self.contention:.2f} {what} "
                          f"(ended {time.strftime('%H:%M:%S')})\n")
        assert self.elapsed <= allowed, (
            f"{what}: {self.elapsed:.2f} s, allowed {allowed:.2f} s ({wall_s:g} s bounded by the clock "
            f"+ {cpu_s:.2f} s of work x contention {self.contention:.2f})")


_STARTUP: list[float] = []


def startup_cpu_s() -> float:
    """Processor seconds this machine takes to start Python and import what a solving command
    imports (the least of three runs, measured once a process)."""
    if not _STARTUP:
        runs = []
        for _ in range(3):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, "-c", STARTUP_IMPORTS], check=True, timeout=HANG_S)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            runs.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        _STARTUP.append(min(runs))
    return _STARTUP[0]


def cpu_s_of(pid: int) -> float:
    """Processor seconds used so far by a running process and its running descendants (Linux:
    /proc), 0.0 when it is gone."""
    from conftest import descendants

    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for p in {pid, *descendants(pid)}:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def wait_until(ready: Callable[[], bool], what: str, *, poll_s: float = 0.05, hang_s: float = HANG_S) -> None:
    """Poll ``ready()`` until it is true; fail (naming ``what``) only if the test hangs."""
    end = time.monotonic() + hang_s
    while not ready():
        assert time.monotonic() < end, f"{what}: still waiting after {hang_s:.0f} s"
        time.sleep(poll_s)


def run_cpwords(argv: Sequence[str], **options: Any) -> subprocess.CompletedProcess[str]:
    """``python -m cpwords ARGV`` as a user runs it (a hang guard only), its output captured.

    Standard output goes to a temporary file, as a user's ``> FILE``, and is read back when the
    command has ended: a timed command is not slowed by this process reading megabytes through a
    pipe while it runs (that cost 0.2 to 0.9 s on a 12 MB listing).
    """
    options.setdefault("timeout", HANG_S)
    command = [sys.executable, "-m", "cpwords", *argv]
    if "stdout" in options or "capture_output" in options:
        return subprocess.run(command, text=True, check=False, **options)
    options.setdefault("stderr", subprocess.PIPE)
    with tempfile.TemporaryFile() as out:
        run = subprocess.run(command, stdout=out, text=True, check=False, **options)
        out.seek(0)
        run.stdout = out.read().decode("utf-8", errors="replace")
    return run


def warm_cache(spec: Any) -> None:
    """Build what solving ``spec`` needs into the disk cache (the dictionary's indexes), whatever
    the machine's load: the builds run to their end, the search gets a millisecond. A test then
    times a second use, as a user's second run."""
    import cpwords
    from cpwords.engines.budget import free_builds

    with free_builds():
        cpwords.solve(spec, time_limit=0.001, check=False)


def warm_cache_of_command(argv: Sequence[str], **options: Any) -> None:
    """The same for a command line: run it at a millisecond's limit with background builds on (as a
    user's first run), and wait for the build it hands to the background to end."""
    import json

    env = {**options.pop("env", os.environ), "CPWORDS_NO_BACKGROUND_BUILDS": ""}
    run = run_cpwords([*argv, "--time-limit", "0.001", "--json"], env=env, **options)
    assert run.returncode in (0, 1), run.stderr[-2000:]
    results = json.loads(run.stdout)
    for result in results if isinstance(results, list) else [results]:
        pid = result.get("stats", {}).get("background_build_pid")
        if pid:
            wait_until(lambda pid=pid: not running(pid), "the background build")


def running(pid: int) -> bool:
    """True while ``pid`` runs (an ended child of a container without init shows as a zombie)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for_server(proc: subprocess.Popen[bytes], log: Path, base: str) -> None:
    """Wait until the ``cpwords serve`` started as ``proc`` (its output in ``log``) answers
    ``BASE/healthz``; fail with its output if it ends first."""
    import httpx
    import pytest

    def up() -> bool:
        if proc.poll() is not None:
            pytest.fail(f"the server did not start:\n{log.read_text()}")
        try:
            return httpx.get(f"{base}/healthz", timeout=HANG_S).status_code == 200
        except httpx.HTTPError:
            return False

    wait_until(up, "the server's /healthz", poll_s=0.1)


def big_word_list(path: Path, words: int = 400_000) -> Path:
    """A word list of ``words`` made-up words (seeded) holding cold, cord, card, ward and warm, written
    to ``path``: a big user list whose first use takes seconds."""
    import random

    rng = random.Random(7)
    chosen = {"cold", "cord", "card", "ward", "warm"}
    while len(chosen) < words:
        chosen.add("".join(rng.choice("etaoinsrhldcumwpgfy") for _ in range(rng.randint(3, 9))))
    path.write_text("\n".join(chosen) + "\n")
    return path
