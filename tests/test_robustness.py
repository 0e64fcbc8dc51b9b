"""Bad input never shows a traceback: one line on stderr, exit code 2, the file named.

Two parts:

* a sweep of about ninety mistakes across every kind (typos in fields, wrong letters, unknown
  words, empty and broken files, bad flags), run through :func:`cpwords.cli.main`, the function
  the ``cpwords`` command runs: an exception escaping it is exactly what a user would see as a
  traceback, so in-process calls check the promise at a fraction of the cost of ninety processes;
* regressions for special files, stdout on ``/dev/full``, SVG targets that cannot be written,
  pathological word lists: in-process too where the message and the exit code are the promise
  (a special file that would block is guarded by :func:`hang_guard`), and a representative of each
  run as the user would, ``python -m cpwords`` in a subprocess (the others of them in the
  ``sweep``).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest
from pace import HANG_S

from cpwords import api
from cpwords.cli import main

ERROR_LINE = re.compile(r"^cpwords(?: [\w-]+)*: error: \S")

LADDER = "kind: ladder\nstart: cold\ntarget: warm\n"
BOX = "kind: letter_boxed\nsides: [lme, iuf, wcb, oas]\n"
GRID = "kind: word_grid\n"
BOARD = "kind: prefix_suffix_board\n"
RUZZLE = "kind: ruzzle\ngrid: [CATS, DOGS, QUITE, EMUS]\n"

#: Files the cases name, written into a fresh folder (``{d}`` in a case is that folder).
FILES: dict[str, str | bytes] = {
    # puzzle files: typos, wrong values, wrong letters, unknown words, across kinds
    "typo-field.yaml": LADDER + "strat: cold\n",
    "no-kind.yaml": "start: cold\ntarget: warm\n",
    "bad-kind.yaml": "kind: laddr\nstart: cold\ntarget: warm\n",
    "seed-date.yaml": LADDER + "seed: 2024-02-30\n",
    "seed-text.yaml": LADDER + "seed: abc\n",
    "time-negative.yaml": LADDER + "time_limit: -1\n",
    "workers-zero.yaml": LADDER + "workers: 0\n",
    "ladder-digit.yaml": "kind: ladder\nstart: c4t\ntarget: dog\n",
    "ladder-lengths.yaml": "kind: ladder\nstart: cold\ntarget: warmer\n",
    "ladder-unknown-word.yaml": "kind: ladder\nstart: qxzv\ntarget: warm\n",
    "ladder-engine.yaml": LADDER + "engine: cpsat\n",
    "ladder-mode.yaml": LADDER + "mode: fastest\n",
    "ladder-limit.yaml": LADDER + "limit: 0\n",
    "ladder-pick.yaml": LADDER + "shortest_pick: rarest\n",
    "box-repeat.yaml": "kind: letter_boxed\nsides: [abc, ade, fgh, ijk]\n",
    "box-digit.yaml": "kind: letter_boxed\nsides: [ab1, cde, fgh, ijk]\n",
    "box-task.yaml": BOX + "task: solve\n",
    "box-engine-task.yaml": "kind: letter_boxed\ntask: generate\nengine: sat\n",
    "box-max-words.yaml": BOX + "max_words: 0\n",
    "box-par.yaml": "kind: letter_boxed\ntask: generate\npar: 9\n",
    "box-no-sides.yaml": "kind: letter_boxed\ntask: min_words\n",
    "box-sides-type.yaml": "kind: letter_boxed\nsides: lme\n",
    "grid-shape.yaml": GRID + "shape: gridle-6x6\n",
    "grid-objective.yaml": GRID + "objective: rare\n",
    "grid-given-size.yaml": GRID + "task: fill\ngiven: ['c?a?e', '?#?#?']\n",
    "grid-given-letter.yaml": GRID + "task: fill\ngiven: ['c?a1e', '?#?#?', '?????', '?#?#?', '????s']\n",
    "grid-unscramble-sat.yaml": GRID + "task: unscramble\nengine: sat\n"
                                "scrambled: [aobut, 'g#t#a', auhes, 'i#e#t', nsrse]\n",
    "grid-count-zero.yaml": GRID + "count: 0\n",
    "grid-scrambled-size.yaml": GRID + "task: unscramble\nscrambled: [aobut]\n",
    "board-name.yaml": BOARD + "board: okwddx\n",
    "board-lengths.yaml": BOARD + "prefix_length: [5, 2]\n",
    "board-slot.yaml": BOARD + "task: solve\nsuffixes: {s_x: nd}\n",
    "board-solve-nothing.yaml": BOARD + "task: solve\n",
    "board-count.yaml": BOARD + "count: 0\n",
    "ruzzle-ragged.yaml": "kind: ruzzle\ngrid: [CATS, DOG]\n",
    "ruzzle-bonus-off.yaml": RUZZLE + "bonuses: {TW: [[9, 9]]}\n",
    "ruzzle-bonus-name.yaml": RUZZLE + "bonuses: {XX: [[1, 1]]}\n",
    "ruzzle-digit.yaml": "kind: ruzzle\ngrid: [CAT5, DOGS]\n",
    "ruzzle-min-length.yaml": RUZZLE + "min_word_length: 0\n",
    "ruzzle-engine-task.yaml": RUZZLE + "task: count_paths\nengine: trie\n",
    "ruzzle-layout-name.yaml": RUZZLE + "bonuses: ruzzle-9x9\n",
    # dictionaries
    "dict-name.yaml": LADDER + "dictionary: scowl-71\n",
    "dict-two.yaml": LADDER + "dictionary: {name: scowl-70, words: [cat]}\n",
    "dict-missing.yaml": LADDER + "dictionary: {path: missing.txt}\n",
    "dict-folder.yaml": LADDER + "dictionary: {path: folder}\n",
    "dict-lengths.yaml": LADDER + "dictionary: {name: scowl-70, min_length: 5, max_length: 3}\n",
    "dict-exclude.yaml": LADDER + "dictionary: {name: scowl-70, exclude: [rude]}\n",
    "dict-empty-filter.yaml": LADDER + "dictionary: {words: [cat], min_length: 5}\n",
    "dict-empty-file.yaml": LADDER + "dictionary: {path: empty.txt}\n",
    "dict-binary.yaml": LADDER + "dictionary: {path: binary.bin}\n",
    "dict-utf16.yaml": LADDER + "dictionary: {path: utf16.txt}\n",
    "dict-devzero.yaml": LADDER + "dictionary: {path: /dev/zero}\n",
    # broken YAML
    "syntax.yaml": "kind: ladder\nstart: [cold\n",
    "empty.yaml": "",
    "list.yaml": "- kind: ladder\n",
    "bomb.yaml": "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefg", "bcdefgh", strict=True)),
    "deep.yaml": "kind: ladder\nstart: " + "[" * 500 + "]" * 500 + "\n",
    "binary.yaml": bytes(range(256)) * 4,
    "utf16.yaml": (LADDER).encode("utf-16"),
    "batch-second-bad.yaml": LADDER + "---\n" + LADDER + "mode: fastest\n",
    "bom-typo.yaml": b"\xef\xbb\xbf" + (LADDER + "strat: x\n").encode(),
    # files that specs and options name
    "shape-bad-yaml.yaml": GRID + "shape: shape-bad.yaml\n",
    "shape-bad.yaml": "rows: [.....\n",
    "shape-list.yaml": GRID + "shape: shape-list-file.yaml\n",
    "shape-list-file.yaml": "- .....\n",
    "board-no-nodes.yaml": BOARD + "board: board-no-nodes-file.yaml\n",
    "board-no-nodes-file.yaml": "edges: [[a, b]]\n",
    "board-bad-edge.yaml": BOARD + "board: board-bad-edge-file.yaml\n",
    "board-bad-edge-file.yaml": "nodes: {a: {kind: prefix, at: [0, 0]}}\nedges: [[a, z]]\n",
    "layout-list.yaml": RUZZLE + "bonuses: layout-list-file.yaml\n",
    "layout-list-file.yaml": "- DL\n",
    "fill-rows.txt": "c?a?e\n?#?\n",
    "empty.txt": "",
    "binary.bin": bytes(range(256)) * 4,
    "utf16.txt": "cold\ncord\n".encode("utf-16"),
    "words.txt": "cold\ncord\ncard\nward\nwarm\n",
    "out.svg": "<svg/>",
}

#: (case id, argv); ``{d}`` is the folder holding FILES (and the current directory).
CASES: list[tuple[str, list[str]]] = [
    *((name.removesuffix(".yaml"), ["solve", "{d}/" + name]) for name in FILES
      if name.endswith(".yaml") and not name.endswith(("-file.yaml", "shape-bad.yaml"))),
    ("solve-missing", ["solve", "{d}/nope.yaml"]),
    ("solve-folder", ["solve", "{d}/folder"]),
    ("solve-devzero", ["solve", "/dev/zero"]),
    ("ladder-one-word", ["ladder", "cold"]),
    ("ladder-limit-flag", ["ladder", "cold", "warm", "--limit", "0"]),
    ("ladder-dict-name", ["ladder", "cold", "warm", "--dict", "scowl-999"]),
    ("ladder-dict-missing", ["ladder", "cold", "warm", "--dict", "{d}/missing.txt"]),
    ("ladder-dict-utf16", ["ladder", "cold", "warm", "--dict", "{d}/utf16.txt"]),
    ("ladder-dict-devzero", ["ladder", "cold", "warm", "--dict", "/dev/zero"]),
    ("ladder-unknown-word", ["ladder", "cold", "wxrm", "--dict", "{d}/words.txt"]),
    ("ladder-seed-text", ["ladder", "cold", "warm", "--seed", "abc"]),
    ("ladder-groups-and-words", ["ladder", "cold", "warm", "--groups", "4"]),
    ("box-no-sides", ["letter-boxed"]),
    ("box-digit", ["letter-boxed", "ab1", "cde", "fgh", "ijk"]),
    ("box-max-words", ["letter-boxed", "lme", "iuf", "wcb", "oas", "--max-words", "0"]),
    ("box-engine-task", ["letter-boxed", "--task", "generate", "--engine", "sat"]),
    ("grid-shape", ["grid", "--shape", "nope"]),
    ("grid-shape-file", ["grid", "--shape", "{d}/missing.yaml"]),
    ("grid-fill-missing", ["grid", "--fill", "{d}/missing.txt"]),
    ("grid-fill-rows", ["grid", "--fill", "{d}/fill-rows.txt"]),
    ("grid-fill-empty", ["grid", "--fill", "{d}/empty.txt"]),
    ("grid-fill-binary", ["grid", "--fill", "{d}/binary.bin"]),
    ("grid-fill-utf16", ["grid", "--fill", "{d}/utf16.txt"]),
    ("grid-fill-deep", ["grid", "--fill", "{d}/deep.yaml"]),
    ("grid-unscramble-folder", ["grid", "--unscramble", "{d}/folder"]),
    ("board-solve-slot", ["board", "--solve", "s_x=ab"]),
    ("board-lengths", ["board", "--prefix-length", "4-2"]),
    ("board-file", ["board", "--board", "{d}/missing.yaml"]),
    ("ruzzle-ragged", ["ruzzle", "AB", "CDE"]),
    ("ruzzle-bonus-name", ["ruzzle", "ABCD", "EFGH", "--bonus", "XX:1,1"]),
    ("ruzzle-bonus-off", ["ruzzle", "ABCD", "EFGH", "--bonus", "TW:9,9"]),
    ("ruzzle-layout", ["ruzzle", "ABCD", "EFGH", "--bonuses", "nope"]),
    ("time-limit-flag", ["ladder", "cold", "warm", "--time-limit", "-5"]),
    ("workers-flag", ["ladder", "cold", "warm", "--workers", "0"]),
    ("svg-suffix", ["letter-boxed", "lme", "iuf", "wcb", "oas", "--svg", "{d}/out.txt"]),
    ("svg-folder", ["letter-boxed", "lme", "iuf", "wcb", "oas", "--svg", "{d}/folder.svg", "--force"]),
    ("svg-exists", ["letter-boxed", "lme", "iuf", "wcb", "oas", "--svg", "{d}/out.svg"]),
    ("svg-input", ["solve", "{d}/input.svg", "--svg", "{d}/input.svg", "--force"]),
    ("svg-no-folder", ["letter-boxed", "lme", "iuf", "wcb", "oas", "--svg", "{d}/no/such/out.svg"]),
    ("dict-info-file", ["dict", "info", "{d}/utf16.txt"]),
    ("dict-define", ["dict", "define", "12"]),
    ("schema-kind", ["schema", "nokind"]),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("bad-inputs")
    for name, content in FILES.items():
        (d / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    (d / "folder").mkdir()
    (d / "folder.svg").mkdir()
    (d / "input.svg").write_text(LADDER)
    return d


@pytest.fixture
def quiet_warnings() -> Iterator[None]:
    saved = warnings.showwarning
    yield
    warnings.showwarning = saved


def test_the_sweep_covers_every_kind() -> None:
    assert len(CASES) >= 80
    commands = {argv[0] for _, argv in CASES} | {
        FILES[argv[1].removeprefix("{d}/")].split(b"\n")[0] if isinstance(FILES.get(argv[1].removeprefix("{d}/")), bytes)
        else str(FILES.get(argv[1].removeprefix("{d}/"), "")).split("\n")[0] for _, argv in CASES if argv[0] == "solve"}
    for needed in ("ladder", "letter-boxed", "grid", "board", "ruzzle", "kind: letter_boxed", "kind: word_grid",
                   "kind: prefix_suffix_board", "kind: ruzzle", "kind: ladder"):
        assert needed in commands


@pytest.mark.parametrize("argv", [argv for _, argv in CASES], ids=[f"{i}-{name}" for i, (name, _) in enumerate(CASES)])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], folder: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch, quiet_warnings: None) -> None:
    monkeypatch.chdir(folder)
    code = main([a.replace("{d}", str(folder)) for a in argv])  # an escaping exception fails the test
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, err
    assert len(lines) == 1 and ERROR_LINE.match(lines[0]), err
    assert "Traceback" not in err


#: Puzzle files whose mistake is in another file they name, and that file.
NAMED_FILES = {
    "dict-missing.yaml": "missing.txt", "dict-folder.yaml": "folder", "dict-empty-file.yaml": "empty.txt",
    "dict-binary.yaml": "binary.bin", "dict-utf16.yaml": "utf16.txt", "dict-devzero.yaml": "/dev/zero",
    "shape-bad-yaml.yaml": "shape-bad.yaml", "shape-list.yaml": "shape-list-file.yaml",
    "board-no-nodes.yaml": "board-no-nodes-file.yaml", "board-bad-edge.yaml": "board-bad-edge-file.yaml",
    "layout-list.yaml": "layout-list-file.yaml",
}


@pytest.mark.parametrize(("name", "named"), NAMED_FILES.items())
def test_errors_about_a_file_name_it(name: str, named: str, folder: Path, capsys: pytest.CaptureFixture[str],
                                     quiet_warnings: None) -> None:
    """A puzzle that names a file which is wrong: the error names that file, not only the puzzle."""
    assert main(["solve", str(folder / name)]) == 2
    assert named in capsys.readouterr().err


# ---------------------------------------------------------------- as the user runs it: subprocesses


def cpwords(*argv: str, cwd: Path | None = None, stdout: int | object = subprocess.PIPE,
            timeout: float = HANG_S) -> subprocess.CompletedProcess[str]:
    """``python -m cpwords ARGV`` as a user runs it (``timeout`` guards against a hang only)."""
    return subprocess.run([sys.executable, "-m", "cpwords", *argv], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, cwd=cwd, timeout=timeout, check=False)


class Hung(BaseException):
    """An in-process command still running after :data:`pace.HANG_S` (a BaseException: no
    ``except Exception`` in cpwords swallows it)."""


@contextmanager
def hang_guard(what: str) -> Iterator[None]:
    """Fail, not hang, when an in-process command blocks (a FIFO opened for reading waits for a
    writer forever): the alarm interrupts the blocked call after :data:`pace.HANG_S`."""
    def ring(signum: int, frame: FrameType | None) -> None:
        raise Hung(f"{what}: still running after {HANG_S:.0f} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, HANG_S)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> subprocess.CompletedProcess[str]:
    """``cpwords ARGV`` through :func:`cpwords.cli.main` (what the command runs), as a
    CompletedProcess: exit code, stdout, stderr."""
    with hang_guard(" ".join(argv)):
        code = main(argv)
    captured = capsys.readouterr()
    return subprocess.CompletedProcess(["cpwords", *argv], code, captured.out, captured.err)


def assert_one_error_line(run: subprocess.CompletedProcess[str], *, naming: str | None = None) -> str:
    """Exit 2, no traceback, exactly one error line (naming ``naming`` when given); returns it."""
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    errors = [line for line in run.stderr.splitlines() if ERROR_LINE.match(line)]
    others = [line for line in run.stderr.splitlines() if line.strip() and not ERROR_LINE.match(line)
              and not line.startswith("wrote ")]
    assert len(errors) == 1 and not others, run.stderr
    if naming is not None:
        assert naming in errors[0], errors[0]
    return errors[0]


@pytest.fixture(scope="module")
def fifo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fifo") / "pipe"
    os.mkfifo(path)
    return path


SPECIAL_FILE_USES = [
    ("puzzle file", ["solve", "{f}"]),
    ("--dict", ["ladder", "cold", "warm", "--dict", "{f}"]),
    ("dictionary path", ["solve", "{y}"]),
    ("shape", ["grid", "--shape", "{f}"]),
    ("board", ["board", "--board", "{f}"]),
    ("bonus layout", ["ruzzle", "ABCD", "EFGH", "IJKL", "MNOP", "--bonuses", "{f}"]),
    ("--fill", ["grid", "--fill", "{f}"]),
    ("--unscramble", ["grid", "--unscramble", "{f}"]),
]


def _special_argv(argv: list[str], special: str, fifo: Path, folder: Path) -> list[str]:
    """A SPECIAL_FILE_USES command line naming ``special`` (``{y}``: a puzzle whose dictionary is it)."""
    target = str(fifo) if special == "fifo" else special
    spec = folder / "dict.yaml"
    spec.write_text(LADDER + f"dictionary: {{path: {target}}}\n")
    return [a.replace("{f}", target).replace("{y}", str(spec)) for a in argv]


@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
@pytest.mark.parametrize(("what", "argv"), SPECIAL_FILE_USES, ids=[w for w, _ in SPECIAL_FILE_USES])
def test_special_files_are_refused_before_reading(what: str, argv: list[str], special: str, fifo: Path,
                                                  tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  quiet_warnings: None) -> None:
    """/dev/zero would fill memory and a FIFO would block forever: both are refused at once (a
    read that blocks fails the test through :func:`hang_guard`)."""
    args = _special_argv(argv, special, fifo, tmp_path)
    line = assert_one_error_line(run_main(args, capsys), naming=str(fifo) if special == "fifo" else special)
    assert "special file" in line


@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
@pytest.mark.parametrize(("what", "argv"), [
    pytest.param(what, argv, id=what, marks=[] if what == "puzzle file" else [pytest.mark.sweep])
    for what, argv in SPECIAL_FILE_USES])
def test_special_files_are_refused_as_the_user_runs_it(what: str, argv: list[str], special: str, fifo: Path,
                                                      tmp_path: Path) -> None:
    """The same, as a process (a FIFO read would block until the hang guard)."""
    args = _special_argv(argv, special, fifo, tmp_path)
    line = assert_one_error_line(cpwords(*args), naming=str(fifo) if special == "fifo" else special)
    assert "special file" in line


@pytest.mark.parametrize(("content", "word"), [("cold\n".encode("utf-16"), "UTF-16"),
                                               (bytes(range(256)) * 8, "binary")])
@pytest.mark.parametrize("option", ["--fill", "--unscramble"])
def test_utf16_and_binary_grid_files(option: str, content: bytes, word: str, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rows.txt"
    path.write_bytes(content)
    line = assert_one_error_line(run_main(["grid", option, str(path)], capsys), naming=str(path))
    assert word in line


def test_latin1_word_list_is_read_with_one_note(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               quiet_warnings: None) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("cold\ncord\ncard\nward\nwarm\ncafé\n".encode("latin-1"))
    run = run_main(["ladder", "cold", "warm", "--dict", str(path), "--mode", "shortest"], capsys)
    assert run.returncode == 0, run.stderr
    notes = run.stderr.splitlines()
    assert any("read as Latin-1" in n for n in notes) and all(n.startswith("cpwords: warning: ") for n in notes)
    assert "Traceback" not in run.stderr and "cold" in run.stdout


def test_ten_megabyte_word_is_refused_in_linear_time(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    quiet_warnings: None) -> None:
    """One line naming the file (reading that is not linear in the word's length would not end:
    the hang guard fails it)."""
    path = tmp_path / "huge.txt"
    path.write_text("a" * (10 * 1024 * 1024) + "\n")
    line = assert_one_error_line(run_main(["ladder", "cold", "warm", "--dict", str(path)], capsys),
                                 naming=str(path))
    assert "longer than 64 letters" in line


@pytest.mark.parametrize(("junk", "shown"), [(100_000, "100,000"),
                                             pytest.param(1_000_000, "1,000,000", marks=pytest.mark.sweep)])
def test_millions_of_junk_lines_give_one_readable_warning(junk: int, shown: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          quiet_warnings: None) -> None:
    """A hundred thousand lines in every run, a million in the sweep: one warning line."""
    path = tmp_path / "junk.txt"
    path.write_text("cold\ncord\ncard\nward\nwarm\n" + "".join(f"{i}x!\n" for i in range(junk)))
    run = run_main(["ladder", "cold", "warm", "--dict", str(path), "--mode", "shortest"], capsys)
    assert run.returncode == 0, run.stderr
    (line,) = run.stderr.splitlines()
    assert line.startswith("cpwords: warning: ") and f"skipped {shown} entries" in line and len(line) < 300


#: Commands whose output goes to /dev/full: text, JSON schema, a table.
FULL = [["ladder", "cold", "warm"], ["schema"], ["dict", "list"]]


@pytest.mark.parametrize("argv", FULL, ids=[a[0] for a in FULL])
def test_stdout_on_dev_full_is_one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process: stdout is a file on /dev/full (the console writes to whatever stdout is)."""
    with open("/dev/full", "w") as full:
        monkeypatch.setattr(sys, "stdout", full)
        code = main(argv)
        monkeypatch.undo()
    run = subprocess.CompletedProcess(argv, code, "", capsys.readouterr().err)
    assert "cannot write the output" in assert_one_error_line(run)


