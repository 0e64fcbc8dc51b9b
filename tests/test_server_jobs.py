"""``cpwords serve``'s jobs through the ASGI test client, with real worker processes.

A job reports progress (also as server-sent events) and keeps its answer; a cancel frees its
worker within a second; a full queue answers 429 with ``Retry-After``; the server's time limit
caps every solve; a worker killed in the middle of a job fails that job alone and is replaced.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi", reason="cpwords serve needs the serve extra (fastapi, uvicorn)")

from conftest import common_v1
from test_server_api import LONG_COUNT, YAML, TestClient, assert_error_body, running, wait_for

from cpwords.server import ServerConfig, create_app
from cpwords.server.config import STOP_GRACE_S

#: A generous deadline for a cancel seen from the client: the design frees the worker within a
#: second (STOP_GRACE_S, then a kill); the margin is for a loaded 2-core CI machine.
CANCEL_DEADLINE_S = STOP_GRACE_S + 2.0


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServerConfig(workers=2, max_time=10))) as c:
        yield c


def test_job_reports_progress_and_cancel_frees_the_worker_within_a_second(client: TestClient) -> None:
    pool = client.app.state.pool  # type: ignore[attr-defined]
    pids = [slot.pid for slot in pool.slots]
    job_id = running(client, LONG_COUNT)
    state = wait_for(lambda: (s := client.get(f"/api/jobs/{job_id}").json())["progress"] and s)
    assert state["progress"]["description"].startswith("counting boards") and state["progress"]["total"] > 0
    # The events stream of a cancelled job is checked over real HTTP (uvicorn) in
    # test_server_browser.py::test_events_arrive_while_the_job_runs: Starlette's in-process test
    # client sometimes ends a streaming response early while another request of the same client
    # runs, so a stream read here says nothing about the server.
    t0 = time.monotonic()
    cancelled = client.delete(f"/api/jobs/{job_id}").json()
    # By design the worker is free within a second (a stop through the budget, else a kill after
    # STOP_GRACE_S); the deadline checked here is generous, for a loaded CI machine.
    assert cancelled["status"] == "cancelled" and time.monotonic() - t0 < CANCEL_DEADLINE_S
    ended = client.get(f"/api/jobs/{job_id}/events").text.split("\n\n")
    assert ended[0].startswith("event: end") and '"status":"cancelled"' in ended[0]
    # The solver stopped through its budget: the same workers, idle, answer at once.
    assert [slot.pid for slot in pool.slots] == pids and client.get("/healthz").json()["busy"] == 0
    ok = client.post("/api/solve", json={"kind": "ladder", "start": "cold", "target": "warm", "mode": "shortest",
                                         "dictionary": {"words": ["cold", "cord", "card", "ward", "warm"]}})
    assert ok.status_code == 200 and ok.json()["result"]["solutions"][0]["words"][0] == "cold"
    assert_error_body(client.get("/api/jobs/nosuchjob"), 404)
    assert_error_body(client.delete("/api/jobs/nosuchjob"), 404)


def test_a_finished_job_keeps_its_answer(client: TestClient) -> None:
    text = "kind: ruzzle\ngrid: [CATS, DOGS]\ndictionary: {words: [cat, cats, dog, dogs, cog, cogs, tag]}\n"
    started = client.post("/api/jobs?pictures=true", content=text, headers=YAML).json()
    job = wait_for(lambda: (j := client.get(started["url"]).json())["status"] == "done" and j)
    assert job["result"]["solutions"] and job["pictures"] and job["spec"]["grid"] == ["CATS", "DOGS"]
    events = client.get(started["events"]).text
    assert events.startswith("event: end") and '"status":"done"' in events


def test_crashed_worker_fails_its_job_only(client: TestClient) -> None:
    pool = client.app.state.pool  # type: ignore[attr-defined]
    victim, survivor = running(client, LONG_COUNT), running(client, {**LONG_COUNT, "dictionary": {
        **common_v1(10000), "exclude": []}})  # 94,402,153: a figure of the version-1 common-10k
    pid = pool.worker_pid(pool.get(victim))
    os.kill(pid, signal.SIGKILL)
    failed = wait_for(lambda: (j := client.get(f"/api/jobs/{victim}").json())["status"] == "failed" and j)
    assert "killed (SIGKILL)" in failed["error"]["error"] and "other jobs" in failed["error"]["error"]
    done = wait_for(lambda: (j := client.get(f"/api/jobs/{survivor}").json())["status"] == "done" and j, timeout=30)
    assert done["result"]["count"] == 94402153
    ok = client.post("/api/solve", json={"kind": "ladder", "start": "cold", "target": "warm"})
    assert ok.status_code == 200
    assert all(slot.process is not None and slot.process.poll() is None for slot in pool.slots)
    assert pid not in [slot.pid for slot in pool.slots]


@pytest.fixture(scope="module")
def tiny() -> Iterator[TestClient]:
    """One worker, a queue of one, one second a solve."""
    with TestClient(create_app(ServerConfig(workers=1, queue=1, max_time=1.0))) as c:
        yield c


def test_full_queue_answers_429_with_retry_after(tiny: TestClient) -> None:
    first = running(tiny, LONG_COUNT)
    second = tiny.post("/api/jobs", json=LONG_COUNT)
    assert second.status_code == 202
    refused = tiny.post("/api/solve", json={"kind": "ladder", "start": "cold", "target": "warm"})
    body = assert_error_body(refused, 429)
    assert "busy" in body["error"] and 1 <= int(refused.headers["Retry-After"]) <= 1
    for job in (second.json()["id"], first):
        assert tiny.delete(f"/api/jobs/{job}").json()["status"] == "cancelled"


@pytest.mark.timing  # it bounds seconds: run alone (see pyproject.toml)
def test_the_server_time_limit_caps_every_solve(tiny: TestClient) -> None:
    spec = {**LONG_COUNT, "time_limit": 1000}
    t0 = time.monotonic()
    result = tiny.post("/api/solve", json=spec).json()["result"]
    assert time.monotonic() - t0 < 4.0
    assert result["status"] == "feasible" and result["count_exact"] is False and "time limit" in result["message"]
