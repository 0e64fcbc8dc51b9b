"""Issue 23, "no traceback, anywhere" on the input side: strict types in every spec (a boolean is
not a number), numbers past what the engines take, the API given the wrong types, and the
server given the same (never a 500). Messages are checked through :func:`cpwords.cli.main` (what
the command runs), with one case of each as a user runs it (a subprocess); a number handed to
CP-SAT's C++ runs as a process (a crash there would end the process, not raise); the server runs
as ``cpwords serve`` on a port.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import stop_process
from pace import HANG_S, wait_until
from test_promises_files import cpwords, one_error
from test_robustness import run_main

import cpwords as api
from cpwords import puzzles
from cpwords.errors import InputError
from cpwords.puzzles.loading import parse_spec

BIG = "9" * 5000

# ---------------------------------------------------------------- 6. strict types: a boolean is not a number

#: A boolean in a numeric field of every kind (pydantic's lax mode took true as 1): each kind's
#: ``BOOLEAN_IN_NUMBER`` (its ``cases.py``), and two fields every kind shares.
BOOLEANS = {
    **{kind.name: kind.test_cases().BOOLEAN_IN_NUMBER for kind in puzzles.kinds().values()
       if kind.test_cases().BOOLEAN_IN_NUMBER is not None},
    "ladder-seed": "kind: ladder\nstart: cold\ntarget: warm\nseed: false\n",
    "dictionary": "kind: ladder\nstart: cold\ntarget: warm\ndictionary: {name: scowl-35, min_length: true}\n",
}


@pytest.mark.parametrize("name", sorted(BOOLEANS))
def test_a_boolean_is_not_a_number_in_any_spec(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(BOOLEANS[name])
    line = one_error(run_main(["solve", str(path)], capsys), naming="yes/no value")
    assert "p.yaml:" in line and "field '" in line


def test_a_boolean_is_not_a_number_as_the_user_runs_it(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(BOOLEANS["ladder"])
    line = one_error(cpwords("solve", str(path)), naming="yes/no value")
    assert "p.yaml:" in line and "field '" in line


def test_booleans_stay_booleans_where_a_boolean_is_meant() -> None:
    spec = parse_spec({"kind": "ladder", "start": "cold", "target": "warm", "all_shortest": True,
                           "define": False})
    assert spec.all_shortest is True and spec.define is False  # type: ignore[attr-defined]
    grid = parse_spec({"kind": "word_grid", "shape": "gridle-5x5", "distinct_words": False})
    assert grid.distinct_words is False  # type: ignore[attr-defined]


# ---------------------------------------------------------------- 9. numbers too large


def test_a_huge_min_points_with_cpsat_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    one_error(run_main(["spelling-bee", "--task", "generate", "--engine", "cpsat", "--min-points",
                        "9223372036854775808"], capsys), naming="--min-points")


def test_the_largest_accepted_number_does_not_break_cpsat() -> None:
    """A process: CP-SAT gets the number (no answer reaches it: infeasible, exit 1)."""
    run = cpwords("spelling-bee", "--task", "generate", "--engine", "cpsat", "--puzzles", "1",
                  "--min-points", str(2**53 - 1))
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr, run.stderr


@pytest.mark.parametrize("field", ["min_word_length", "seed", "time_limit"])
def test_a_5000_digit_number_in_yaml_is_one_line(field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(f"kind: spelling_bee\nletters: cejoprt\n{field}: {BIG}\n")
    assert "p.yaml:3" in one_error(run_main(["solve", str(path)], capsys), naming="too large")


# ---------------------------------------------------------------- 14. the API given the wrong types

SPEC = "kind: ladder\nstart: cold\ntarget: warm\n"


@pytest.mark.parametrize(("args", "kwargs", "names"), [
    ((42,), {}, "spec"), ((None,), {}, "spec"), (([SPEC],), {}, "spec"),
    ((SPEC,), {"workers": "two"}, "workers"), ((SPEC,), {"workers": True}, "workers"),
    ((SPEC,), {"time_limit": True}, "time_limit"), ((SPEC,), {"seed": "x"}, "seed"),
    ((SPEC,), {"checkpoint": 42}, "checkpoint"), ((SPEC,), {"cluster": 42}, "cluster"),
    ((SPEC,), {"budget": 3}, "budget"),
])
def test_the_api_raises_input_error_for_wrong_types(args: tuple[Any, ...], kwargs: dict[str, Any], names: str) -> None:
    with pytest.raises(InputError) as caught:
        api.solve(*args, **kwargs)
    assert caught.value.field == names


@pytest.mark.parametrize("specs", [42, None, SPEC, [42]])
def test_solve_many_raises_input_error_for_wrong_types(specs: Any) -> None:
    with pytest.raises(InputError):
        api.solve_many(specs)


def test_the_api_as_a_script_prints_one_line_not_a_traceback(tmp_path: Path) -> None:
    script = tmp_path / "use.py"
    script.write_text("import cpwords\ntry:\n    cpwords.solve(42)\nexcept cpwords.InputError as e:\n"
                      "    print('caught', e.field)\n")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=HANG_S, check=False)
    assert run.returncode == 0 and run.stdout.strip() == "caught spec", run.stderr


# ---------------------------------------------------------------- 15. the server: never a 500 for bad input


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """``cpwords serve`` as a user starts it, on a free port."""
    pytest.importorskip("fastapi")
    port = _free_port()
    # A worker may use 300 MiB: enough for every small request, too little to count 7×7 grids. The
    # server's time limit is a hang guard: the memory cap, not the clock, must end the big count.
    proc = subprocess.Popen([sys.executable, "-m", "cpwords", "serve", "--port", str(port), "--workers", "1",
                             "--max-time", str(HANG_S), "--max-memory", "300"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"

    def healthy() -> bool:
        try:
            urllib.request.urlopen(url + "/healthz", timeout=HANG_S).read()
            return True
        except OSError:  # not listening yet
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            return False

    try:
        wait_until(healthy, "cpwords serve answering /healthz", poll_s=0.2)
        yield url
    finally:
        stop_process(proc)


def post(url: str, body: bytes, media: str) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url + "/api/solve", data=body, headers={"Content-Type": media})
    try:
        with urllib.request.urlopen(request, timeout=HANG_S) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


@pytest.mark.parametrize(("body", "media", "field"), [
    (json.dumps({"kind": "spelling_bee", "task": "generate", "engine": "cpsat", "min_points": 2**63}),
     "application/json", "min_points"),
    (b'{"kind": "spelling_bee", "letters": "cejoprt", "min_word_length": ' + BIG.encode() + b"}",
     "application/json", None),
    (f"kind: spelling_bee\nletters: cejoprt\nmin_word_length: {BIG}\n", "application/yaml", None),
    ("kind: spelling_bee\ntask: generate\nengine: cpsat\nmin_points: 9223372036854775808\n", "application/yaml",
     "min_points"),
    (json.dumps({"kind": "spelling_bee", "letters": "cejoprt", "min_word_length": True}), "application/json",
     "min_word_length"),
], ids=["json-2**63", "json-5000-digits", "yaml-5000-digits", "yaml-2**63", "json-boolean"])
def test_the_server_answers_4xx_for_the_numbers_of_item_9(body: str | bytes, media: str, field: str | None,
                                                         server: str) -> None:
    status, answer = post(server, body.encode() if isinstance(body, str) else body, media)
    assert status in (400, 413, 422), (status, answer)
    assert answer.get("error"), answer
    if field is not None:
        assert answer.get("field") == field, answer


# ---------------------------------------------------------------- 12. a server worker's memory cap


def test_a_request_over_a_worker_s_memory_cap_is_a_422_and_the_worker_goes_on(server: str) -> None:
    # Counting every 7×7 Gridle grid builds word tables of more than 300 MiB at once.
    spec = {"kind": "word_grid", "shape": "gridle-7x7", "task": "count"}
    status, answer = post(server, json.dumps(spec).encode(), "application/json")
    assert status == 422, (status, answer)
    assert "more memory than a worker of this server may use (300 MiB)" in answer["error"]
    status, answer = post(server, json.dumps({"kind": "ladder", "start": "cold", "target": "warm"}).encode(),
                          "application/json")
    assert status == 200 and answer["result"]["status"] == "optimal", answer


def test_a_ladder_of_20000_letter_words_at_the_server_is_a_422(server: str) -> None:
    body = json.dumps({"kind": "ladder", "start": "a" * 20_000, "target": "b" * 20_000}).encode()
    status, answer = post(server, body, "application/json")
    assert status == 422 and answer["field"] == "start", answer