@pytest.mark.parametrize("argv", [pytest.param(a, id=a[0], marks=[] if a[0] == "ladder" else [pytest.mark.sweep])
                                  for a in FULL])
def test_stdout_on_dev_full_as_the_user_runs_it(argv: list[str]) -> None:
    """The same as a process: the interpreter's own last flush must not fail again either."""
    with open("/dev/full", "w") as full:
        line = assert_one_error_line(cpwords(*argv, stdout=full))
    assert "cannot write the output" in line


def _readonly_target(tmp_path: Path) -> str:
    if os.geteuid() == 0:  # root writes through permissions: use a file system that refuses
        return "/sys/cpwords-test.svg"
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    return str(ro / "out.svg")


@pytest.mark.parametrize("where", ["folder", "proc", "readonly"])
def test_svg_that_cannot_be_written_is_refused_before_solving(where: str, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    target = {"folder": str(tmp_path / "pictures.svg"), "proc": "/proc/cpwords-test.svg",
              "readonly": _readonly_target(tmp_path)}[where]
    if where == "folder":
        Path(target).mkdir()
    monkeypatch.setattr(api, "solve_stream", lambda *a, **k: pytest.fail("solved before the --svg check"))
    run = run_main(["letter-boxed", "lme", "iuf", "wcb", "oas", "--svg", target, "--force", "--json"], capsys)
    line = assert_one_error_line(run, naming=target)
    assert "--svg" in line and run.stdout == ""
    assert not Path(target).is_file()


def test_svg_failing_after_the_solve_never_loses_the_result(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           quiet_warnings: None) -> None:
    """Generated puzzles are drawn one file each; the second name is taken (no --force): refused
    before solving (issue 24), nothing written; a name taken only during the solve costs no result."""
    target = tmp_path / "box.svg"
    taken = tmp_path / "box-2.svg"
    taken.write_text("mine")
    argv = ["letter-boxed", "--task", "generate", "--puzzles", "2", "--par", "2", "--dict", "common-20k",
            "--seed", "5", "--svg", str(target), "--json"]
    run = run_main(argv, capsys)
    assert_one_error_line(run, naming=str(taken))
    assert run.stdout == "" and not (tmp_path / "box-1.svg").exists()
    assert taken.read_text() == "mine"  # never written over


def test_generated_puzzles_are_drawn_one_file_each_and_blank_for_players(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str],
                                                                        quiet_warnings: None) -> None:
    target = tmp_path / "puzzle.svg"
    run = run_main(["letter-boxed", "--task", "generate", "--puzzles", "2", "--dict", "common-20k", "--seed", "5",
                    "--svg", str(target), "--blank"], capsys)
    assert run.returncode == 0, run.stderr
    pictures = sorted(tmp_path.glob("puzzle-*.svg"))
    assert [p.name for p in pictures] == ["puzzle-1.svg", "puzzle-2.svg"]
    for picture in pictures:
        text = picture.read_text()
        assert "polyline" not in text and "join every letter in" in text  # the box, not its answer


