"""Every answer found is listed (issue 34: G5, N1, D3, E13).

A listing cut by its time limit used to drop the answers its conversion had not reached ("273,153
more answers were found but not listed"), and the server sent 10,000 answers at most. Now every
answer found goes out, the unchecked ones marked: on the command line (text, ``--json``, ``--out``),
kept as word indexes until written (a listing of two million answers under 1 GB); on the server,
in the body when it fits, else as a download (``GET /api/jobs/{id}/result``) named by the body.

The deadline is exercised without the clock: the search is made to pass its deadline after a
given number of answers (its budget's deadline set in the past, as a limit reached mid-search
leaves it), so that the listing, the check and the writing all happen past the deadline. The
server's cases run at a real limit, with assertions that hold whatever the moment of the stop.
"""

from __future__ import annotations

import io
import json
import pickle
import re
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pace import HANG_S

import cpwords
from cpwords import cli, display
from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.puzzles.letter_boxed import native
from cpwords.puzzles.letter_boxed.check import check
from cpwords.puzzles.letter_boxed.solution import LetterBoxedSolution
from cpwords.puzzles.letter_boxed.solve import sort_key
from cpwords.puzzles.loading import parse_spec
from cpwords.results import Result, Solution

#: 245,024 answers of up to 4 words on scowl-50 (the audit's piped listing).
BOX = ["lme", "iuf", "wcb", "oas"]
#: 2,154,479 answers of up to 4 words on scowl-50 (the audit's g5.yaml had a box of 2,170,175).
RICH_BOX = ["wre", "ish", "bpl", "aon"]
RICH_COUNT = 2_154_479
#: Answers found before the search is made to pass its deadline.
CUT = 3000
#: The message of answers dropped, gone for good.
DROPPED = re.compile(r"not listed|more answers were found")


def _spec(**fields: Any) -> dict[str, Any]:
    return {"kind": "letter_boxed", "sides": BOX, "task": "enumerate", "max_words": 4, "dictionary": "scowl-50",
            "limit": None, "time_limit": HANG_S, **fields}


