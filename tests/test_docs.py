"""Every command and snippet of README.md and docs/*.md runs, and shows what the doc shows.

A small collector of fenced blocks (no extra tool):

- ``cpwords …`` lines of shell blocks run in a folder holding a copy of ``examples/``: through
  :func:`cpwords.cli.main`, the function the ``cpwords`` command runs (what is checked is the exit
  code and the output), and one of them as a process, as a user runs it (:data:`AS_PROCESS`); under
  ``$ command`` in a ``console`` block (or a plain block) the lines shown are the expected output,
  where ``…`` stands for any text and timings (``0.2 s``, ``"wall_s":0.3``) for any figure. A
  synopsis (``[--flag]``, ``A | B``, ``NAME``) is checked against ``--help``: its command exists and
  has every option it names. Long commands and repeats of a command run earlier run in the
  ``sweep`` only (:func:`_sweep_only`).
- ``curl`` lines of docs/serve.md run against a ``cpwords serve --port 0`` started for the test.
- ``python`` blocks run as scripts (``python FILE.py``), the way a reader saves and runs them.
- ``yaml`` blocks with ``kind:`` are valid puzzles; ``dictionary:`` lines are valid dictionaries.

A doc provides a file its commands need with a comment the reader does not see: ``<!-- file:
NAME`` followed by the file's lines and ``-->``; or ``<!-- file: NAME -->`` just above a fenced
block, whose text becomes the file.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from pace import HANG_S, wait_until

from cpwords import cli, display

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: Words of a synopsis that stand for what the user types.
PLACEHOLDERS = {"START", "TARGET", "NAME", "FILE", "WORD", "KIND", "ROW", "SIDE", "PUZZLE.yaml", "N", "L", "S",
                "LIMIT", "NAME|FILE", "COMMAND", "T", "MB"}
#: Commands that cannot run in a test; their options are still checked against --help.
NOT_RUN = re.compile(r"cpwords serve\b|--cluster tcp://|pip install|apt-get|npm ")


@dataclass
class Block:
    doc: Path
    line: int
    lang: str
    text: str
    files: dict[str, str] = field(default_factory=dict)  # files the doc provides before this block

    @property
    def where(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def blocks(doc: Path) -> list[Block]:
    """The fenced blocks of ``doc``, each with the files the doc provided above it."""
    lines = doc.read_text(encoding="utf-8").split("\n")
    out: list[Block] = []
    files: dict[str, str] = {}
    i = 0
    while i < len(lines):
        hidden = re.match(r"^<!-- file: (\S+)\s*$", lines[i])
        if hidden:
            end = lines.index("-->", i)
            files[hidden.group(1)] = "\n".join(lines[i + 1:end]) + "\n"
            i = end + 1
            continue
        fence = re.match(r"^(\s*)```(\S*)\s*$", lines[i])
        if fence:
            indent = len(fence.group(1))
            end = i + 1
            while not re.match(r"^\s*```\s*$", lines[end]):
                end += 1
            text = "\n".join(x[indent:] for x in lines[i + 1:end])
            shown = re.match(r"^<!-- file: (\S+) -->$", lines[i - 1].strip()) if i else None
            if shown:
                files[shown.group(1)] = text + "\n"
            out.append(Block(doc, i + 1, fence.group(2), text, dict(files)))
            i = end + 1
            continue
        i += 1
    return out


ALL = [b for doc in DOCS for b in blocks(doc)]


@dataclass
class Command:
    block: Block
    text: str
    expected: str | None  # the output the doc shows, None when it shows none


def commands(block: Block) -> list[Command]:
    """The commands of a shell block: ``$ cmd`` lines with the output under them, or bare lines."""
    if block.lang not in ("", "console", "bash", "sh", "shell"):
        return []
    lines = block.text.split("\n")
    if block.lang == "console" or any(x.startswith("$ ") for x in lines):
        out: list[Command] = []
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                i += 1
                continue
            text = lines[i][2:]
            while text.rstrip().endswith(("\\", "|")):
                i += 1
                text = text.rstrip().removesuffix("\\") + " " + lines[i].strip()
            i += 1
            shown = []
            while i < len(lines) and not lines[i].startswith("$ "):
                shown.append(lines[i])
                i += 1
            expected = "\n".join(shown).strip("\n")
            out.append(Command(block, text, expected or None))
        return out
    return [Command(block, re.sub(r"\s{2,}#.*$", "", x).strip(), None) for x in lines
            if x.strip().startswith(("cpwords ", ".venv/bin/cpwords"))]


CLI = [c for b in ALL for c in commands(b) if re.match(r"^(\S*/)?cpwords ", c.text)]
CURL = [c for b in ALL for c in commands(b) if "curl " in c.text]
PYTHON = [b for b in ALL if b.lang == "python"]
YAML = [b for b in ALL if b.lang == "yaml"]


def _synopsis(text: str) -> bool:
    words = shlex.split(text, comments=True) if text.count("'") % 2 == 0 else text.split()
    return any(w in PLACEHOLDERS or "[" in w or w == "|" or "…" in w for w in words) or bool(NOT_RUN.search(text))


@functools.cache
def _commands() -> frozenset[str]:
    """The commands of ``cpwords``."""
    import argparse

    from cpwords.cli import build_parser

    subs = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return frozenset(subs[0].choices)


@functools.cache
def _help(argv: tuple[str, ...]) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([*argv, "--help"])
    assert code == 0, (argv, err.getvalue())
    return out.getvalue()


def _check_synopsis(command: Command) -> None:
    """The command exists and every --option it names is in its --help."""
    text = re.sub(r"^\S*/cpwords", "cpwords", command.text)
    sub = ""
    for alternative in re.split(r"\s\|\s(?=[a-z])", text.split("#")[0]):
        words = alternative.split()
        if words[0] == "cpwords":
            words = words[1:]
        if words[0] not in _commands():  # 'cpwords dict list | info NAME': 'info' is another dict command
            words = [sub, *words]
        sub = words[0]
        path = [sub]
        if sub == "dict" and len(words) > 1:
            assert re.search(rf"\b{words[1]}\b", _help(("dict",)).split("positional arguments")[-1]), \
                f"{command.block.where}: 'cpwords dict {words[1]}' does not exist"
            path.append(words[1])
        elif path == ["dict"]:
            continue
        helptext = _help(tuple(path))
        for option in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", alternative):
            assert option in helptext, f"{command.block.where}: '{' '.join(path)}' has no option {option}"


def _matches(expected: str, actual: str) -> bool:
    """``actual`` shows what ``expected`` shows: ``…`` (or ``...``) is any text, timings are any figure, and
    line breaks and runs of spaces count as one space."""
    def norm(text: str) -> str:
        return " ".join(text.replace("\n", " ").split())

    pattern = ""
    for part in re.split(r"(…|\.\.\.|\d+\.\d+ s\b|\"\w+_s\":\d+\.\d+|\"seconds\":\d+\.\d+)", norm(expected)):
        if part in ("…", "..."):
            pattern += ".*?"
        elif re.fullmatch(r"\d+\.\d+ s", part):
            pattern += r"\d+(\.\d+)? s"
        elif re.fullmatch(r"\"\w+\":\d+\.\d+", part):
            pattern += re.escape(part.split(":")[0]) + r":\d+(\.\d+)?"
        else:
            pattern += r"\s*".join(re.escape(word) for word in part.split(" "))
    return re.fullmatch(pattern, norm(actual), re.S) is not None


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    return tmp_path


def _provide(block: Block, folder: Path) -> None:
    for name, text in block.files.items():
        (folder / name).write_text(text, encoding="utf-8")


#: Run as a process, the way a user runs it (the others run through cpwords.cli.main, which the
#: console script calls): a command whose output the doc shows.
AS_PROCESS = "docs/ladder.md:27 cpwords ladder cold warm --seed 1"
#: Commands too long for every run (best-board searches; Dask clusters, which tests/test_cluster_dask.py
#: starts the same way): the sweep runs them.
LONG = re.compile(r"--task best_board|ruzzle-boggle-best|--cluster ")


def _sweep_only(command: Command) -> bool:
    """A long command, or one an earlier block of the docs already runs with the same files and
    shows no more output of (a synopsis, checked against --help, is never long)."""
    if _synopsis(command.text):
        return False
    if LONG.search(command.text):
        return True
    earlier = CLI[:CLI.index(command)]
    return any(c.text == command.text and c.block.files == command.block.files and
               (command.expected is None or c.expected == command.expected) for c in earlier)


def _run_in_process(argv: list[str], folder: Path, monkeypatch: pytest.MonkeyPatch,
                    capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``cpwords ARGV`` through cpwords.cli.main in ``folder``: exit code, stdout, stderr."""
    monkeypatch.chdir(folder)
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setattr(display, "_console", None)  # a console of this width, writing to the captured stdout
    saved = warnings.showwarning  # main() prints warnings its own way
    try:
        code = cli.main(argv)
    finally:
        warnings.showwarning = saved
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("command", [
    pytest.param(c, marks=[pytest.mark.sweep] if _sweep_only(c) else [], id=f"{c.block.where}:{c.text[:40]}")
    for c in CLI])
