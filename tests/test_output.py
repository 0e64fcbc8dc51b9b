"""Printing is bounded: a screenful on a terminal, every answer streamed when piped or to
``--out``, ``--json`` written one answer at a time, a closed pipe ends the work quietly.

The whole answer (``--json``), a pipe, a closed pipe and an unwritable stderr run as a user runs
the command (subprocesses); what is printed where (a terminal, ``--out``, titles) runs through
:func:`cpwords.cli.main`, what the command runs. A terminal is what rich takes for one
(``TTY_COMPATIBLE=1``, ``LINES``).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest
from pace import HANG_S

import cpwords
from cpwords import cli, display, output

#: 9,337 answers in about a second: a list far longer than a screen.
MANY = ["letter-boxed", "lme", "iuf", "wcb", "oas", "--max-words", "3", "--task", "enumerate", "--limit", "100000"]


def cpwords_run(*argv: str, env: dict[str, str] | None = None, timeout: float = HANG_S,
                **kwargs: object) -> subprocess.CompletedProcess[str]:
    """``python -m cpwords ARGV`` as a user runs it (``timeout`` guards against a hang only)."""
    return subprocess.run([sys.executable, "-m", "cpwords", *argv], capture_output=True, text=True, check=False,
                          env={**os.environ, **(env or {})}, timeout=timeout, **kwargs)  # type: ignore[call-overload]


def main_run(argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``cpwords ARGV`` through cpwords.cli.main with ``env`` set, on a console made for it (rich
    reads TTY_COMPATIBLE, LINES and COLUMNS when the console is made)."""
    for name in ("TTY_COMPATIBLE", "LINES", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(display, "_console", None)
    saved = warnings.showwarning
    try:
        code = cli.main(argv)
    finally:
        warnings.showwarning = saved
        display._console = None  # not this terminal for the next command
    captured = capsys.readouterr()
    return subprocess.CompletedProcess(argv, code, captured.out, captured.err)


@pytest.fixture(scope="module")
def many_json(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """``MANY --json`` through cpwords.cli.main, its stdout a file."""
    path = tmp_path_factory.mktemp("many") / "many.json"
    with path.open("w") as out, contextlib.redirect_stdout(out):
        assert cli.main([*MANY, "--json"]) == 0
    result: dict[str, object] = json.loads(path.read_text())
    return result


def test_json_is_streamed_as_json_dumps_would_print_it() -> None:
    spec = cpwords.loads("kind: letter_boxed\nsides: [paf, uot, mie, xlr]\ntask: enumerate\nmax_words: 3\nlimit: 5\n")
    result = cpwords.solve(spec)
    expected = json.dumps(result.model_dump(mode="json"), indent=2) + "\n"
    for batch, want in ((False, expected),
                        (True, json.dumps([result.model_dump(mode="json")] * 2, indent=2) + "\n")):
        out = io.StringIO()
        with output.JsonWriter(out, batch=batch) as writer:
            for _ in range(2 if batch else 1):
                writer.write(result)
        assert out.getvalue() == want
    empty = io.StringIO()
    with output.JsonWriter(empty, batch=True):
        pass
    assert json.loads(empty.getvalue()) == []


def test_piped_text_lists_every_answer_one_a_line(many_json: dict[str, object]) -> None:
    run = cpwords_run(*MANY)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    rows = [line.split() for line in lines]
    answers = [r[1:-3] for r in rows if len(r) >= 5 and r[0].replace(",", "").isdigit()]
    solutions = many_json["solutions"]
    assert isinstance(solutions, list) and len(solutions) == 9337 == len(answers)
    assert answers == [s["words"] for s in solutions]
    assert "more answers" not in run.stdout
    spec = cpwords.loads("kind: letter_boxed\nsides: [lme, iuf, wcb, oas]\ntask: enumerate\nmax_words: 3\n"
                         "limit: 100000\n")
    assert cpwords.verify.check(spec, cpwords.results.Result.model_validate(many_json)) == []


def test_a_terminal_shows_a_screenful_and_says_how_many_more(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    run = main_run(MANY, monkeypatch, capsys, env={"TTY_COMPATIBLE": "1", "LINES": "30", "COLUMNS": "100"})
    assert run.returncode == 0, run.stderr
    assert "… and 9,3" in run.stdout and "more answers (--json or --out FILE for all)" in run.stdout
    assert len(run.stdout.splitlines()) < 60


def test_out_file_keeps_every_answer_and_is_never_written_over(tmp_path: Path, many_json: dict[str, object],
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    env = {"TTY_COMPATIBLE": "1", "LINES": "30"}
    target = tmp_path / "all.json"
    run = main_run([*MANY, "--out", str(target)], monkeypatch, capsys, env=env)
    assert run.returncode == 0, run.stderr
    assert "more answers" in run.stdout and f"wrote {target}" in run.stderr
    assert json.loads(target.read_text())["solutions"] == many_json["solutions"]
    run = main_run([*MANY, "--out", str(target)], monkeypatch, capsys)
    assert run.returncode == 2 and "--out" in run.stderr and "--force" in run.stderr
    assert json.loads(target.read_text())["solutions"] == many_json["solutions"]
    text = tmp_path / "all.txt"
    run = main_run([*MANY, "--out", str(text)], monkeypatch, capsys, env=env)
    assert run.returncode == 0, run.stderr
    assert len(text.read_text().splitlines()) > 9337
    assert not list(tmp_path.glob("*.part"))


def test_plain_table_aligns_columns_and_streams_past_the_measured_rows() -> None:
    rows = ([i, "x" * (i % 7)] for i in range(display.PlainTable.MEASURED + 50))
    lines = list(display.PlainTable(["n", "word"], rows, title="t", justify=["right", "left"]).lines())
    assert lines[0] == "t" and lines[1] == "  n  word"  # widths of the first MEASURED rows (0-999)
    assert lines[2] == "  0" and lines[9] == "  7" and lines[10] == "  8  x"
    assert lines[-1] == "1,049  xxxxxx"  # wider than measured: pushes its line, never cut
    assert len(lines) == 2 + display.PlainTable.MEASURED + 50


def test_a_closed_pipe_stops_the_work_and_exits_0(tmp_path: Path) -> None:
    """A batch whose first puzzle answers at once and whose second would run for minutes:
    when the reader closes the pipe after the first answer, the run stops and exits 0."""
    batch = tmp_path / "batch.yaml"
    batch.write_text(textwrap.dedent("""\
        kind: ladder
        start: cold
        target: warm
        ---
        kind: letter_boxed
        sides: [lme, iuf, wcb, oas]
        task: enumerate
        max_words: 6
        limit: null
        """))
    proc = subprocess.Popen([sys.executable, "-m", "cpwords", "solve", str(batch)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()
    proc.stdout.close()
    try:
        code = proc.wait(timeout=HANG_S)  # a hang guard: the listing alone would run for days
    finally:
        proc.kill()
    assert code == 0
    assert proc.stderr.read() == ""


GONE = [["dict", "list"], ["ladder", "--groups", "4"], ["schema"]]


@pytest.mark.parametrize("argv", GONE, ids=[a[0] for a in GONE])
def test_every_command_ends_quietly_with_0_when_the_reader_goes(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """In-process: stdout is a pipe whose reader is gone before the first line."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    with open(write_end, "w") as pipe:
        monkeypatch.setattr(sys, "stdout", pipe)
        code = cli.main(argv)
        monkeypatch.undo()
    assert code == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("argv", [pytest.param(a, id=a[0], marks=[] if a[0] == "dict" else [pytest.mark.sweep])
                                  for a in GONE])
def test_every_command_ends_quietly_with_0_when_the_reader_goes_as_a_process(argv: list[str]) -> None:
    """The process waits on its stdin until the reader has gone (no fixed wait), then runs."""
    proc = subprocess.Popen([sys.executable, "-c", "import sys, runpy; sys.stdin.read(); sys.argv = ['cpwords', "
                             + ", ".join(repr(a) for a in argv) + "]; runpy.run_module('cpwords', run_name='__main__')"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # gone before the first line
    proc.stdin.close()  # now the command runs
    assert proc.wait(timeout=HANG_S) == 0
    assert proc.stderr.read() == b""


def test_stderr_that_cannot_be_written_keeps_the_exit_code(tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "cpwords", "solve", str(tmp_path / "missing.yaml")],
                             stderr=full, stdout=subprocess.PIPE, check=False, timeout=HANG_S)
    assert run.returncode == 2


def test_blank_without_svg_is_refused(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    run = main_run(["letter-boxed", "paf", "uot", "mie", "xlr", "--blank"], monkeypatch, capsys)
    assert run.returncode == 2 and "--blank" in run.stderr and "--svg" in run.stderr
    assert len(run.stderr.splitlines()) == 1 and run.stdout == ""


def test_control_characters_in_a_title_never_reach_the_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = tmp_path / "p.yaml"
    puzzle.write_text('kind: ladder\nstart: cold\ntarget: warm\ntitle: "red\\e[31m alert\\r"\n')
    for env in ({}, {"TTY_COMPATIBLE": "1"}):
        run = main_run(["solve", str(puzzle)], monkeypatch, capsys, env=env)
        assert run.returncode == 0, run.stderr
        assert "red\\x1b[31m alert\\r" in run.stdout
        assert "\x1b[31m alert" not in run.stdout and "\r" not in run.stdout
