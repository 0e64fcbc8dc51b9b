"""Issue 23: walk every flag of every command with hostile values (too long, huge, negative,
zero, the wrong type, a link, a FIFO, a closed stream) and assert no traceback, exit 0 or 2.

The flags are read from the parser itself, so a new flag is walked without editing this file.
Hundreds of commands do not fit a test as one process each: every run calls ``cpwords.cli.main``
(what the console script calls) in this process for every flag with three of its hostile values
(taken in turn, so that each command gets every value on some flag) and every hostile positional
argument, under a short time limit; the sweep walks every flag with every value in two runner
processes (started as ``python -c``, each taking half of the command lines). A hang guard
(:data:`pace.HANG_S`) only stops a command that never ends; the closed streams are real
subprocesses. Exit 1 is accepted where the command printed a result (a hostile time limit leaves
a search ``unknown``: a clean result, not an error).

The positional arguments (words, sides, letters, rows, files) get the same treatment.
``--cluster`` is left out (it starts Dask clusters: issue 22 walks it) and so are flags with
fixed choices (argparse refuses any other value before cpwords runs).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import traceback
import warnings
from pathlib import Path

import pytest
from pace import HANG_S
from test_robustness import Hung, hang_guard

from cpwords import cli, puzzles

#: A quick command line per command, to which one hostile flag is added: each kind's from its
#: cases.py (``QUICK_COMMAND``), in the registry's order.
BASE = {
    "solve": ["solve", "{examples}/ladder.yaml"],
    **{kind.command: kind.test_cases().QUICK_COMMAND for kind in puzzles.kinds().values()},
    "serve": ["serve"],
}
#: Flags walked elsewhere or not at all (see the module docstring).
SKIPPED = {"--cluster", "--help", "--engine"}
#: Values every numeric flag gets.
NUMBERS = ["0", "-1", "-99999999999999999999", "99999999999999999999999", "1e400", "nan", "-inf", "x", "",
           "9" * 5000, "0x10", "1_000"]
#: Hostile values each flag gets in every run (the sweep gives it all of them).
VALUES_PER_FLAG = 3
#: The time limit added to a command line (unless the hostile flag is --time-limit): it only keeps
#: a command that a hostile value makes long (``--generate 1_000``) short; what it stops is a result.
LIMIT_S = {"every run": "0.2", "sweep": "2"}
#: serve may only get values that stop it before it listens (anything else would serve forever).
SERVE_REFUSED = {"--port": ["-1", "99999", "x", "9" * 5000], "--workers": ["0", "-1", "x"],
                 "--max-time": ["0", "-1", "nan", "inf", "x", "1e400"], "--queue": ["0", "-5"],
                 "--max-memory": ["0", "nan", "x", "-1", "9223372036854775808"], "--token": ["", "   "]}


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


def _numeric(action: argparse.Action) -> bool:
    return action.type in (int, float) or getattr(action.type, "__name__", "") == "positive_int"


def _flag_values(command: str, paths: dict[str, str], *, every_value: bool) -> list[tuple[str, list[str]]]:
    """Each flag of ``command`` with the hostile values it gets: all of them, or (``every_value``
    false) :data:`VALUES_PER_FLAG` (more where a command has few flags of a type), taken in turn
    across the command's flags of one type so that the command still gets every value."""
    texts = [*paths.values(), "x" * 5000, "\x00", "é" * 10]
    flags = [(a.option_strings[-1], NUMBERS if _numeric(a) else texts) for a in _flags(command)]
    if command == "serve":  # few values, and each stops serve before it listens
        return [(flag, SERVE_REFUSED.get(flag, [])) for flag, _ in flags]
    if every_value:
        return flags
    turn = {id(NUMBERS): 0, id(texts): 0}  # per value list: where the next flag's values start
    out = []
    for flag, values in flags:
        many = max(VALUES_PER_FLAG, -(-len(values) // sum(1 for _, v in flags if v is values)))
        start = turn[id(values)]
        turn[id(values)] = start + many
        out.append((flag, [values[(start + i) % len(values)] for i in range(many)]))
    return out


def _cases(paths: dict[str, str], *, every_value: bool = True, limit: str = LIMIT_S["sweep"]) -> list[list[str]]:
    """The hostile command lines: each command's flags with their hostile values (see
    :func:`_flag_values`), and the hostile positional arguments."""
    examples = str(Path(__file__).resolve().parent.parent / "examples")
    cases = []
    for command, base in BASE.items():
        argv = [part.format(examples=examples) for part in base]
        for flag, values in _flag_values(command, paths, every_value=every_value):
            for value in values:
                extra = [] if flag == "--time-limit" or command == "serve" else ["--time-limit", limit]
                cases.append([*argv, *extra, f"{flag}={value}" if value.startswith("-") else flag, *(
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
from cpwords import cli, puzzles

class Alarm(BaseException):
    pass

def ring(signum, frame):
    raise Alarm()

signal.signal(signal.SIGALRM, ring)
out = []
for argv in json.load(sys.stdin):
    err = io.StringIO()
    code, crash = None, None
    signal.alarm(int(sys.argv[2]))
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


def _run_in_process(argv: list[str]) -> dict[str, object]:
    """One command line through cli.main, as RUNNER runs it: its exit code, stderr and crash."""
    err = io.StringIO()
    code, crash = None, None
    saved = warnings.showwarning
    try:
        with open(os.devnull, "w") as out, hang_guard(" ".join(a[:40] for a in argv)), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
    except Hung:
        crash = f"still running after {HANG_S:.0f} s"
    except Exception:
        crash = traceback.format_exc()
    finally:
        warnings.showwarning = saved
    return {"argv": argv, "code": code, "stderr": err.getvalue(), "crash": crash}


def test_every_flag_with_hostile_values_gives_no_traceback(hostile_paths: dict[str, str], tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Every flag with three hostile values, every value on some flag of each command, and every
    hostile positional argument, in this process."""
    cases = _cases(hostile_paths, every_value=False, limit=LIMIT_S["every run"])
    for command in BASE:  # every flag walked, every value of a type given to some flag of the command
        every, some = (dict(_flag_values(command, hostile_paths, every_value=e)) for e in (True, False))
        assert some.keys() == every.keys(), command
        for values in {tuple(v) for v in every.values()}:
            walked = {x for flag, v in some.items() if tuple(every[flag]) == values for x in v}
            assert walked == set(values), (command, set(values) - walked)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CPWORDS_CLUSTER", "")
    failures = []
    for argv in cases:
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # `solve -`: an empty stdin, as the runner's
        problem = _problem(_run_in_process(argv))
        if problem:
            failures.append(f"{' '.join(a[:40] for a in argv)}: {problem}")
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} of {len(cases)} command lines)"


@pytest.mark.sweep
def test_every_flag_with_every_hostile_value_gives_no_traceback(hostile_paths: dict[str, str],
                                                                tmp_path: Path) -> None:
    """The whole matrix, each command line run by cli.main in one of two runner processes."""
    cases = _cases(hostile_paths)
    assert len(cases) > 300, len(cases)
    env = {**os.environ, "CPWORDS_CLUSTER": ""}
    halves = [cases[0::2], cases[1::2]]
    runners = []
    for i, half in enumerate(halves):
        report = tmp_path / f"report-{i}.json"
        proc = subprocess.Popen([sys.executable, "-c", RUNNER, str(report), str(int(HANG_S))], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(half))
        proc.stdin.close()
        runners.append((proc, report))
    failures = []
    for proc, report in runners:
        assert proc.stderr is not None
        stderr = proc.stderr.read()  # each command line has its own hang guard (the runner's alarm)
        assert proc.wait() == 0, stderr
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


STREAM_ARGVS = [["ladder", "cold", "warm"], ["schema", "ladder"], ["dict", "list"],
                ["letter-boxed", "abc", "def", "ghi", "jkl", "--json"]]
CLOSED = {"stdin": (0,), "stdout": (1,), "stderr": (2,), "all": (0, 1, 2)}


@pytest.mark.parametrize(("closed", "argv"), [
    # every run: each stream closed once, each command once (i == j); the sweep: every pair
    pytest.param(CLOSED[name], argv, id=f"{name}-argv{j}", marks=[] if i == j else [pytest.mark.sweep])
    for i, name in enumerate(CLOSED) for j, argv in enumerate(STREAM_ARGVS)])
def test_closed_streams(argv: list[str], closed: tuple[int, ...], tmp_path: Path) -> None:
    def close() -> None:
        for fd in closed:
            os.close(fd)

    err_file = tmp_path / "err"
    with err_file.open("w") as err:
        run = subprocess.run([sys.executable, "-m", "cpwords", *argv], preexec_fn=close, timeout=HANG_S, check=False,
                             stdout=None if 1 in closed else subprocess.DEVNULL,
                             stderr=None if 2 in closed else err, stdin=None if 0 in closed else subprocess.DEVNULL)
    text = err_file.read_text()
    assert "Traceback" not in text, text
    assert run.returncode == (2 if 1 in closed else 0), (run.returncode, text)