def test_doc_command(command: Command, folder: Path, monkeypatch: pytest.MonkeyPatch,
                     capsys: pytest.CaptureFixture[str]) -> None:
    if _synopsis(command.text):
        _check_synopsis(command)
        return
    _provide(command.block, folder)
    argv = shlex.split(re.sub(r"^\S*/cpwords", "cpwords", command.text), comments=True)
    if f"{command.block.where} {command.text}" == AS_PROCESS or "--cluster" in command.text:
        run = subprocess.run([sys.executable, "-m", "cpwords", *argv[1:]], capture_output=True, text=True,
                             cwd=folder, timeout=HANG_S, check=False, env={**os.environ, "COLUMNS": "100"})
        code, out, err = run.returncode, run.stdout, run.stderr
    else:
        code, out, err = _run_in_process(argv[1:], folder, monkeypatch, capsys)
    assert "Traceback" not in err, (command.block.where, err[-3000:])
    errors = command.expected is not None and command.expected.startswith("cpwords: error")
    assert code == (2 if errors else 0), (command.block.where, command.text, err[-2000:])
    if command.expected is not None:
        actual = err if errors else out
        assert _matches(command.expected, actual), f"{command.block.where}: shows\n{command.expected}\ngot\n{actual}"


def test_one_doc_command_runs_as_a_process() -> None:
    assert any(f"{c.block.where} {c.text}" == AS_PROCESS and c.expected for c in CLI), AS_PROCESS


