"""cpwords installs everywhere: every core dependency has wheels for the platforms users have.

A core dependency without a wheel for a platform makes ``pip install .`` fail there (or build
from source, which needs a compiler). The check asks PyPI through pip itself, the way a user's
install would: ``pip install --dry-run --only-binary=:all: --platform P`` resolves a wheel from
the package metadata without downloading the wheels (about a second a call). It skips, saying
why, only when PyPI cannot be reached at all.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The platforms cpwords promises (README): Windows, both Macs, glibc 2.17+ Linux on both CPUs.
PLATFORMS = {
    "Windows x86-64": ["win_amd64"],
    "macOS arm64": ["macosx_14_0_arm64"],
    "macOS x86_64": ["macosx_14_0_x86_64"],
    "Linux x86_64 (manylinux2014)": ["manylinux2014_x86_64"],
    "Linux aarch64 (manylinux2014)": ["manylinux2014_aarch64"],
}
PYTHON = "3.11"  # requires-python's lower bound: the oldest interpreter users may have
TIMEOUT_S = 120


def core_dependencies() -> list[str]:
    """The ``[project] dependencies`` of pyproject.toml (not the extras)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        return list(tomllib.load(f)["project"]["dependencies"])


def _resolve(requirements: list[str], platforms: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--no-deps", "--ignore-installed",
               "--only-binary=:all:", "--python-version", PYTHON, "--implementation", "cp",
               "--disable-pip-version-check", "--target", str(tmp_path / "target")]
    for platform in platforms:
        command += ["--platform", platform]
    return subprocess.run([*command, *requirements], capture_output=True, text=True, timeout=TIMEOUT_S,
                          check=False)


@pytest.fixture(scope="module")
def pypi(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch folder, once PyPI answered for a pure-Python wheel (else the module skips)."""
    tmp = tmp_path_factory.mktemp("wheels")
    try:
        probe = _resolve(["PyYAML>=6.0"], ["win_amd64"], tmp)
    except subprocess.TimeoutExpired:
        pytest.skip(f"PyPI cannot be reached: pip did not answer within {TIMEOUT_S} s")
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["no output"])[-1]
        pytest.skip(f"PyPI cannot be reached (pip could not resolve PyYAML for Windows): {last}")
    return tmp


def test_core_dependencies_are_the_expected_ones() -> None:
    """pyganak (wheels for two platforms only) is an extra, not a core dependency."""
    names = {d.split(">")[0].split("=")[0].split("<")[0].strip().lower() for d in core_dependencies()}
    assert "pyganak" not in names and {"ortools", "python-sat", "numpy"} <= names


@pytest.mark.parametrize("platform", PLATFORMS)
def test_every_core_dependency_has_a_wheel(platform: str, pypi: Path) -> None:
    deps = core_dependencies()
    together = _resolve(deps, PLATFORMS[platform], pypi)
    if together.returncode == 0:
        return
    # Name the dependencies that failed, one pip call each.
    missing = [d for d in deps if _resolve([d], PLATFORMS[platform], pypi).returncode != 0]
    assert not missing, f"no {platform} wheel for Python {PYTHON}: {', '.join(missing)}"
    pytest.fail(f"pip could not resolve the core dependencies together for {platform}: {together.stderr[-500:]}")


def test_the_check_sees_a_missing_wheel(pypi: Path) -> None:
    """The check can fail: numpy 1.21.0 predates Python 3.11 and has no wheel for it anywhere (a
    fact that cannot change, unlike whether a package such as pyganak publishes more wheels)."""
    assert _resolve(["numpy==1.21.0"], PLATFORMS["Windows x86-64"], pypi).returncode != 0


def test_package_ships_py_typed() -> None:
    import cpwords

    assert (Path(cpwords.__file__).parent / "py.typed").is_file()


def test_sat_counts_without_pyganak_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the ``count`` extra the SAT engine's word-grid count enumerates, gives the same
    count, and its stats say which counter ran (the board count's twin is in test_prefix_suffix_board)."""
    from cpwords import api
    from cpwords.engines import counting

    words = ["abc", "bca", "cab", "aab", "bba", "acb", "bac", "cba"]
    spec = {"kind": "word_grid", "shape": "ring-3x3", "task": "count", "dictionary": {"words": words}}
    native = api.solve(spec, engine="native")
    monkeypatch.setattr(counting, "available", lambda: False)
    without = api.solve(spec, engine="sat")
    assert "no pyganak" in without.stats["method"] and "count" in without.stats["method"]
    assert without.count == native.count and without.count_exact
