"""Issue 23: walk every flag of every command with hostile values (too long, huge, negative,
zero, the wrong type, a link, a FIFO, a closed stream) and assert no traceback, exit 0 or 2.

The flags are read from the parser itself, so a new flag is walked without editing this file.
Hundreds of commands do not fit a test as one process each, so two runner processes (started as
``python -c``) each call ``cpwords.cli.main`` for half of the command lines, the way the console
script does, with every command bounded by a short alarm and a short time limit; the closed
streams are real subprocesses. Exit 1 is accepted where the command printed a result (a hostile
time limit leaves a search ``unknown``: a clean result, not an error).

The positional arguments (words, sides, letters, rows, files) get the same treatment.
``--cluster`` is left out (it starts Dask clusters: issue 22 walks it) and so are flags with
fixed choices (argparse refuses any other value before cpwords runs).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cpwords import cli

#: A quick command line per command, to which one hostile flag is added.
BASE = {
    "solve": ["solve", "{examples}/ladder.yaml"],
    "ladder": ["ladder", "cold", "warm"],
    "letter-boxed": ["letter-boxed", "abc", "def", "ghi", "jkl"],
    "grid": ["grid", "--shape", "ring-3x3", "--dict", "common-2k"],
    "board": ["board"],
    "ruzzle": ["ruzzle", "cats", "dogs"],
    "spelling-bee": ["spelling-bee", "cejoprt"],
    "serve": ["serve"],
}
#: Flags walked elsewhere or not at all (see the module docstring).
SKIPPED = {"--cluster", "--help", "--engine"}
#: Values every numeric flag gets.
NUMBERS = ["0", "-1", "-99999999999999999999", "99999999999999999999999", "1e400", "nan", "-inf", "x", "",
           "9" * 5000, "0x10", "1_000"]
#: serve may only get values that stop it before it listens (anything else would serve forever).
SERVE_REFUSED = {"--port": ["-1", "99999", "x", "9" * 5000], "--workers": ["0", "-1", "x"],
                 "--max-time": ["0", "-1", "nan", "inf", "x"], "--queue": ["0", "-5"],
                 "--max-memory": ["0", "nan", "x", "-1"], "--token": ["", "   "]}


@pytest.fixture(scope="module")
def hostile_paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Files a flag naming a file gets: a FIFO, links (to a system file, to a folder, to
    nowhere), a name too long for the system, a folder, /dev/zero."""
    folder = tmp_path_factory.mktemp("hostile")
    fifo = folder / "fifo.yaml"
    os.mkfifo(fifo)
    (folder / "to-passwd.svg").symlink_to("/etc/passwd")
    (folder / "to-folder.yaml").symlink_to(folder)
    (folder / "dangling.svg").symlink_to(folder / "nowhere")
    (folder / "loop.yaml").symlink_to(folder / "loop.yaml")
    return {"fifo": str(fifo), "link-file": str(folder / "to-passwd.svg"), "link-folder": str(folder / "to-folder.yaml"),
            "dangling": str(folder / "dangling.svg"), "loop": str(folder / "loop.yaml"),
            "too-long": str(folder / ("x" * 300 + ".svg")), "folder": str(folder), "dev-zero": "/dev/zero",
            "empty": "", "dash": "-"}


