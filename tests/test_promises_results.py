"""Issue 23, "nothing lost": a batch with a bad document, damaged cache files, a time limit that
comes early, answers found before a limit, generators that contradict themselves, inputs that
would exhaust memory. Each case runs the command as a user does (a subprocess).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from test_promises_files import cpwords, one_error

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# ---------------------------------------------------------------- 4. a batch with one bad document

BATCH = """\
kind: letter_boxed
sides: [abc, def, ghi, jkl]
---
kind: ladder
start: cold
target: xyzq
---
kind: ladder
start: cold
target: warm
mode: shortest
---
kind: ladder
start: cold
targett: warm
"""


def test_a_batch_solves_every_good_document_and_names_each_bad_one(tmp_path: Path) -> None:
    path = tmp_path / "batch.yaml"
    path.write_text(BATCH)
    run = cpwords("solve", str(path))
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    errors = run.stderr.splitlines()
    assert errors == [f"cpwords: error: {path}:4: field 'target', value 'xyzq': not a word of scowl-70",
                      f"cpwords: error: {path}:13: field 'target': required field is missing"], errors
    assert run.stdout.count("engine native") == 2  # the first and the third are solved and shown
    assert "cold" in run.stdout and "warm" in run.stdout


def test_a_batch_in_json_has_an_entry_with_its_error_for_each_bad_document(tmp_path: Path) -> None:
    path = tmp_path / "batch.yaml"
    path.write_text(BATCH)
    run = cpwords("solve", str(path), "--json")
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    entries = json.loads(run.stdout)
    assert [e["status"] for e in entries] == ["optimal", "error", "optimal", "error"]
    assert entries[1]["line"] == 4 and entries[1]["field"] == "target" and "xyzq" in entries[1]["error"]
    assert entries[3]["line"] == 13 and entries[3]["source"] == str(path)
    assert entries[2]["solutions"][0]["words"][0] == "cold"


def test_a_single_bad_document_is_still_one_line(tmp_path: Path) -> None:
    path = tmp_path / "one.yaml"
    path.write_text("kind: ladder\nstart: cold\ntarget: xyzq\n")
    one_error(cpwords("solve", str(path)), naming="xyzq")


# ---------------------------------------------------------------- 10. a damaged cache file


def test_damaged_cache_files_are_rebuilt_with_a_warning(tmp_path: Path) -> None:
    env = {**os.environ, "CPWORDS_CACHE_DIR": str(tmp_path)}
    first = cpwords("ladder", "cold", "warm", "--seed", "1", "--json", env=env)
    assert first.returncode == 0, first.stderr
    cached = [p for p in tmp_path.iterdir() if not p.name.endswith(".lock")]
    assert any(p.name.startswith("ladder-alias-") for p in cached)
    for path in cached:
        path.write_bytes(os.urandom(200))
    damaged = cpwords("ladder", "cold", "warm", "--seed", "1", "--json", env=env)
    assert damaged.returncode == 0 and "Traceback" not in damaged.stderr, damaged.stderr
    assert "damaged cache file" in damaged.stderr
    assert json.loads(damaged.stdout)["solutions"] == json.loads(first.stdout)["solutions"]
    again = cpwords("ladder", "cold", "warm", "--seed", "1", "--json", env=env)  # rebuilt: no warning any more
    assert again.returncode == 0 and again.stderr == "", again.stderr


# ---------------------------------------------------------------- 11. a limit before anything is found


@pytest.mark.parametrize("limit", ["0.05", "0.2"])
def test_a_board_solve_with_a_tiny_time_limit_is_a_clean_result(limit: str, tmp_path: Path) -> None:
    env = {**os.environ, "CPWORDS_CACHE_DIR": str(tmp_path)}  # an empty cache: the limit comes early
    run = cpwords("solve", str(EXAMPLES / "prefix_suffix_board_solve.yaml"), "--engine", "native",
                  "--time-limit", limit, "--json", env=env)
    assert "Traceback" not in run.stderr and "SearchTimeout" not in run.stderr, run.stderr
    result = json.loads(run.stdout)
    assert run.returncode in (0, 1)
    assert result["status"] in ("unknown", "optimal", "feasible")
