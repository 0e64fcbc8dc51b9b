"""Issue 34, "one writer": every file cpwords writes goes through :mod:`cpwords.writer`.

The writer is tested once, as a table: every state a name can be in (missing, a file, a link to
a file, a dangling link, a folder, a FIFO, an input of the run, a ``.part`` of the name there, a
name too long) × every option that writes (``--out``, ``--svg``, ``--checkpoint``) × with and
without ``--force``, through the module's API and through :func:`cpwords.cli.main`; each case
checks the outcome (written, or one line saying why not) and that every other file of the folder
is byte for byte as it was, with no temporary left behind. Then each defect of the audit
(../shared/audits/turn4-defects.md: A1–A5, E8, E12, D2) is a regression test of its own, and each
mechanism runs once as a user runs it (a subprocess).

The table of every case is docs/reliability.md, "Issue 34".
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pace import HANG_S, big_word_list, running, wait_until
from test_robustness import assert_one_error_line, run_main

from cpwords import api, background, cli, writer
from cpwords.cluster.checkpoint import Checkpoint
from cpwords.errors import InputError

STATES = ["missing", "file", "link-to-file", "dangling", "folder", "fifo", "input", "part-present", "too-long"]
NAMES = {"--out": "answers.txt", "--svg": "answers.svg", "--checkpoint": "run.db"}
#: A Letter Boxed puzzle whose dictionary is a file beside it (an input named only in the spec).
#: (The word list ends in .svg so that it can be named as every option's file.)
BOX = "kind: letter_boxed\nsides: [lme, iuf, wcb, oas]\ndictionary: {path: words.svg}\nseed: 1\n"
WORDS = "blowflies\nsumac\n"
PRECIOUS = "precious user data\n"
FINGERPRINTS = [{"kind": "k", "fields": {}, "data": {}, "scheme": "s:1"}]


def _state(folder: Path, state: str, option: str) -> Path:
    """Put ``folder`` in ``state`` for ``option``'s file; returns the name to give the option."""
    (folder / "precious.txt").write_text(PRECIOUS)
    (folder / "words.svg").write_text(WORDS)
    (folder / "box.yaml").write_text(BOX)
    name = folder / NAMES[option]
    if state == "file":
        name.write_text("my own file\n")
    elif state == "link-to-file":
        name.symlink_to(folder / "precious.txt")
    elif state == "dangling":
        name.symlink_to(folder / "nowhere.txt")
    elif state == "folder":
        name.mkdir()
    elif state == "fifo":
        os.mkfifo(name)
    elif state == "input":
        return folder / "words.svg"
    elif state == "part-present":
        (folder / (name.name + ".part")).symlink_to(folder / "precious.txt")
    elif state == "too-long":
        return folder / ("x" * 300 + name.suffix)
    return name


def _expected(state: str, option: str, force: bool) -> str | None:
    """What the case gives: None (written), else a piece of its one error line."""
    refused = {"folder": "is a folder", "fifo": "special file", "input": "input of this run",
               "too-long": "File name too long"}
    if state in refused:
        return refused[state]
    if option == "--checkpoint":
        return {"file": "not a cpwords checkpoint", "link-to-file": "is a link", "dangling": "is a link"}.get(state)
    if not force and state in ("file", "link-to-file"):
        return "file exists; pass --force"
    if not force and state == "dangling":
        return "dangling link); pass --force"
    return None


def _snapshot(folder: Path) -> dict[str, Any]:
    """Every entry of ``folder`` as it is: a link's target, a file's bytes, a folder, a FIFO."""
    out: dict[str, Any] = {}
    for entry in folder.iterdir():
        st = entry.lstat()
        if stat.S_ISLNK(st.st_mode):
            out[entry.name] = ("link", os.readlink(entry))
        elif stat.S_ISREG(st.st_mode):
            out[entry.name] = ("file", entry.read_bytes())
        else:
            out[entry.name] = ("dir" if stat.S_ISDIR(st.st_mode) else "special",)
    return out


