"""cpwords installs everywhere: every core dependency has wheels for the platforms users have.

A core dependency without a wheel for a platform makes ``pip install .`` fail there (or build
from source, which needs a compiler). The check reads what PyPI holds the way pip's resolver
does: the list of every file of each dependency (PyPI's JSON simple index, PEP 691; one request a
package, shared by the module), and looks for a wheel of a version the requirement allows whose
tags a CPython 3.11 on the platform accepts (pip's tag rules, from ``packaging.tags``), not yanked,
whose ``Requires-Python`` admits 3.11. It skips, saying why, only when PyPI cannot be reached.
"""

from __future__ import annotations

import json
import tomllib
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from packaging import tags
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

ROOT = Path(__file__).resolve().parent.parent
INDEX = "https://pypi.org/simple"


def _manylinux2014(arch: str) -> list[str]:
    """What pip accepts for ``--platform manylinux2014_ARCH``: the glibc 2.17 tag (PEP 600's name
    of manylinux2014) and every older one, legacy aliases included."""
    return ([f"manylinux_2_{minor}_{arch}" for minor in range(17, 4, -1)]
            + [f"manylinux2014_{arch}", f"manylinux2010_{arch}", f"manylinux1_{arch}"])


#: The platforms cpwords promises (README): Windows, both Macs, glibc 2.17+ Linux on both CPUs; each
#: with the platform tags pip accepts there (a macOS 14 machine takes wheels for older macOS too).
PLATFORMS = {
    "Windows x86-64": ["win_amd64"],
    "macOS arm64": list(tags.mac_platforms((14, 0), "arm64")),
    "macOS x86_64": list(tags.mac_platforms((14, 0), "x86_64")),
    "Linux x86_64 (manylinux2014)": _manylinux2014("x86_64"),
    "Linux aarch64 (manylinux2014)": _manylinux2014("aarch64"),
}
PYTHON = (3, 11)  # requires-python's lower bound: the oldest interpreter users may have
#: Whether PyPI can be reached at all (no bound on how long an answer takes: a read that
#: stalls this long means no network).
TIMEOUT_S = 120


def core_dependencies() -> list[str]:
    """The ``[project] dependencies`` of pyproject.toml (not the extras)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        return list(tomllib.load(f)["project"]["dependencies"])


def _index_files(name: str) -> list[dict[str, Any]]:
    """Every file PyPI holds for project ``name`` (PEP 691 JSON)."""
    request = urllib.request.Request(f"{INDEX}/{canonicalize_name(name)}/",
                                     headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:
        files: list[dict[str, Any]] = json.load(answer)["files"]
    return files


#: A project's wheels that CPython 3.11 may install: (version, platform-independent-or-not tags).
Wheels = list[tuple[Version, frozenset[tags.Tag]]]


def wheels_for_python(files: list[dict[str, Any]]) -> Wheels:
    """The wheels of a project's index (``files``), less the yanked ones and those whose
    ``Requires-Python`` excludes 3.11."""
    python = Version(".".join(map(str, PYTHON)))
    out = []
    for entry in files:
        if not entry["filename"].endswith(".whl") or entry.get("yanked"):
            continue
        try:
            _, version, _, wheel_tags = parse_wheel_filename(entry["filename"])
            requires = entry.get("requires-python")
            if requires and not SpecifierSet(requires).contains(python, prereleases=True):
                continue
        except (ValueError, InvalidVersion):  # an old file whose name or metadata pip would skip as well
            continue
        out.append((version, wheel_tags))
    return out


def has_wheel(requirement: str, platforms: list[str], wheels: Wheels) -> bool:
    """Whether ``wheels`` (a project's) hold one that pip would install for ``requirement`` on
    CPython 3.11 on one of ``platforms``."""
    specifier = Requirement(requirement).specifier
    accepted = {*tags.cpython_tags(PYTHON, platforms=platforms),
                *tags.compatible_tags(PYTHON, f"cp{PYTHON[0]}{PYTHON[1]}", platforms)}
    return any(wheel_tags & accepted and specifier.contains(version) for version, wheel_tags in wheels)


@pytest.fixture(scope="module")
def pypi() -> dict[str, Wheels]:
    """PyPI's file lists of the core dependencies and of numpy, one request each, made together
    (the module skips when PyPI cannot be reached)."""
    names = sorted({Requirement(d).name for d in core_dependencies()} | {"numpy"})
    try:
        with ThreadPoolExecutor(len(names)) as pool:
            return {name: wheels_for_python(files) for name, files in zip(names, pool.map(_index_files, names),
                                                                          strict=True)}
    except (urllib.error.URLError, OSError, ValueError) as exc:
        pytest.skip(f"PyPI cannot be reached: {exc}")


def test_core_dependencies_are_the_expected_ones() -> None:
    """pyganak (wheels for two platforms only) is an extra, not a core dependency."""
    names = {d.split(">")[0].split("=")[0].split("<")[0].strip().lower() for d in core_dependencies()}
    assert "pyganak" not in names and {"ortools", "python-sat", "numpy"} <= names


@pytest.mark.parametrize("platform", PLATFORMS)
def test_every_core_dependency_has_a_wheel(platform: str, pypi: dict[str, Wheels]) -> None:
    missing = [d for d in core_dependencies() if not has_wheel(d, PLATFORMS[platform], pypi[Requirement(d).name])]
    assert not missing, f"no {platform} wheel for Python 3.11: {', '.join(missing)}"


def test_the_check_sees_a_missing_wheel(pypi: dict[str, Wheels]) -> None:
    """The check can fail: numpy 1.21.0 predates Python 3.11 and has no wheel for it anywhere (a
    fact that cannot change, unlike whether a package such as pyganak publishes more wheels),
    while numpy 1.26.4 has one for every platform."""
    for platforms in PLATFORMS.values():
        assert not has_wheel("numpy==1.21.0", platforms, pypi["numpy"])
        assert has_wheel("numpy==1.26.4", platforms, pypi["numpy"])


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