@pytest.fixture(scope="module")
def server() -> object:
    pytest.importorskip("uvicorn")
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    # A long --max-time: the doc's job must still be running when the doc asks for its progress,
    # however busy the machine (it is cancelled by the doc's last job command).
    proc = subprocess.Popen([sys.executable, "-m", "cpwords", "serve", "--port", "0", "--workers", "1",
                             "--max-time", str(HANG_S)],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    assert proc.stderr is not None
    port = re.search(r":(\d+)/", proc.stderr.readline()).group(1)  # type: ignore[union-attr]
    yield f"127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=HANG_S)


def _curl(text: str) -> tuple[str, str]:
    """The body and the HTTP status of a curl command line (``-w`` adds the status)."""
    text = text.replace("curl -s", f"curl -s --max-time {HANG_S:.0f} -w '\\nHTTP %{{http_code}}'", 1)
    run = subprocess.run(["bash", "-c", text], capture_output=True, text=True, timeout=HANG_S, check=False)
    body, _, status = run.stdout.rpartition("\nHTTP ")
    return body, status.strip()


def _first_event(text: str) -> str:
    """The first server-sent event of a ``curl -N …/events`` command line (read until its blank line;
    the stream itself goes on until the job ends)."""
    proc = subprocess.Popen(["bash", "-c", "exec " + text.replace("curl -s", f"curl -s --max-time {HANG_S:.0f}", 1)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    lines: list[str] = []
    try:
        for line in proc.stdout:
            if not line.strip() and lines:
                break
            lines.append(line)
    finally:
        proc.kill()
        proc.wait()
    return "".join(lines)


def _curl_once_progress_shows(text: str, where: str) -> tuple[str, str]:
    """``_curl(text)``, asked again until a job's progress shows (once its first shard is done)."""
    answers: list[tuple[str, str]] = []

    def shown() -> bool:
        answers.append(_curl(text))
        return '"progress":null' not in answers[-1][0]

    wait_until(shown, f"{where}: the job's progress", poll_s=0.25)
    return answers[-1]


def test_doc_curl_examples(server: str) -> None:
    """The API examples of docs/serve.md, in order (a job's id comes from its answer)."""
    assert CURL, "docs/serve.md shows no curl example"
    job_id = None
    for command in CURL:
        text = command.text.replace("localhost:8000", server)
        doc_id = re.search(r"/api/jobs/([\w-]+)", command.text)
        if doc_id and job_id:
            text = text.replace(doc_id.group(1), job_id)
        expected = command.expected or ""
        if "/events" in text:
            body = _first_event(text)
            expected = expected.split("\n\n")[0]
            if job_id and doc_id:
                expected = expected.replace(doc_id.group(1), job_id)
            assert _matches(expected, body), f"{command.block.where}: shows\n{expected}\ngot\n{body[:3000]}"
            continue
        body, status = _curl(text) if "-X" in text else _curl_once_progress_shows(text, command.block.where)
        shown_status = re.search(r"^HTTP (\d+)$", expected, re.M)
        ok = status == shown_status.group(1) if shown_status else status.startswith("2")
        assert ok, (command.block.where, command.text, status, body[-1000:])
        expected = re.sub(r"^HTTP \d+\n", "", expected, flags=re.M)
        new_id = re.search(r'"id":"([\w-]+)"', body)
        download = re.search(r'"full_result":\{"url":"/api/jobs/([\w-]+)/result"', body)
        if download:  # an answer too big for one body names its job's download
            job_id = download.group(1)
        elif "/api/jobs" in text and "-X POST" in text and new_id:
            job_id = new_id.group(1)
            expected = expected.replace(re.search(r'"id":"([\w-]+)"', expected).group(1), job_id)  # type: ignore[union-attr]
        elif job_id and doc_id:
            expected = expected.replace(doc_id.group(1), job_id)
        assert _matches(expected, body), f"{command.block.where}: shows\n{expected}\ngot\n{body[:3000]}"


#: Snippets too long for every run: the census of 10,000 boxes (census() is tested in tests/test_cluster.py
#: and by its doctest).
LONG_SNIPPETS = re.compile(r"census\(10_000")


@pytest.mark.parametrize("block", [
    pytest.param(b, marks=[pytest.mark.sweep] if LONG_SNIPPETS.search(b.text) else [], id=b.where) for b in PYTHON])
def test_doc_python_snippet(block: Block, folder: Path) -> None:
    """Saved as a script and run, as a reader would."""
    _provide(block, folder)
    script = folder / "snippet.py"
    script.write_text(block.text + "\n", encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=folder, timeout=HANG_S,
                         check=False)
    assert run.returncode == 0, (block.where, run.stderr[-3000:])


@pytest.mark.parametrize("block", YAML, ids=lambda b: b.where)
def test_doc_yaml(block: Block, folder: Path) -> None:
    from cpwords.puzzles.loading import loads_specs
    from cpwords.specs import DictionaryRef

    _provide(block, folder)
    if re.search(r"^kind:", block.text, re.M):
        assert loads_specs(block.text, source=block.where, base_dir=folder / "examples")
        return
    dictionaries = [line for line in block.text.split("\n") if line.startswith("dictionary:")]
    for line in dictionaries:
        value = yaml.safe_load(line)["dictionary"]
        if isinstance(value, dict) and "path" in value:
            value = {**value, "path": str(folder / "examples" / "words.txt")}
            (folder / "examples" / "words.txt").write_text("cold\nwarm\n")
        DictionaryRef.model_validate(value, context={"base_dir": folder})
    if not dictionaries:  # a shape: a board (nodes, edges) or a grid (rows)
        from cpwords.geometry import parse_board, parse_grid

        data = yaml.safe_load(block.text.replace("…", ""))
        if "rows" in data:
            parse_grid(data, name="doc", source=block.where)
        else:
            parse_board(data, name="doc", source=block.where)


def test_the_collector_finds_the_docs_blocks() -> None:
    assert len(CLI) >= 20 and len(PYTHON) >= 3 and len(YAML) >= 8 and len(CURL) >= 8