def _check_outcome(folder: Path, before: dict[str, Any], name: Path, error: str | None,
                   expected: str | None, written: bytes | None) -> None:
    """The folder after the case: refused, everything as it was; written, only ``name`` changed
    (a regular file now, never a link), no temporary left, nothing created where a link pointed."""
    after = _snapshot(folder)
    if expected is not None:
        assert error is not None and expected in error, error
        assert after == before
        return
    assert error is None, error
    assert not name.is_symlink() and name.is_file()
    if written is not None:
        assert name.read_bytes() == written
    assert {k: v for k, v in after.items() if k != name.name} == {k: v for k, v in before.items() if k != name.name}
    assert not (folder / "nowhere.txt").exists()


@pytest.mark.parametrize("force", [False, True], ids=["", "force"])
@pytest.mark.parametrize("option", list(NAMES))
@pytest.mark.parametrize("state", STATES)
def test_the_writer_over_every_file_state(state: str, option: str, force: bool, tmp_path: Path) -> None:
    """Through the module's API: claim the name, then write it (a checkpoint: open it)."""
    name = _state(tmp_path, state, option)
    before = _snapshot(tmp_path)
    outputs = writer.Outputs(force=force, inputs=[tmp_path / "box.yaml", tmp_path / "words.svg"])
    error = None
    try:
        claim = outputs.claim(str(name), option, resumable=option == "--checkpoint")
        assert claim is not None
        if option == "--checkpoint":
            with Checkpoint.open(claim.path, FINGERPRINTS):
                pass
        else:
            writer.write_text(claim, "new answers\n")
    except InputError as exc:
        error = exc.one_line()
    _check_outcome(tmp_path, before, name, error, _expected(state, option, force),
                   None if option == "--checkpoint" else b"new answers\n")


