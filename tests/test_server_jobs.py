"""``cpwords serve``'s jobs through the ASGI test client, with real worker processes.

A job reports progress (also as server-sent events) and keeps its answer; a cancel stops its
solve through the budget and frees its worker; a full queue answers 429 with ``Retry-After``; the
server's time limit caps every solve; a worker killed in the middle of a job fails that job alone
and is replaced. (That a cancel frees the worker within a second is a ``timing`` test:
test_server_browser.py::test_events_arrive_while_the_job_runs, over real HTTP.)
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi", reason="cpwords serve needs the serve extra (fastapi, uvicorn)")

from conftest import common_v1
from pace import HANG_S, Stopwatch
from test_server_api import LONG_COUNT, YAML, TestClient, assert_error_body, running, wait_for

from cpwords.server import ServerConfig, create_app
from cpwords.server import config as limits


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """Two workers; the server's time limit is a hang guard here (no solve is about it)."""
    with TestClient(create_app(ServerConfig(workers=2, max_time=HANG_S))) as c:
        yield c


def _status(client: TestClient, job_id: str, status: str) -> dict:
    """The job's state once it has ``status``."""
    return wait_for(lambda: (j := client.get(f"/api/jobs/{job_id}").json())["status"] == status and j)


def test_job_reports_progress_and_a_cancel_stops_it_through_its_budget(client: TestClient,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    pool = client.app.state.pool  # type: ignore[attr-defined]
    pids = [slot.pid for slot in pool.slots]
    # The worker is killed only if its solve has not stopped STOP_GRACE_S after the cancel: with no
    # grace to run out, the same workers afterwards prove the stop came through the budget,
    # whatever the machine's load.
    monkeypatch.setattr(limits, "STOP_GRACE_S", HANG_S)
    job_id = running(client, LONG_COUNT)
    state = wait_for(lambda: (s := client.get(f"/api/jobs/{job_id}").json())["progress"] and s)
    assert state["progress"]["description"].startswith("counting boards") and state["progress"]["total"] > 0
    # The events stream of a cancelled job is checked over real HTTP (uvicorn) in
    # test_server_browser.py::test_events_arrive_while_the_job_runs: Starlette's in-process test
    # client sometimes ends a streaming response early while another request of the same client
    # runs, so a stream read here says nothing about the server.
    assert client.delete(f"/api/jobs/{job_id}").json()["status"] in ("running", "cancelled")
    _status(client, job_id, "cancelled")  # DELETE waits two seconds at most for the end
    ended = client.get(f"/api/jobs/{job_id}/events").text.split("\n\n")
    assert ended[0].startswith("event: end") and '"status":"cancelled"' in ended[0]
    # The solver stopped through its budget: the same workers, idle, answer at once.
    assert [slot.pid for slot in pool.slots] == pids
    wait_for(lambda: client.get("/healthz").json()["busy"] == 0)  # the slot lets go of the job just after
    ok = client.post("/api/solve", json={"kind": "ladder", "start": "cold", "target": "warm", "mode": "shortest",
                                         "dictionary": {"words": ["cold", "cord", "card", "ward", "warm"]}})
    assert ok.status_code == 200 and ok.json()["result"]["solutions"][0]["words"][0] == "cold"
    assert_error_body(client.get("/api/jobs/nosuchjob"), 404)
    assert_error_body(client.delete("/api/jobs/nosuchjob"), 404)


def test_a_cancelled_best_board_search_answers_with_the_best_board_so_far(client: TestClient,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """What the Ruzzle page shows when its best-board job is cancelled: the search, stopped while it
    climbs, answers with the best board it has found (at worst the board it started from) and that
    board's words."""
    monkeypatch.setattr(limits, "STOP_GRACE_S", HANG_S)  # a stop through the budget, whatever the load
    spec = {"kind": "ruzzle", "task": "best_board", "grid": ["rate", "soni", "lend", "trap"], "dictionary": "common-5k",
            "seed": 3, "climbs": 10**6}  # more climbs (of seconds each) than any run makes: only the cancel ends it
    job_id = running(client, spec)
    wait_for(lambda: client.get(f"/api/jobs/{job_id}").json()["progress"])  # the climbs have begun
    client.delete(f"/api/jobs/{job_id}")
    _status(client, job_id, "cancelled")
    result = client.get(f"/api/jobs/{job_id}").json()["result"]
    assert result["status"] == "feasible" and result["stats"]["stopped_by_time"] is True, result["message"]
    assert result["stats"]["climbs"] < 10**6 and result["objective"] >= result["stats"]["start_value"]
    assert len(result["stats"]["grid"]) == 4 and result["solutions"]  # the board, and its words with their paths
    assert all(len(s["path"]) >= 2 for s in result["solutions"])


def test_a_finished_job_keeps_its_answer(client: TestClient) -> None:
    text = "kind: ruzzle\ngrid: [CATS, DOGS]\ndictionary: {words: [cat, cats, dog, dogs, cog, cogs, tag]}\n"
    started = client.post("/api/jobs?pictures=true", content=text, headers=YAML).json()
    job = wait_for(lambda: (j := client.get(started["url"]).json())["status"] == "done" and j)
    assert job["result"]["solutions"] and job["pictures"] and job["spec"]["grid"] == ["CATS", "DOGS"]
    events = client.get(started["events"]).text
    assert events.startswith("event: end") and '"status":"done"' in events


def test_crashed_worker_fails_its_job_only(client: TestClient) -> None:
    pool = client.app.state.pool  # type: ignore[attr-defined]
    # The survivor: 11,853,121 boards, a figure of the version-1 common-8000 (a second's work,
    # under way when the other job's worker dies).
    victim, survivor = running(client, LONG_COUNT), running(client, {**LONG_COUNT, "dictionary": {
        **common_v1(8000), "exclude": []}})
    pid = pool.worker_pid(pool.get(victim))
    os.kill(pid, signal.SIGKILL)
    failed = _status(client, victim, "failed")
    assert "killed (SIGKILL)" in failed["error"]["error"] and "other jobs" in failed["error"]["error"]
    done = _status(client, survivor, "done")
    assert done["result"]["count"] == 11853121
    ok = client.post("/api/solve", json={"kind": "ladder", "start": "cold", "target": "warm"})
    assert ok.status_code == 200
    assert all(slot.process is not None and slot.process.poll() is None for slot in pool.slots)
    assert pid not in [slot.pid for slot in pool.slots]


@pytest.fixture(scope="module")
def queue_of_one() -> Iterator[TestClient]:
    """One worker and a queue of one (the server's time limit a hang guard)."""
    with TestClient(create_app(ServerConfig(workers=1, queue=1, max_time=HANG_S))) as c:
        yield c


def test_full_queue_answers_429_with_retry_after(queue_of_one: TestClient) -> None:
    first = running(queue_of_one, LONG_COUNT)
    second = queue_of_one.post("/api/jobs", json=LONG_COUNT)
    assert second.status_code == 202
    refused = queue_of_one.post("/api/solve", json={"kind": "ladder", "start": "cold", "target": "warm"})
    body = assert_error_body(refused, 429)
    # The waiting work shared by the workers: two jobs of a second (a first guess) on one worker.
    assert "busy" in body["error"] and int(refused.headers["Retry-After"]) == 2
    for job in (second.json()["id"], first):
        queue_of_one.delete(f"/api/jobs/{job}")
        _status(queue_of_one, job, "cancelled")


@pytest.mark.timing  # it bounds seconds: run alone (see pyproject.toml)
def test_the_server_time_limit_caps_every_solve() -> None:
    """A spec's own longer time limit does not lift the server's: a count of minutes at a server of
    ``max_time`` 1 is answered within the limit and the answer grace (the clock's), plus the
    processor work of answering; cut short, and saying so."""
    with TestClient(create_app(ServerConfig(workers=1, max_time=1.0))) as server:
        assert server.post("/api/solve", json={"kind": "ladder", "start": "cold", "target": "warm"}).status_code == 200
        with Stopwatch() as watch:  # the worker is up (its start-up is not the solve's)
            result = server.post("/api/solve", json={**LONG_COUNT, "time_limit": 1000}).json()["result"]
    watch.assert_within(1.0 + limits.ANSWER_GRACE_S, 0.5, "a solve at max_time 1")
    # The busier the machine, the less of the count was done by the stop: nothing at all is "unknown".
    assert result["status"] in ("feasible", "unknown") and result["count_exact"] is False
    assert "time limit" in result["message"] and result["stats"]["stopped"] == "time_limit"


def test_a_worker_past_its_memory_cap_is_replaced_and_the_next_request_answered_as_by_a_fresh_one() -> None:
    """Issue 34, E1: a worker that hit ``--max-memory`` kept part of what the request pushed its
    memory up to and refused tiny requests afterwards (every other ladder a 422 at 256 MiB). Now
    the 422 is followed by a fresh worker in its place."""
    with TestClient(create_app(ServerConfig(workers=1, max_time=HANG_S, max_memory=300 * 1024**2))) as client:
        pool = client.app.state.pool  # type: ignore[attr-defined]
        before = [slot.pid for slot in pool.slots]
        big = client.post("/api/solve", json={"kind": "word_grid", "shape": "gridle-7x7", "task": "count"})
        assert big.status_code == 422 and "more memory than a worker" in big.json()["error"], big.text
        assert [slot.pid for slot in pool.slots] != before  # replaced
        for _ in range(3):
            ok = client.post("/api/solve", json={"kind": "ladder", "start": "cold", "target": "warm"})
            assert ok.status_code == 200 and ok.json()["result"]["status"] == "optimal", ok.text
