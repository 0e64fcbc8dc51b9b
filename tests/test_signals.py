"""Ctrl-C and SIGTERM stop every engine: exit 130 within about a second, one line, no orphans.

Each test starts ``python -m cpwords`` on a search that runs for far longer than the test, sends
the signal the way a terminal does (Ctrl-C: SIGINT to the whole process group, workers included)
or the way a supervisor does (SIGTERM to the process), and checks the exit code, the time it took,
stderr, and that no process the command started is left running. The bound is generous (a
deadline is a correctness check here, not a benchmark): the run's own stop through the solvers'
interruption, else the one-second backstop of :func:`cpwords.commands.signals.stop_on_signals`, plus the
processor work of stopping, stretched by the machine's contention (tests/pace.py). The signal is
sent once the command has done more processor work than starting takes, however long that takes.

The README's test command keeps three cases (Ctrl-C to a run with local workers, SIGTERM to a
C++ solver, Ctrl-C to a search in Python loops); the others are marked ``sweep``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import alive, descendants
from pace import HANG_S, Stopwatch, cpu_s_of, startup_cpu_s, wait_until

from cpwords import puzzles

#: Seconds from the signal to the exit: the one-second backstop (the clock bounds it) ...
BACKSTOP_S = 1.0
#: ... and the processor work of stopping solvers and workers and tearing the process down.
TEARDOWN_CPU_S = 1.5
#: Processor seconds past start-up after which the command is searching.
SEARCHING_CPU_S = 0.5

#: Searches that run far longer than the test, one (at least) for every kind x engine that can run
#: that long: each kind's ``LONG_RUNS`` (its ``cases.py``), by name.
CASES = {name: argv for kind in puzzles.kinds().values() for name, argv in kind.test_cases().LONG_RUNS.items()}


def test_every_engine_that_can_run_long_has_a_case() -> None:
    covered = {(argv[0], argv[argv.index("--engine") + 1]) for argv in CASES.values() if "--engine" in argv}
    for kind in puzzles.kinds().values():
        for engine in kind.engines:  # QUICK_ENGINES: those that end within a second on any input
            if engine not in kind.test_cases().QUICK_ENGINES:
                assert (kind.command, engine) in covered, (kind.command, engine)


def interrupt(argv: list[str], sig: signal.Signals, *, group: bool, children: int = 0) -> tuple[int, Stopwatch, str, set[int]]:
    """Run cpwords, wait until it searches (and has ``children`` workers), signal it; returns the
    exit code, the stopwatch of the signal to the exit, stderr, and the processes it left running."""
    proc = subprocess.Popen([sys.executable, "-m", "cpwords", *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        searching = startup_cpu_s() + SEARCHING_CPU_S  # past the imports and into the search
        wait_until(lambda: proc.poll() is not None or cpu_s_of(proc.pid) >= searching, "the search to start")
        wait_until(lambda: proc.poll() is not None or len(descendants(proc.pid)) >= children, "the workers")
        assert proc.poll() is None, "the search ended before the signal: the instance is too easy"
        started = descendants(proc.pid)
        assert len(started) >= children
        with Stopwatch() as watch:
            if group:
                os.killpg(proc.pid, sig)  # what Ctrl-C on a terminal does
            else:
                proc.send_signal(sig)
            _, err = proc.communicate(timeout=HANG_S)
        wait_until(lambda: not alive(started), "the workers to end", hang_s=5 * watch.contention)
        return proc.returncode, watch, err, alive(started)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


#: The cases of the README's test command; the others are marked ``sweep``.
KEPT = {("board-workers", signal.SIGINT), ("cpsat-letter-boxed", signal.SIGTERM), ("trie-ruzzle", signal.SIGINT)}


def _marked(case: str, sig: signal.Signals, group: bool) -> object:
    marks = [pytest.mark.timing] if (case, sig) in KEPT else [pytest.mark.timing, pytest.mark.sweep]
    return pytest.param(case, sig, group, marks=marks, id=f"{case}-{sig.name}{'-group' if group else ''}")


@pytest.mark.parametrize(("case", "sig", "group"), [
    *(_marked(case, signal.SIGINT, True) for case in CASES if case != "cpsat-letter-boxed"),
    _marked("cpsat-letter-boxed", signal.SIGTERM, False),
    _marked("board-workers", signal.SIGTERM, False),
    _marked("native-grid", signal.SIGTERM, False),
])
def test_signal_stops_the_run(case: str, sig: signal.Signals, group: bool, tmp_path: Path) -> None:
    argv = [str(tmp_path / "run.sqlite") if a == "CKPT" else a for a in CASES[case]]
    code, watch, err, left = interrupt(argv, sig, group=group,
                                       children=2 if case in ("board-workers", "native-grid") else 0)
    assert code == 130, err
    watch.assert_within(BACKSTOP_S, TEARDOWN_CPU_S, f"{case} after {sig.name}")
    assert err.strip().splitlines() == ["cpwords: interrupted"], err
    assert not left, f"processes left running: {left}"