@pytest.fixture
def cut_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native search finds :data:`CUT` answers, then its time limit passes (as a limit reached
    mid-search leaves the budget: its deadline behind the clock) and it stops."""
    real = native.enumerate_answers

    def cut(table: Any, max_words: int, *, budget: Budget | None = None, **options: Any) -> Iterator[list[int]]:
        assert budget is not None and budget.deadline is not None
        for i, answer in enumerate(real(table, max_words, budget=budget, **options)):
            if i == CUT:
                budget.deadline = time.monotonic() - 10.0
                raise SearchTimeout("time_limit")
            yield answer

    monkeypatch.setattr(native, "enumerate_answers", cut)


def _assert_every_answer_listed(result: dict[str, Any]) -> None:
    """The result lists every answer it counts, marks those the check did not reach, and never
    says that answers were dropped."""
    solutions = result["solutions"]
    assert result["count"] == len(solutions) == CUT and result["count_exact"] is False, result["count"]
    assert result["status"] == "feasible"
    message = result["message"] or ""
    assert not DROPPED.search(message), message
    stats = result["stats"]
    assert stats["unchecked_from"] + stats["unchecked"] == len(solutions)  # past the deadline: shown unchecked
    assert "shown unchecked" in message, message


# ---------------------------------------------------------------- G5: the API and the command line


def test_every_answer_found_before_the_limit_is_listed(cut_at_the_deadline: None) -> None:
    """G5: the listing, the check and the writing come after the deadline; nothing found is lost
    (before: the first 64 answers, and "2,936 more answers were found but not listed")."""
    result = cpwords.solve(_spec(), seed=1)
    _assert_every_answer_listed(result.model_dump(mode="json"))
    assert result.stats["unchecked_from"] == 0 and "no time for the check" in (result.message or "")
    assert cpwords.verify.check(parse_spec(_spec()), result) == []


@pytest.mark.parametrize("form", ["text", "json", "out-text", "out-json"])
def test_the_command_line_lists_every_answer_found(form: str, cut_at_the_deadline: None, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """G5: ``cpwords solve`` at its limit, piped text, ``--json``, ``--out FILE`` (text and JSON)."""
    puzzle = tmp_path / "g5.yaml"
    puzzle.write_text(json.dumps(_spec()))
    argv = ["solve", str(puzzle), "--seed", "1"]
    out = tmp_path / ("answers.json" if form == "out-json" else "answers.txt")
    argv += {"text": [], "json": ["--json"], "out-text": ["--out", str(out)], "out-json": ["--out", str(out)]}[form]
    monkeypatch.setattr(display, "_console", None)  # stdout is captured: piped, every row
    saved = warnings.showwarning
    try:
        code = cli.main(argv)
    finally:
        warnings.showwarning = saved
        display._console = None
    assert code == 0
    printed = capsys.readouterr().out
    text = out.read_text() if form.startswith("out") else printed
    if form in ("json", "out-json"):
        _assert_every_answer_listed(json.loads(text))
        return
    rows = [line for line in text.splitlines() if re.match(r"\s*[\d,]+  [a-z]", line)]
    assert len(rows) == CUT and rows[-1].split()[0] == f"{CUT:,}", rows[-3:]
    assert not DROPPED.search(text) and f"the {CUT:,} answers are shown unchecked" in text


def test_a_listing_cut_by_its_limit_lists_every_answer_as_a_user_runs_it(tmp_path: Path) -> None:
    """G5 as the audit ran it (``solve g5.yaml --time-limit 1``, 30,144 of 298,369 kept): every
    answer the search found is in the JSON, the unchecked ones after the checked ones."""
    puzzle = tmp_path / "g5.yaml"
    puzzle.write_text(json.dumps({**_spec(), "sides": RICH_BOX, "time_limit": None}))
    run = subprocess.run([sys.executable, "-m", "cpwords", "solve", str(puzzle), "--time-limit", "1", "--json"],
                         capture_output=True, text=True, timeout=HANG_S, check=False)
    assert run.returncode in (0, 1), run.stderr
    result = json.loads(run.stdout)
    assert not DROPPED.search(result["message"] or "")
    assert result["status"] in ("feasible", "unknown") and result["count"] == len(result["solutions"])
    stats = result["stats"]
    assert stats.get("unchecked_from", len(result["solutions"])) + stats.get("unchecked", 0) == len(result["solutions"])


# ---------------------------------------------------------------- D3: compact answers


def test_answers_are_kept_as_word_indexes_and_sorted_as_solutions_sort() -> None:
    """D3: four bytes a word until an answer is read; the order is the one Solutions had."""
    from cpwords.puzzles.letter_boxed.answers import WordRows
    from cpwords.results import Solutions

    for rank in ("letters", "common"):
        result = cpwords.solve({**_spec(sides=["lme", "iuf", "wcb", "oas"], max_words=3, dictionary="scowl-70"),
                                "rank": rank}, seed=1, check=False)
        assert isinstance(result.solutions, Solutions) and result.solutions._rows.nbytes == 12 * len(result.solutions)
        made = list(result.solutions)
        assert len(made) == result.count == 9337 and made == sorted(made, key=sort_key(rank))
        assert made[0] == result.solutions[0] and made[-1] == result.solutions[-1]
    rows = WordRows(3, [[5, 1], [2, 3, 4]])
    rows.insert(0, [7])
    rows[1] = [0, 1, 2]
    del rows[2]
    assert list(rows) == [[7], [0, 1, 2]] and rows.matrix().tolist() == [[7, -1, -1], [0, 1, 2]]


def test_solutions_are_read_as_a_list_everywhere() -> None:
    """A result whose answers are made when read dumps, pickles and compares as a list would."""
    from cpwords.results import Solutions

    answers = Solutions([["cat"], ["dog"]], lambda words: Solution.trusted({"words": words}))
    result = Result(kind="demo", status="optimal", engine="native")
    result.solutions = answers  # type: ignore[assignment]
    assert result.model_dump()["solutions"] == [{"words": ["cat"]}, {"words": ["dog"]}]
    assert json.loads(result.model_dump_json())["solutions"][1] == {"words": ["dog"]}
    copy = pickle.loads(pickle.dumps(result))
    assert copy.solutions == [Solution(words=["cat"]), Solution(words=["dog"])] == answers
    assert answers[::-1][0].words == ["dog"] and answers != [Solution(words=["cat"])]


def test_a_listing_holds_the_time_to_write_what_it_found() -> None:
    """Answers found faster than they are written: each holds its writing time out of the
    search's budget (the deadline comes sooner), so every answer found is written in time."""
    from cpwords.engines.found import HOLD_EVERY, WRITE_S
    from cpwords.puzzles.letter_boxed.answers import WordRows

    budget = Budget(100.0)
    before = budget.deadline
    assert before is not None
    rows = WordRows(2, budget=budget)
    for i in range(HOLD_EVERY):
        rows.append([i, i + 1])
    assert budget.deadline is not None and before - budget.deadline >= HOLD_EVERY * WRITE_S
    unlimited = Budget(None)
    WordRows(2, [[1]] * (2 * HOLD_EVERY), budget=unlimited)
    assert unlimited.deadline is None


