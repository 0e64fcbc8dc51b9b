"""Messages that tell the truth: every error names the file, line and field the user wrote,
YAML traps are explained, status lines never contradict themselves, ``cpwords serve`` fails in
one line. A message is checked through :func:`cpwords.cli.main`, what the command runs (in the
folder a user would run it from); reading stdin and ``cpwords serve`` run as a user runs them (a
subprocess)."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from pace import HANG_S, wait_until

from cpwords.results import STATS

ERROR = re.compile(r"^cpwords: error: ")


def run(*argv: str, cwd: Path | None = None, stdin: str | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m cpwords ARGV`` as a user runs it (the timeout guards against a hang only)."""
    return subprocess.run([sys.executable, "-m", "cpwords", *argv], capture_output=True, text=True, cwd=cwd,
                          input=stdin, env={**os.environ, **(env or {})}, timeout=HANG_S, check=False)


MainRun = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def main_run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> MainRun:
    """``run`` through cpwords.cli.main: the same arguments, the same CompletedProcess."""
    from cpwords.cli import main

    def call(*argv: str, cwd: Path | None = None, stdin: str | None = None,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        with monkeypatch.context() as patch:
            if cwd is not None:
                patch.chdir(cwd)
            for name, value in (env or {}).items():
                patch.setenv(name, value)
            patch.setattr(sys, "stdin", io.StringIO(stdin or ""))
            saved = warnings.showwarning
            try:
                code = main(list(argv))
            finally:
                warnings.showwarning = saved
        captured = capsys.readouterr()
        return subprocess.CompletedProcess(argv, code, captured.out, captured.err)

    return call


def one_error(done: subprocess.CompletedProcess[str]) -> str:
    """The single error line of a run that must exit 2."""
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and ERROR.match(lines[0]) and "Traceback" not in done.stderr, done.stderr
    return lines[0]


@pytest.mark.parametrize(("yaml_text", "expected"), [
    ("kind: ladder\ntitle: t\nstart: qqqq\ntarget: warm\n", "p.yaml:3: field 'start', value 'qqqq'"),
    ("kind: ladder\nstart: cold\ntarget: warm\ndictionary: scowl-999\n", "p.yaml:4: field 'dictionary'"),
    ("kind: word_grid\nshape: gridle-9x9\n", "p.yaml:2: field 'shape', value 'gridle-9x9'"),
])
def test_errors_found_while_solving_name_file_and_line(yaml_text: str, expected: str, tmp_path: Path,
                                                       main_run: MainRun) -> None:
    (tmp_path / "p.yaml").write_text(yaml_text)
    assert expected in one_error(main_run("solve", "p.yaml", cwd=tmp_path))


def test_an_error_in_a_bonus_layout_names_the_layout(tmp_path: Path, main_run: MainRun) -> None:
    (tmp_path / "layout.yaml").write_text("# my layout\nbonuses:\n  DL: [[9, 9]]\n")
    (tmp_path / "p.yaml").write_text("kind: ruzzle\ngrid: [abcd, efgh, ijkl, mnop]\nbonuses: layout.yaml\n")
    line = one_error(main_run("solve", "p.yaml", cwd=tmp_path))
    assert "layout.yaml:3: field 'bonuses.DL[0]', value [9, 9]" in line and "p.yaml" not in line
    inline = tmp_path / "q.yaml"
    inline.write_text("kind: ruzzle\ngrid: [abcd, efgh, ijkl, mnop]\nbonuses:\n  DL: [[1, 1], [9, 9]]\n")
    assert "q.yaml:4: field 'bonuses.DL[1]', value [9, 9]" in one_error(main_run("solve", "q.yaml", cwd=tmp_path))
    line = one_error(main_run("ruzzle", "abcd", "efgh", "ijkl", "mnop", "--bonuses", "/etc/passwd"))
    assert "/etc/passwd" in line and "bonus layout" in line and "shape" not in line


def test_options_are_blamed_by_their_own_names(tmp_path: Path, main_run: MainRun) -> None:
    assert "field '--generate', value 1000000000" in one_error(main_run("grid", "--generate", "1000000000"))
    (tmp_path / "fill.txt").write_text("abcde\nfghij\n")
    line = one_error(main_run("grid", "--fill", "fill.txt", cwd=tmp_path))
    assert line.startswith("cpwords: error: fill.txt: field '--fill'") and "5 rows" in line
    line = one_error(main_run("ladder", "cold", "warm", env={"CPWORDS_CLUSTER": "garbage"}))
    assert "$CPWORDS_CLUSTER" in line and "--cluster" not in line
    (tmp_path / "p.yaml").write_text("kind: ruzzle\ngrid: [abcd, efgh, ijkl, mnop]\nbonuses: 42\n")
    assert "field 'bonuses'," in one_error(main_run("solve", "p.yaml", cwd=tmp_path))
    (tmp_path / "g.yaml").write_text("kind: word_grid\nshape: s2.yaml\n")
    (tmp_path / "s2.yaml").write_text("rows: 3\n")
    assert "PosixPath" not in one_error(main_run("solve", "g.yaml", cwd=tmp_path))
    line = one_error(main_run("ladder", "cold", "warm", "--dict", "scowl-999"))
    assert "field '--dict', value 'scowl-999'" in line


def test_solve_reads_stdin(main_run: MainRun) -> None:
    """As a process (stdin as a user pipes it), and the error through cli.main."""
    done = run("solve", "-", "--json", stdin="kind: ladder\nstart: cold\ntarget: warm\nmode: shortest\n")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["solutions"][0]["words"][0] == "cold"
    assert "<stdin>:2: field 'start'" in one_error(main_run("solve", "-",
                                                            stdin="kind: ladder\nstart: qqqq\ntarget: warm\n"))


def test_yaml_traps(tmp_path: Path, main_run: MainRun) -> None:
    (tmp_path / "dup.yaml").write_text("kind: ladder\nstart: cold\nmode: shortest\ntarget: warm\nmode: common\n")
    line = one_error(main_run("solve", "dup.yaml", cwd=tmp_path))
    assert "dup.yaml:5" in line and "'mode' is given twice (first on line 3)" in line
    (tmp_path / "yes.yaml").write_text("kind: ladder\nstart: yes\ntarget: warm\n")
    line = one_error(main_run("solve", "yes.yaml", cwd=tmp_path))
    assert "yes.yaml:2: field 'start'" in line and "YAML reads yes as true" in line and "quotes" in line
    (tmp_path / "trailing.yaml").write_text("kind: ladder\nstart: cold\ntarget: warm\nmode: shortest\n---\n")
    done = main_run("solve", "trailing.yaml", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["kind"] == "ladder"  # one puzzle, not a batch with an empty one
    line = one_error(main_run("dict", "info", "café"))  # a word of letters outside the list's a-z, not a dictionary
    assert "unknown dictionary" not in line and "'café'" in line and "a-z" in line


def test_server_refuses_duplicate_json_keys() -> None:
    from fastapi.testclient import TestClient

    from cpwords.server.app import create_app
    from cpwords.server.config import ServerConfig

    with TestClient(create_app(ServerConfig(workers=1))) as client:
        body = '{"kind": "ladder", "start": "cold", "target": "warm", "mode": "shortest", "mode": "common"}'
        answer = client.post("/api/solve", content=body, headers={"content-type": "application/json"})
        assert answer.status_code == 400 and "mode" in answer.json()["error"] and "twice" in answer.json()["error"]


def test_the_design_doc_lists_every_stats_key() -> None:
    doc = (Path(__file__).parents[1] / "docs" / "design.md").read_text()
    listed = set(re.findall(r"^\| `(\w+)`(?:, `(\w+)`)? \|", doc, re.M))
    names = {n for pair in listed for n in pair if n}
    assert set(STATS) <= names, set(STATS) - names


def test_derived_svg_names_are_refused_before_solving(tmp_path: Path, main_run: MainRun) -> None:
    (tmp_path / "m1-2.svg").write_text("mine")
    line = one_error(main_run("letter-boxed", "--task", "generate", "--puzzles", "2", "--seed", "1", "--svg", "m1.svg",
                         cwd=tmp_path))
    assert "m1-2.svg" in line and "--force" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m1-2.svg"]
    assert (tmp_path / "m1-2.svg").read_text() == "mine"


def _free_port() -> tuple[socket.socket, int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    return sock, sock.getsockname()[1]


def test_serve_on_a_port_in_use_or_a_bad_host_is_one_line() -> None:
    pytest.importorskip("uvicorn")
    sock, port = _free_port()
    with sock:
        line = one_error(run("serve", "--port", str(port)))
    assert f"port {port} is in use" in line and "--port" in line
    assert "--host" in one_error(run("serve", "--host", "999.1.1.1"))


def test_serve_on_port_0_prints_the_port_it_listens_on() -> None:
    pytest.importorskip("uvicorn")
    import httpx

    proc = subprocess.Popen([sys.executable, "-m", "cpwords", "serve", "--port", "0", "--workers", "1"],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", first).group(1))  # type: ignore[union-attr]
        assert port != 0
        def answers() -> bool:
            try:
                return httpx.get(f"http://127.0.0.1:{port}/api/kinds", timeout=HANG_S).status_code == 200
            except httpx.TransportError:  # not listening yet
                return False

        wait_until(answers, "the server answering on the port it printed", poll_s=0.1)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