@pytest.mark.parametrize("force", [False, True], ids=["", "force"])
@pytest.mark.parametrize("option", list(NAMES))
@pytest.mark.parametrize("state", STATES)
def test_the_command_line_over_every_file_state(state: str, option: str, force: bool, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The same through ``cpwords solve box.yaml OPTION NAME [--force]`` (the input is the word
    list the puzzle file names)."""
    name = _state(tmp_path, state, option)
    before = _snapshot(tmp_path)
    run = run_main(["solve", str(tmp_path / "box.yaml"), option, str(name), *(["--force"] if force else [])], capsys)
    expected = _expected(state, option, force)
    if expected is None:
        assert run.returncode == 0, run.stderr
        error = None
    else:
        error = assert_one_error_line(run, naming=expected)
        assert option in error
    _check_outcome(tmp_path, before, name, error, expected, None)
    if expected is None and option == "--out":
        assert "blowflies → sumac" in name.read_text().lower()
    if expected is None and option == "--svg":
        assert name.read_text().startswith("<svg")


# ---------------------------------------------------------------- the audit's defects, each on its own


def test_a1_out_never_writes_into_a_part_file_that_is_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A1: ``FILE.part`` a link to the user's file, or the user's own notes: both left as they
    were (the answers went into the link's target, and the notes were renamed away)."""
    precious = tmp_path / "precious.txt"
    precious.write_text(PRECIOUS)
    (tmp_path / "r.txt.part").symlink_to(precious)
    (tmp_path / "s.txt.part").write_text("my own notes\n")
    for target in ("r.txt", "s.txt"):
        run = run_main(["letter-boxed", "lme", "iuf", "wcb", "oas", "--task", "enumerate", "--max-words", "3",
                        "--limit", "20", "--out", str(tmp_path / target)], capsys)
        assert run.returncode == 0, run.stderr
        assert not (tmp_path / target).is_symlink() and "sumac" in (tmp_path / target).read_text().lower()
    assert precious.read_text() == PRECIOUS and os.readlink(tmp_path / "r.txt.part") == str(precious)
    assert (tmp_path / "s.txt.part").read_text() == "my own notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["precious.txt", "r.txt", "r.txt.part", "s.txt", "s.txt.part"]


A2_CASES = {
    "ladder-dict": (["ladder", "cold", "warm", "--dict", "{d}/mywords.txt", "--out", "{d}/mywords.txt"], "mywords.txt"),
    "grid-fill": (["grid", "--fill", "{d}/fill.txt", "--out", "{d}/fill.txt"], "fill.txt"),
    "bonus-layout": (["solve", "{d}/rb.yaml", "--out", "{d}/bonus.yaml"], "bonus.yaml"),
    "dict-as-svg": (["letter-boxed", "lme", "iuf", "wcb", "oas", "--dict", "{d}/words.svg", "--svg", "{d}/words.svg"],
                    "words.svg"),
    "dict-through-a-link": (["ladder", "cold", "warm", "--dict", "{d}/mywords.txt", "--out", "{d}/link.txt"],
                            "link.txt"),
    "dict-hard-link": (["ladder", "cold", "warm", "--dict", "{d}/mywords.txt", "--out", "{d}/hard.txt"], "hard.txt"),
}


@pytest.mark.parametrize(("argv", "named"), A2_CASES.values(), ids=A2_CASES.keys())
def test_a2_force_never_writes_over_an_input_of_the_run(argv: list[str], named: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A2: the word list, fill file, bonus layout a run reads (named on the command line or in
    the puzzle file; by its own name, a link or a hard link) is refused with ``--force`` too."""
    (tmp_path / "mywords.txt").write_text("cold\ncord\ncard\nward\nwarm\n")
    (tmp_path / "link.txt").symlink_to(tmp_path / "mywords.txt")
    os.link(tmp_path / "mywords.txt", tmp_path / "hard.txt")
    (tmp_path / "fill.txt").write_text("c?a?e\n?#?#?\n?????\n?#?#?\n????s\n")
    (tmp_path / "bonus.yaml").write_text("rows: 4\ncols: 4\nbonuses:\n  DL: [[1, 3]]\n")
    (tmp_path / "rb.yaml").write_text("kind: ruzzle\ngrid: [CATS, DOGS, QUITE, EMUS]\nbonuses: bonus.yaml\n")
    (tmp_path / "words.svg").write_text(WORDS)
    before = _snapshot(tmp_path)
    run = run_main([a.replace("{d}", str(tmp_path)) for a in [*argv, "--force"]], capsys)
    assert_one_error_line(run, naming="input of this run")
    assert named in run.stderr and run.stdout == ""  # refused before solving
    assert _snapshot(tmp_path) == before


def test_a3_out_at_a_dangling_link_needs_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A3: ``--out`` at a dangling link is refused as ``--svg`` is; with --force the link itself
    is replaced, and nothing is created where it pointed."""
    link = tmp_path / "dangling.txt"
    link.symlink_to(tmp_path / "nowhere.txt")
    argv = ["letter-boxed", "lme", "iuf", "wcb", "oas", "--out", str(link)]
    assert_one_error_line(run_main(argv, capsys), naming="--force")
    assert link.is_symlink() and not (tmp_path / "nowhere.txt").exists()
    assert run_main([*argv, "--force"], capsys).returncode == 0
    assert not link.is_symlink() and "sumac" in link.read_text().lower() and not (tmp_path / "nowhere.txt").exists()


def _nested(monkeypatch: pytest.MonkeyPatch, argv_b: list[str], codes: list[int]) -> None:
    """When the next run has solved its first puzzle (before showing it), run B (``argv_b``) to its
    end, as a second process on the same output would."""
    solve_stream = api.solve_stream

    started: list[bool] = []

    def solve_then_run_b(*args: Any, **kwargs: Any) -> Any:
        for result in solve_stream(*args, **kwargs):
            if not started:
                started.append(True)
                codes.append(cli.main(argv_b))
            yield result

    monkeypatch.setattr(api, "solve_stream", solve_then_run_b)


BOX_A = ["letter-boxed", "lme", "iuf", "wcb", "oas", "--task", "enumerate", "--max-words", "3", "--limit", "40"]
BOX_B = ["letter-boxed", "lme", "iuf", "wcb", "oas", "--task", "enumerate", "--max-words", "3", "--limit", "5"]


def test_a4_two_runs_with_force_on_one_out_both_finish_with_their_own_answers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A4: run B starts and ends while run A solves, both ``--out conc.json --force``: both end
    with exit 0, and the file holds one run's answers whole (A's: it finished last); before, they
    shared ``conc.json.part``: B's answers were lost and A failed."""
    target = tmp_path / "conc.json"
    codes: list[int] = []
    _nested(monkeypatch, [*BOX_B, "--out", str(target), "--force"], codes)
    run = run_main([*BOX_A, "--out", str(target), "--force"], capsys)
    assert codes == [0] and run.returncode == 0, run.stderr
    assert run.stderr.count(f"wrote {target}") == 2
    assert len(json.loads(target.read_text())["solutions"]) == 40
    assert sorted(p.name for p in tmp_path.iterdir()) == ["conc.json"]


def test_a4_without_force_the_second_to_finish_is_refused_and_keeps_its_answers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A4 without --force: B writes the file while A solves; A does not clobber it, says so in
    one line, and keeps its own answers in the file the line names."""
    target = tmp_path / "conc.json"
    codes: list[int] = []
    _nested(monkeypatch, [*BOX_B, "--out", str(target)], codes)
    run = run_main([*BOX_A, "--out", str(target)], capsys)
    assert codes == [0]
    line = assert_one_error_line(run, naming="appeared while this run solved")
    assert len(json.loads(target.read_text())["solutions"]) == 5  # B's, untouched
    kept = Path(line.split("kept in ")[1].split(";")[0])
    assert kept.parent == tmp_path and len(json.loads(kept.read_text())["solutions"]) == 40


def test_a4_two_new_files_on_one_name_through_the_api(tmp_path: Path) -> None:
    """The mechanism: each writer has its own temporary, whatever the order they finish in."""
    target = tmp_path / "out.txt"
    a = writer.NewFile(writer.Outputs(force=True).claim(str(target), "--out"))  # type: ignore[arg-type]
    b = writer.NewFile(writer.Outputs(force=True).claim(str(target), "--out"))  # type: ignore[arg-type]
    assert a.temp != b.temp and a.temp.parent == tmp_path
    a.file.write("A\n")
    b.file.write("B\n")
    b.commit()
    assert target.read_text() == "B\n"
    a.commit()
    assert target.read_text() == "A\n" and sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


@pytest.mark.parametrize("argv", [
    ["--svg", "{d}/same.svg", "--out", "{d}/same.svg"],
    ["--out", "{d}/same.db", "--checkpoint", "{d}/same.db"],
    ["--svg", "{d}/same.svg", "--checkpoint", "{d}/same.svg"],
    ["--svg", "{d}/same.svg", "--out", "{d}/link.svg"],  # a link to the other: one file
], ids=["svg-out", "out-checkpoint", "svg-checkpoint", "svg-out-link"])
def test_a5_two_options_naming_one_file_are_refused_before_solving(argv: list[str], tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A5: ``--svg same.svg --out same.svg`` lost the picture; now refused, with --force too."""
    (tmp_path / "link.svg").symlink_to(tmp_path / "same.svg")
    monkeypatch.setattr(api, "solve_stream", lambda *a, **k: pytest.fail("solved before the names were checked"))
    run = run_main(["letter-boxed", "lme", "iuf", "wcb", "oas", "--force",
                    *[a.replace("{d}", str(tmp_path)) for a in argv]], capsys)
    assert_one_error_line(run, naming="names the same file as")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.svg"]


def test_a5_out_named_as_one_of_the_pictures_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = run_main(["letter-boxed", "--task", "generate", "--puzzles", "2", "--seed", "1", "--svg",
                    str(tmp_path / "box.svg"), "--out", str(tmp_path / "box-2.svg")], capsys)
    assert_one_error_line(run, naming="may be one of the files --svg writes")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", ["--out", "--svg", "--checkpoint"])
def test_e8_an_empty_file_name_is_one_line(option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """E8: ``--out ''`` was accepted (exit 0, nothing written, no word)."""
    monkeypatch.chdir(tmp_path)
    line = assert_one_error_line(run_main(["letter-boxed", "lme", "iuf", "wcb", "oas", option, ""], capsys),
                                 naming="empty file name")
    assert f"'{option}'" in line and list(tmp_path.iterdir()) == []


def test_e12_derived_picture_names_too_long_are_refused_before_solving(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """E12: two grids are drawn as NAME-1.svg and NAME-2.svg; with NAME 250 bytes long those do
    not fit the file system: refused before solving (it printed the grids, then failed)."""
    target = tmp_path / ("a" * 250 + ".svg")
    monkeypatch.setattr(api, "solve_stream", lambda *a, **k: pytest.fail("solved before the names were checked"))
    run = run_main(["grid", "--generate", "2", "--seed", "1", "--svg", str(target)], capsys)
    assert_one_error_line(run, naming="longer than the file system takes")
    assert run.stdout == "" and list(tmp_path.iterdir()) == []


def test_e12_a_long_name_that_fits_is_written_whatever_its_temporary(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The audit's case: ``grid --puzzle 1 --svg <250 bytes>.svg`` draws one picture under the
    name itself; its temporary's name (``.NAME.XXXXXXXX.part``, too long in full) is cut to fit."""
    target = tmp_path / ("b" * 250 + ".svg")
    run = run_main(["grid", "--puzzle", "1", "--seed", "1", "--svg", str(target)], capsys)
    assert run.returncode == 0, run.stderr
    assert target.read_text().startswith("<svg") and list(tmp_path.iterdir()) == [target]


@pytest.fixture
def sleeping_builder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """Background builds on, into this test's cache folder, by a builder that only waits (read
    its spec, then sleep): the processes it started, killed at the end."""
    monkeypatch.setenv(background.OFF, "")
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(background, "COMMAND", [sys.executable, "-c",
                                                "import sys, time; sys.stdin.read(); time.sleep(600)"],
                        raising=False)
    started: list[int] = []
    yield started
    for pid in started:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def test_d2_one_background_builder_per_build_at_a_time(sleeping_builder: list[int],
                                                       capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """D2: runs that each stop in the same build start one builder between them (four parallel
    first runs started four, 2.4 GB); another build, or the same after its builder ended, gets
    its own."""
    from cpwords.puzzles.loading import parse_spec

    spec = parse_spec({"kind": "ladder", "start": "cold", "target": "warm"})
    first = background.start(spec, "the ladder index of scowl-70")
    assert first is not None
    sleeping_builder.append(first)
    assert background.start(spec, "the ladder index of scowl-70") == first
    other = background.start(spec, "the landmark tables of scowl-70")
    assert other is not None and other != first
    sleeping_builder.append(other)
    os.kill(first, signal.SIGKILL)
    os.waitpid(first, 0)
    again = background.start(spec, "the ladder index of scowl-70")
    assert again is not None and again not in (first, other)
    sleeping_builder.append(again)


def test_d2_a_batch_of_documents_stopped_in_one_build_starts_one_builder(
        sleeping_builder: list[int], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """D2 through the command: a batch of three documents, each stopped in the same build (one
    batch of six started six builders)."""
    from cpwords import api
    from cpwords.results import Result

    def stopped(spec: Any, *args: Any, **kwargs: Any) -> Result:
        return Result(kind="ladder", status="unknown", engine="native", task="shortest",
                      message="the time limit was reached", stats={"build_stopped": "the ladder index of big.txt",
                                                                   "stopped": "time_limit"})

    monkeypatch.setattr(api, "solve", stopped)
    batch = tmp_path / "batch.yaml"
    batch.write_text("---\n".join(["kind: ladder\nstart: cold\ntarget: warm\n"] * 3))
    run = run_main(["solve", str(batch), "--json"], capsys)
    pids = {r["stats"]["background_build_pid"] for r in json.loads(run.stdout)}
    sleeping_builder.extend(pids)
    assert len(pids) == 1, pids
    assert all("goes on in the background" in r["message"] for r in json.loads(run.stdout))


# ---------------------------------------------------------------- each mechanism as a user runs it


def cpwords(*argv: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cpwords", *argv], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=HANG_S, check=False)


def test_a_part_file_and_a_link_are_never_written_through_as_the_user_runs_it(tmp_path: Path) -> None:
    """The fresh temporary renamed over the name (A1, A3), in a process of its own."""
    precious = tmp_path / "precious.txt"
    precious.write_text(PRECIOUS)
    (tmp_path / "r.txt.part").symlink_to(precious)
    (tmp_path / "link.txt").symlink_to(precious)
    run = cpwords("letter-boxed", "lme", "iuf", "wcb", "oas", "--out", "r.txt", cwd=tmp_path)
    assert run.returncode == 0 and run.stderr == "wrote r.txt\n", run.stderr
    run = cpwords("letter-boxed", "lme", "iuf", "wcb", "oas", "--out", "link.txt", "--force", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert precious.read_text() == PRECIOUS and (tmp_path / "r.txt.part").is_symlink()
    assert not (tmp_path / "link.txt").is_symlink() and "sumac" in (tmp_path / "link.txt").read_text().lower()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "precious.txt", "r.txt", "r.txt.part"]


def test_an_input_is_never_written_over_as_the_user_runs_it(tmp_path: Path) -> None:
    """The inputs of the run (A2), in a process of its own: the audit's word list."""
    words = tmp_path / "mywords.txt"
    words.write_text("cold\ncord\ncard\nward\nwarm\nwords\nswords\nsword\n")
    digest = hashlib.md5(words.read_bytes()).hexdigest()
    run = cpwords("ladder", "words", "sword", "--dict", str(words), "--out", str(words), "--force")
    assert_one_error_line(run, naming="input of this run")
    assert hashlib.md5(words.read_bytes()).hexdigest() == digest


def test_derived_names_too_long_as_the_user_runs_it(tmp_path: Path) -> None:
    """Every name checked before solving (E12), in a process of its own: nothing printed."""
    run = cpwords("grid", "--generate", "2", "--seed", "1", "--svg", "a" * 250 + ".svg", cwd=tmp_path)
    assert_one_error_line(run, naming="longer than the file system takes")
    assert run.stdout == "" and list(tmp_path.iterdir()) == []


def test_one_background_builder_per_build_as_the_user_runs_it(tmp_path: Path) -> None:
    """D2 as a user runs it: a first run of a big list stops in the ladder index build and starts
    a builder; while that builder is at it (held still here with SIGSTOP, so that it cannot end
    first on a fast machine), a second run stopped in the same build starts none and names it."""

    path = big_word_list(tmp_path / "big.txt")
    env = {**os.environ, "CPWORDS_CACHE_DIR": str(tmp_path / "cache"), background.OFF: ""}
    argv = ["ladder", "cold", "warm", "--dict", str(path), "--json", "--time-limit", "0.01"]
    first = json.loads(cpwords(*argv, env=env).stdout)
    pid = first["stats"]["background_build_pid"]
    try:
        os.kill(pid, signal.SIGSTOP)
    except ProcessLookupError:
        pytest.skip("the builder ended before it could be held (a build of 400,000 words takes seconds)")
    try:
        second = json.loads(cpwords(*argv, env=env).stdout)
        assert second["status"] == "unknown", second
        assert second["stats"].get("background_build_pid", pid) == pid, second["stats"]
    finally:
        os.kill(pid, signal.SIGKILL)
        os.kill(pid, signal.SIGCONT)
        wait_until(lambda: not running(pid), "the builder's end")