@pytest.mark.parametrize(("argv", "flag"), [
    (["ladder", "cold", "warm", "--limit", "0"], "--limit"),
    (["letter-boxed", "lme", "iuf", "wcb", "oas", "--max-words", "0"], "--max-words"),
    (["board", "--prefix-length", "4-2"], "--prefix-length"),
    (["ladder", "cold", "warm", "--time-limit", "-5"], "--time-limit"),
])
def test_errors_from_flags_are_blamed_on_the_flag(argv: list[str], flag: str, capsys: pytest.CaptureFixture[str],
                                                  quiet_warnings: None) -> None:
    """A shortcut builds a spec from its flags: its errors name the flag the user typed, not a spec
    field they never wrote, nor a file."""
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert f"'{flag}'" in line and "command line" not in line, line


def test_commands_that_cannot_draw_do_not_offer_svg(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "--help"]) == 0
    assert "--svg" not in capsys.readouterr().out
    assert main(["letter-boxed", "--help"]) == 0
    assert "--svg" in capsys.readouterr().out


@pytest.mark.parametrize(("puzzle", "limit"), [(BOX, "1e30"), (GRID + "shape: ring-3x3\nseed: 1\n", "1e30")])
def test_a_huge_time_limit_with_sat_is_no_limit(puzzle: str, limit: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """No OverflowError in the timer thread (a thread's traceback would reach the captured
    stderr): an enormous limit is no limit (an infinite one is refused at the input gate:
    tests/test_input_gate.py)."""
    path = tmp_path / "puzzle.yaml"
    path.write_text(puzzle + f"engine: sat\ntime_limit: {limit}\n")
    run = run_main(["solve", str(path), "--json"], capsys)
    assert run.returncode == 0 and not run.stderr.strip(), run.stderr
    result = json.loads(run.stdout)
    assert result["status"] == "optimal" and result["solutions"]


def test_generated_boards_and_grids_are_drawn_one_file_each(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            quiet_warnings: None) -> None:
    for command, name in (("board", "b.svg"), ("grid", "g.svg")):
        run = run_main([command, "--generate", "2", "--seed", "1", "--svg", str(tmp_path / name)], capsys)
        assert run.returncode == 0, run.stderr
        stem = name.removesuffix(".svg")
        assert sorted(p.name for p in tmp_path.glob(f"{stem}-*.svg")) == [f"{stem}-1.svg", f"{stem}-2.svg"]


def test_pictures_show_what_a_reader_needs(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           quiet_warnings: None) -> None:
    """The unscramble picture shows the scramble, the solved grid and the swaps; the count_paths
    picture shows the count; a Letter Boxed answer has numbered start markers and arrows."""
    examples = Path(__file__).resolve().parent.parent / "examples"
    pictures = {name: tmp_path / f"{name}.svg" for name in ("unscramble", "count", "box")}
    assert main(["solve", str(examples / "word_grid_unscramble.yaml"), "--svg", str(pictures["unscramble"])]) == 0
    assert main(["solve", str(examples / "ruzzle-count-paths.yaml"), "--svg", str(pictures["count"])]) == 0
    assert main(["letter-boxed", "lme", "iuf", "wcb", "oas", "--seed", "1", "--svg", str(pictures["box"])]) == 0
    capsys.readouterr()
    unscramble = pictures["unscramble"].read_text()
    assert ">scrambled<" in unscramble and ">solved<" in unscramble and re.search(r">\d+ swaps?: 1: \[", unscramble)
    assert re.search(r">[\d,]+ paths of 2 or more cells", pictures["count"].read_text())
    box = pictures["box"].read_text()
    arrows = box.count("<polygon") - 1  # the box itself is one polygon
    assert box.count("<polyline") == 2 and arrows >= 2 and ">1</text>" in box and ">2</text>" in box


@pytest.mark.parametrize("name", [pytest.param("seed-date.yaml", marks=pytest.mark.sweep), "deep.yaml",
                                  pytest.param("bom-typo.yaml", marks=pytest.mark.sweep)])
def test_yaml_traps_as_the_user_runs_them(name: str, folder: Path) -> None:
    """The in-process sweep above, for the YAML traps, as a subprocess: a YAML date, 500-deep
    nesting (no RecursionError, at the stack depth a fresh process has), a BOM before a typo (the
    typo is reported, not the BOM)."""
    line = assert_one_error_line(cpwords("solve", str(folder / name)), naming=name)
    assert {"seed-date.yaml": "2024-02-30", "deep.yaml": "nested", "bom-typo.yaml": "strat"}[name] in line
