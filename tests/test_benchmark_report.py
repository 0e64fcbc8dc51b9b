"""docs/benchmarks.md says what measured every figure (issue 24, item 18).

Every section names the commit its figures were measured at and the version of the built-in
common lists; a section a benchmark script writes gets that stamp from ``benchmarks/_report.py``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from cpwords import __version__
from cpwords.lexicon.sources import COMMON_VERSION

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
#: A stamp's commit: a short hash, ``+dirty`` when the work tree had changes.
COMMIT = re.compile(r"at commit ([0-9a-f]{7,40})(\+dirty)?\b")


@pytest.fixture
def report() -> object:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import _report

        yield _report
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def test_a_written_section_is_stamped_with_commit_and_versions(report: object, tmp_path: Path) -> None:
    doc = tmp_path / "benchmarks.md"
    report.write_section("demo", "| a | b |\n|---|---|\n| 1 | 2 |", doc=doc)  # type: ignore[attr-defined]
    stamp = doc.read_text().split("\n")[3]
    match = COMMIT.search(stamp)
    assert match, stamp
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=False)
    if head.returncode == 0:  # a git work tree (not an unpacked source archive)
        assert head.stdout.startswith(match.group(1)), (stamp, head.stdout)
    assert f"cpwords {__version__}" in stamp and f"common lists version {COMMON_VERSION}" in stamp
    # Rewriting the section replaces its stamp and figures, nothing else.
    report.write_section("demo", "new figures", doc=doc)  # type: ignore[attr-defined]
    assert doc.read_text().count("at commit") == 1 and "new figures" in doc.read_text()


def test_dirty_work_tree_is_said(report: object, tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "f.txt").write_text("one\n")
    git("add", "f.txt")
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "one")
    clean = report.git_commit(tmp_path)  # type: ignore[attr-defined]
    (tmp_path / "f.txt").write_text("two\n")
    assert re.fullmatch(r"[0-9a-f]{7,40}", clean) and report.git_commit(tmp_path) == clean + "+dirty"  # type: ignore[attr-defined]
    assert report.git_commit(tmp_path / "nowhere") == "unknown"  # type: ignore[attr-defined]


def test_every_section_of_the_benchmarks_page_names_its_commit_and_list_version() -> None:
    text = DOC.read_text(encoding="utf-8")
    sections = re.findall(r"<!-- BEGIN (\S+) -->\n(.*?)<!-- END \1 -->", text, re.S)
    assert len(sections) > 10
    # Headings outside the scripts' sections are sections too.
    outside = re.sub(r"<!-- BEGIN (\S+) -->.*?<!-- END \1 -->", "", text, flags=re.S)
    for heading in re.findall(r"^#{2,4} .*\n\n?.*", outside, re.M):
        if heading.startswith("## ") or "Which common lists" in heading:
            continue
        sections.append((heading.split("\n")[0], heading.split("\n", 1)[1]))
    for name, body in sections:
        stamp = body.strip().split("\n")[0]
        assert COMMIT.search(stamp), f"{name}: its first line names no commit: {stamp[:120]}"
        assert re.search(r"common lists version \d", stamp), f"{name}: no list version: {stamp[:120]}"