def _flags(command: str) -> list[argparse.Action]:
    parser = cli.build_parser(command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [a for a in sub.choices[command]._actions
            if a.option_strings and a.nargs != 0 and not a.choices and a.option_strings[-1] not in SKIPPED]


def _cases(paths: dict[str, str]) -> list[list[str]]:
    examples = str(Path(__file__).resolve().parent.parent / "examples")
    cases = []
    for command, base in BASE.items():
        argv = [part.format(examples=examples) for part in base]
        for action in _flags(command):
            flag = action.option_strings[-1]
            if command == "serve":
                values = SERVE_REFUSED.get(flag, [])
            elif action.type in (int, float) or getattr(action.type, "__name__", "") == "positive_int":
                values = NUMBERS
            else:
                values = [*paths.values(), "x" * 5000, "\x00", "é" * 10]
            for value in values:
                limit = [] if flag == "--time-limit" or command == "serve" else ["--time-limit", "2"]
                cases.append([*argv, *limit, f"{flag}={value}" if value.startswith("-") else flag, *(
                    [] if value.startswith("-") else [value])])
    for value in ["x" * 5000, "", "\x00", "é" * 10, "9" * 5000, "ABC1", "a b"]:
        cases += [["ladder", value, value], ["ladder", "cold", value], ["letter-boxed", value, value, value, value],
                  ["letter-boxed", "abc", value], ["ruzzle", value], ["ruzzle", "cats", value],
                  ["spelling-bee", value], ["spelling-bee", "cejoprt", "--center", value],
                  ["dict", "info", value], ["dict", "define", value], ["grid", "--unscramble", value]]
    cases += [["solve", path] for path in paths.values()] + [["dict", "info", path] for path in paths.values()]
    return cases


RUNNER = r"""
import contextlib, io, json, os, signal, sys, traceback
from cpwords import cli

class Alarm(BaseException):
    pass

def ring(signum, frame):
    raise Alarm()

signal.signal(signal.SIGALRM, ring)
out = []
for argv in json.load(sys.stdin):
    err = io.StringIO()
    code, crash = None, None
    signal.alarm(20)
    try:
        with contextlib.redirect_stderr(err):
            code = cli.main(argv)
    except Alarm:
        crash = "timeout"
    except BaseException:
        crash = traceback.format_exc()
    finally:
        signal.alarm(0)
    out.append({"argv": argv, "code": code, "stderr": err.getvalue(), "crash": crash})
with open(sys.argv[1], "w") as f:
    json.dump(out, f)
"""


def test_every_flag_with_hostile_values_gives_no_traceback(hostile_paths: dict[str, str], tmp_path: Path) -> None:
    cases = _cases(hostile_paths)
    assert len(cases) > 300, len(cases)
    env = {**os.environ, "CPWORDS_CLUSTER": ""}
    halves = [cases[0::2], cases[1::2]]
    runners = []
    for i, half in enumerate(halves):
        report = tmp_path / f"report-{i}.json"
        proc = subprocess.Popen([sys.executable, "-c", RUNNER, str(report)], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(half))
        proc.stdin.close()
        runners.append((proc, report))
    failures = []
    for proc, report in runners:
        try:
            proc.wait(timeout=240)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            pytest.fail("the hostile-flag runner did not finish in 240 s")
        assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
        for case in json.loads(report.read_text()):
            problem = _problem(case)
            if problem:
                failures.append(f"{' '.join(a[:40] for a in case['argv'])}: {problem}")
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} of {len(cases)} command lines)"


def _problem(case: dict[str, object]) -> str | None:
    stderr = str(case["stderr"])
    if case["crash"]:
        return f"crashed: {str(case['crash'])[-600:]}"
    if "Traceback" in stderr:
        return f"traceback: {stderr[-600:]}"
    code = case["code"]
    if code == 2:
        errors = [line for line in stderr.splitlines() if line.startswith(("cpwords: error:", "cpwords ", "usage:"))]
        return None if errors else f"exit 2 without an error line: {stderr[-300:]!r}"
    if code in (0, 1):
        return None
    return f"exit {code}: {stderr[-300:]}"


# ---------------------------------------------------------------- closed streams, as real processes


@pytest.mark.parametrize("argv", [["ladder", "cold", "warm"], ["schema", "ladder"], ["dict", "list"],
                                  ["letter-boxed", "abc", "def", "ghi", "jkl", "--json"]])
@pytest.mark.parametrize("closed", [(0,), (1,), (2,), (0, 1, 2)], ids=["stdin", "stdout", "stderr", "all"])
def test_closed_streams(argv: list[str], closed: tuple[int, ...], tmp_path: Path) -> None:
    def close() -> None:
        for fd in closed:
            os.close(fd)

    err_file = tmp_path / "err"
    with err_file.open("w") as err:
        run = subprocess.run([sys.executable, "-m", "cpwords", *argv], preexec_fn=close, timeout=60, check=False,
                             stdout=None if 1 in closed else subprocess.DEVNULL,
                             stderr=None if 2 in closed else err, stdin=None if 0 in closed else subprocess.DEVNULL)
    text = err_file.read_text()
    assert "Traceback" not in text, text
    assert run.returncode == (2 if 1 in closed else 0), (run.returncode, text)