def test_a_held_list_stops_the_search_once_its_writing_time_spends_the_budget() -> None:
    """Boards come many between a search's own looks at the clock (a last slot with thousands of
    fillings): the list that keeps them holds their writing time and raises SearchTimeout at the
    first hold past the deadline, with no clock read in the test (a budget of 1 s, each board
    holding 1 ms: the 1,024th spends it)."""
    from cpwords.engines.budget import SearchTimeout
    from cpwords.engines.found import HOLD_EVERY, HeldList

    budget = Budget(1.0)
    boards = HeldList(budget, 1e-3)
    with pytest.raises(SearchTimeout):
        for i in range(10 * HOLD_EVERY):
            boards.append([i])
    assert len(boards) == HOLD_EVERY  # every board kept is listed
    free = HeldList(Budget(None), 1e-3)
    for i in range(2 * HOLD_EVERY):
        free.append([i])
    assert len(free) == 2 * HOLD_EVERY


def test_the_checker_of_a_whole_listing_says_what_the_one_by_one_checker_says() -> None:
    """The all-at-once checker (millions of answers: each word's own rules once) flags exactly the
    answers :func:`check` flags, with its messages."""
    from cpwords.puzzles.letter_boxed.check import check_all

    spec = parse_spec(_spec(sides=["lme", "iuf", "wcb", "oas"], max_words=3, dictionary="scowl-70"))
    good = list(cpwords.solve(spec, seed=1, check=False).solutions[:400])
    s = good[0]
    bad = [
        s.model_copy(update={"words": s.words[::-1]}),  # chain broken
        s.model_copy(update={"letters": s.letters + 1}), s.model_copy(update={"rareness": s.rareness + 1}),
        s.model_copy(update={"words": s.words[:-1]}),  # letters left
        s.model_copy(update={"words": [*s.words, s.words[-1]]}),  # a word twice, a covering prefix
        s.model_copy(update={"words": ["xylophone"]}), s.model_copy(update={"words": []}),
        s.model_copy(update={"words": ["wcb", *s.words]}),
        LetterBoxedSolution(words=["cat"], letters=3, sides=["ca", "tx", "yz"]),  # a generated puzzle's own box
        s.model_copy(update={"words": [*s.words, *good[1].words][:4]}),
    ]
    answers = good + bad
    expected = {i: p for i, a in enumerate(answers) if (p := check(spec, a))}
    assert set(expected) >= set(range(len(good), len(answers) - 2)) and not set(expected) & set(range(len(good)))
    assert check_all(spec, answers) == expected


