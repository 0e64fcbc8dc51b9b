"""Shared fixtures: an isolated cache folder, the outside test data of ../shared/data, and the
template kind in the registry (``CPWORDS_EXTRA_KINDS``).

Test modules import helpers from here as ``from conftest import ...`` (never ``tests.conftest``):
the suite runs against the installed package, with the repository root off ``sys.path``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"
EXAMPLES = ROOT / "examples"

# The fill-in template of a new kind joins the registry as one more kind, in this process and in
# every ``python -m cpwords`` the tests start: each shared sweep solves it, so it cannot go stale.
# Set here, before any test module reads the registry (the parametrisations read it when collected).
os.environ["CPWORDS_EXTRA_KINDS"] = "cpwords.puzzles._template"


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Never touch the user's cache: derived indexes go to a temporary folder."""
    mp = pytest.MonkeyPatch()
    mp.setenv("CPWORDS_CACHE_DIR", str(tmp_path_factory.mktemp("cpwords-cache")))
    # A command whose time limit stops a one-time build finishes it in a detached process; here
    # that would be work running beside later tests (tests/test_first_use_builds.py turns it on).
    mp.setenv("CPWORDS_NO_BACKGROUND_BUILDS", "1")
    yield
    mp.undo()


@pytest.fixture
def shared_data() -> Path:
    """../shared/data (outside test data); the test is skipped when the folder is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return SHARED_DATA


def shared_file(name: str) -> Path:
    """A file of ../shared/data, skipping the calling test when it is absent."""
    path = SHARED_DATA / name
    if not path.is_file():
        pytest.skip(f"../shared/data/{name} is not present")
    return path


#: ``common-20k`` as shipped before issue 25 (list version 1): tests that pin figures computed on the
#: version-1 common lists read their words from this copy (docs/dictionaries.md).
COMMON_V1 = ROOT / "tests" / "data" / "common-20k-v1.txt"


def common_v1_words(n: int) -> list[str]:
    """The version-1 ``common-N`` (the first ``n`` words of the copy, most frequent first)."""
    lines = COMMON_V1.read_text(encoding="ascii").splitlines()
    words = [line for line in lines if line and not line.startswith("#")]
    assert n <= len(words)
    return words[:n]


def common_v1(n: int) -> dict[str, list[str]]:
    """A spec ``dictionary`` holding the version-1 ``common-N`` inline."""
    return {"words": common_v1_words(n)}


def common_v1_file(n: int, folder: Path) -> str:
    """The version-1 ``common-N`` written to a word-list file in ``folder`` (for ``--dict``)."""
    path = folder / f"common-{n}-v1.txt"
    path.write_text("\n".join(common_v1_words(n)) + "\n", encoding="ascii")
    return str(path)


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state) of every process, read from /proc."""
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            out[int(entry)] = (int(fields[1]), fields[0])
    return out


def descendants(pid: int) -> set[int]:
    """Running (not zombie) processes below ``pid``."""
    table = _processes()
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, (parent, state) in table.items() if parent in frontier and state != "Z"} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    table = _processes()
    return {p for p in pids if p in table and table[p][1] != "Z"}


def stop_process(proc: subprocess.Popen[str]) -> None:
    """End a server (or other) process a test started: SIGTERM, then SIGKILL after 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# ---------------------------------------------------------------- slow tests are findings

#: Seconds past which a test outside the ``sweep`` marker is reported at the end of the run (CI
#: shows it; it is a finding for the next issue note: the README's command has five minutes).
SLOW_TEST_S = 20.0
_durations: dict[str, float] = {}
_sweep: set[str] = set()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Every phase of every test, on the controller too when the tests run on xdist workers."""
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration
    if "sweep" in report.keywords:
        _sweep.add(report.nodeid)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    slow = sorted(((s, n) for n, s in _durations.items() if s > SLOW_TEST_S and n not in _sweep), reverse=True)
    if slow:
        terminalreporter.section(f"tests over {SLOW_TEST_S:.0f} s outside the sweep (findings for the next issue note)")
        for seconds, nodeid in slow:
            terminalreporter.write_line(f"{seconds:6.1f} s  {nodeid}")
    terminalreporter.write_line(f"summed test time: {sum(_durations.values()):.1f} s over {len(_durations)} tests")