@pytest.mark.sweep
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the peak memory from /proc")
@pytest.mark.parametrize("form", ["text", "json"])
def test_listing_two_million_answers_stays_under_a_gigabyte(form: str, tmp_path: Path) -> None:
    """D3: every one of 2,154,479 answers listed, piped text and ``--json``, within 1 GB of peak
    memory (2.1 GB before: a Solution object an answer)."""
    puzzle = tmp_path / "rich.yaml"
    puzzle.write_text(json.dumps({**_spec(), "sides": RICH_BOX, "time_limit": None}))
    out = tmp_path / "out"
    # cpwords in a process of its own that says its own peak memory when it ends: VmHWM, not
    # ru_maxrss, which Linux carries over from the parent (this test process, which may once have
    # held a gigabyte) into a child started by fork and exec
    code = ("import re, sys; from cpwords.cli import main; rc = main(sys.argv[1:]); sys.stdout.flush(); "
            "print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1), file=sys.stderr); "
            "sys.exit(rc)")
    with out.open("w") as stdout:
        run = subprocess.run([sys.executable, "-c", code, "solve", str(puzzle), *(["--json"] if form == "json" else [])],
                             stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=HANG_S, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    peak_kb = int(run.stderr.split()[-1])
    assert peak_kb < 1024 * 1024, f"peak {peak_kb / 1024:,.0f} MB"
    if form == "json":
        with out.open() as f:
            result = json.load(f)
        assert result["count"] == len(result["solutions"]) == RICH_COUNT and result["status"] == "optimal"
    else:
        with out.open() as f:
            last = [line for line in f if line.strip()][-2]
        assert last.split()[0] == f"{RICH_COUNT:,}", last


# ---------------------------------------------------------------- N1, E13: the server sends every answer


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A server whose answers go out in one body up to 64 KiB (8 MiB by default): a result of a
    few thousand answers is a download, as one of hundreds of thousands is by default."""
    pytest.importorskip("fastapi", reason="cpwords serve needs the serve extra (fastapi, uvicorn)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from cpwords.server import ServerConfig, create_app

    with TestClient(create_app(ServerConfig(workers=1, max_time=3.0, max_answer_bytes=65536))) as c:
        yield c


def _full(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    """The answer's full result: the download it names, or the result it holds."""
    if "full_result" not in body:
        return body["result"]
    download = client.get(body["full_result"]["url"])
    assert download.status_code == 200 and download.headers["content-type"] == "application/json"
    result: dict[str, Any] = json.loads(io.BytesIO(download.content).read())
    assert body["full_result"]["solutions"] == len(result["solutions"])
    assert body["full_result"]["bytes"] == len(download.content)
    return result


def test_the_server_sends_every_answer_beyond_the_old_cap(client: Any) -> None:
    """N1: 20,000 answers (10,000 were sent at most, the rest counted in ``solutions_not_sent``):
    the body lists the first ones and names the download, which has every one."""
    answer = client.post("/api/solve", json=_spec(limit=20_000, time_limit=None))
    assert answer.status_code == 200
    body = answer.json()
    result = _full(client, body)
    assert result["count"] == len(result["solutions"]) == 20_000 and "solutions_not_sent" not in result["stats"]
    shown = body["result"]["solutions"]
    assert shown == result["solutions"][:len(shown)] and 0 < len(shown) < 20_000
    assert f"lists the first {len(shown):,} of the 20,000 answers" in body["result"]["message"]
    assert body["full_result"]["url"] in body["result"]["message"]
    # The job of a synchronous solve is kept while its download is; GET /api/jobs/{id} has the same answer.
    job = client.get(body["full_result"]["url"].removesuffix("/result")).json()
    assert job["status"] == "done" and job["full_result"] == body["full_result"]
    small = client.post("/api/solve", json=_spec(limit=50, time_limit=None)).json()
    assert "full_result" not in small and len(small["result"]["solutions"]) == small["result"]["count"] == 50


def test_the_server_at_its_limit_sends_every_answer_and_says_what_it_sent(client: Any) -> None:
    """N1 and E13 at the server's limit (the audit: 10,000 of 2.09 M sent, and "the first 7,606
    answers are checked, the last 24,970 are shown unchecked" of answers not sent): the download
    has every answer counted, the check's figures add up to it, the body says what it lists."""
    answer = client.post("/api/solve", json=_spec(sides=RICH_BOX, time_limit=None))
    assert answer.status_code == 200
    body = answer.json()
    result = _full(client, body)
    message = body["result"]["message"] or ""
    assert not DROPPED.search(message) and "solutions_not_sent" not in body["result"]["stats"]
    assert result["count"] == len(result["solutions"])
    stats = result["stats"]
    if "unchecked" in stats:
        assert stats["unchecked_from"] + stats["unchecked"] == len(result["solutions"])
        assert (f"the first {stats['unchecked_from']:,} answers are checked, the last {stats['unchecked']:,} are "
                "shown unchecked" in message or f"{stats['unchecked']:,} answers are shown unchecked" in message)
    if "full_result" in body:
        shown = body["result"]["solutions"]
        assert f"lists the first {len(shown):,} of the {result['count']:,} answers" in message
        assert shown == result["solutions"][:len(shown)]
    spec = parse_spec(_spec(sides=RICH_BOX))
    checked = Result.model_validate({**result, "solutions": result["solutions"][:stats.get("unchecked_from", 500)][:500]})
    assert cpwords.verify.check(spec, checked) == []


def test_a_result_that_is_not_a_download_is_refused_by_its_address(client: Any) -> None:
    missing = client.get("/api/jobs/nosuchjob/result")
    assert missing.status_code == 404 and missing.json()["field"] == "id"
