"""The JSON API: kinds, schemas, solves, jobs with progress events, dictionary look-ups.

Everything here reads the registry (:mod:`cpwords.puzzles`) and hands work to the pool; no
route knows a kind. Solves and look-ups run in worker processes; the event loop only checks
requests (off-loop, in a thread, for specs) and copies the answers the workers serialised.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import AsyncIterator
from functools import cache
from typing import Any

import anyio
from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response, StreamingResponse

from cpwords import puzzles
from cpwords.errors import InputError
from cpwords.server import config as limits
from cpwords.server.config import size_text
from cpwords.server.intake import RequestError, media_type, read_body, spec_input, validate
from cpwords.server.jobs import FAILED, FINAL, Job, QueueFull
from cpwords.server.pool import WorkerPool
from cpwords.server.wire import dumps

router = APIRouter()

_WORD = re.compile(r"[^\W\d_]{1,40}")  # letters of any alphabet; the dictionary's own is checked next
#: Seconds between keep-alive comments on an idle event stream (proxies drop silent ones).
KEEPALIVE_S = 15.0
#: Seconds between two checks that the client of a synchronous solve is still there.
DISCONNECT_CHECK_S = 0.5
#: Seconds ``DELETE /api/jobs/{id}`` waits for the job to end before answering.
CANCEL_WAIT_S = 2.0

_ERRORS = {"description": "an error: `error` is one line (as the CLI prints it), with `field`, `value` "
                          "and `line` where known",
           "content": {"application/json": {"example": {
               "error": "spec:3: field 'strat', value 'cold': unknown field; allowed fields: ...",
               "message": "unknown field; allowed fields: ...", "field": "strat", "value": "cold", "line": 3}}}}


def _pool(request: Request) -> WorkerPool:
    pool: WorkerPool = request.app.state.pool
    return pool


def _json(data: bytes | dict[str, Any] | list[Any], status: int = 200, headers: dict[str, str] | None = None) -> Response:
    content = data if isinstance(data, bytes) else dumps(data)
    return Response(content, status_code=status, media_type="application/json", headers=headers)


def _kind(name: str) -> puzzles.PuzzleKind:
    try:
        return puzzles.get(name)
    except InputError as exc:
        raise RequestError(404, RequestError.bad_input(exc).body) from None


# ---------------------------------------------------------------- the registry


@router.get("/api/kinds", tags=["kinds"], summary="Every puzzle kind: engines, tasks, default engines")
async def list_kinds() -> Response:
    """The capability table of every registered kind, with the addresses of its page and schema."""
    return _json({"kinds": _kinds_table()})


@cache
def _kinds_table() -> list[dict[str, Any]]:
    return [{**kind.table(), "page": f"/kind/{kind.name}", "schema": f"/api/schema/{kind.name}"}
            for kind in puzzles.kinds().values()]


@router.get("/api/schema/{kind}", tags=["kinds"], summary="The JSON Schema of one kind's spec",
            responses={404: _ERRORS})
async def schema(kind: str) -> Response:
    """What ``cpwords schema KIND`` prints: every field, its type, default and description."""
    return _json(_schema(_kind(kind).name))


@cache
def _schema(kind: str) -> bytes:
    from cpwords.puzzles.loading import json_schema

    return dumps(json_schema(kind))


@router.get("/api/models/{folder}", tags=["kinds"], summary="The shapes shipped in one folder of models/",
            responses={404: _ERRORS})
async def models(folder: str) -> Response:
    """Names of the shipped shapes: ``grids``, ``boards``, ``ruzzle`` (bonus layouts)."""
    from cpwords.geometry import shipped_shapes

    names = shipped_shapes(folder) if re.fullmatch(r"[a-z]+", folder) else []
    if not names:
        raise RequestError.of(404, "no such folder of shipped shapes", field="folder", value=folder[:60])
    return _json({"folder": folder, "names": names})


@router.get("/api/models/{folder}/{name}", tags=["kinds"], summary="One shipped shape, as data",
            responses={404: _ERRORS})
async def model(folder: str, name: str) -> Response:
    """A shipped shape (grid rows, board nodes and edges, bonus layout) as its YAML data."""
    from cpwords.geometry import read_shape, shipped_shapes

    if not re.fullmatch(r"[a-z]+", folder) or name not in shipped_shapes(folder):
        raise RequestError.of(404, "no such shipped shape", field="name", value=name[:60])
    data, _ = read_shape(folder, name, field_name="name")
    return _json(data)


# ---------------------------------------------------------------- solving


async def _spec_job(request: Request, pictures: bool, blank: bool) -> Job:
    """Read, validate and queue the request's spec."""
    body = await read_body(request)
    spec_in = spec_input(body, media_type(request))
    spec = await anyio.to_thread.run_sync(validate, spec_in)
    config = request.app.state.config
    spool = _pool(request).spool
    options = {"max_time": config.max_time, "threads": config.solve_threads, "pictures": pictures or blank,
               "blank": blank, "max_answer_bytes": config.max_answer_bytes,
               "spool": None if spool is None else str(spool)}
    return _submit(request, Job("solve", (spec_in, options), kind=spec.kind))


def _submit(request: Request, job: Job) -> Job:
    try:
        return _pool(request).submit(job)
    except QueueFull as exc:
        raise RequestError(429, RequestError.of(429, str(exc)).body, {"Retry-After": str(exc.retry_after)}) from None


async def _until_final(request: Request, job: Job) -> None:
    """Wait for the job's end; a client that goes away cancels it (its worker is freed)."""
    checked = time.monotonic()
    while not job.final:
        await job.wait(job.version, timeout=DISCONNECT_CHECK_S)
        # Checked by the clock: a job that reports progress wakes this loop ten times a second.
        if not job.final and time.monotonic() - checked >= DISCONNECT_CHECK_S:
            checked = time.monotonic()
            if await request.is_disconnected():
                _pool(request).cancel(job)
                return


def _answer(job: Job) -> Response:
    if job.answer is not None and job.status != FAILED:
        return _json(job.answer)
    error = job.error or RequestError.of(503, "the solve was cancelled").body
    return _json(error, status=job.error_status or 503)


@router.post("/api/solve", tags=["solve"], summary="Solve one puzzle and wait for the answer",
             responses={200: {"description": "`spec` (validated, defaults filled in), `result` (what "
                                             "`cpwords solve --json` prints) and `pictures` (SVG, when asked)"},
                        400: _ERRORS, 413: _ERRORS, 415: _ERRORS, 422: _ERRORS, 429: _ERRORS})
async def solve(request: Request, pictures: bool = Query(False, description="also draw the answer as SVG"),
                blank: bool = Query(False, description="draw the player's view, without the answer")) -> Response:
    """Solve a spec sent as JSON (``Content-Type: application/json``) or as YAML text
    (``application/yaml``). The server's time limit applies; files are refused."""
    job = await _spec_job(request, pictures, blank)
    try:
        await _until_final(request, job)
        return _answer(job)
    finally:
        if not job.final:
            _pool(request).cancel(job)
        if job.download is None:  # a full result to download keeps its job (as a job's would)
            _pool(request).forget(job)


@router.post("/api/jobs", tags=["jobs"], status_code=202, summary="Start a solve as a job",
             responses={400: _ERRORS, 413: _ERRORS, 415: _ERRORS, 422: _ERRORS, 429: _ERRORS})
async def start_job(request: Request, pictures: bool = Query(False, description="also draw the answer as SVG"),
                    blank: bool = Query(False, description="draw the player's view, without the answer")) -> Response:
    """Queue a spec (JSON or YAML, as for ``/api/solve``); answers at once with the job's id."""
    job = await _spec_job(request, pictures, blank)
    return _json({"id": job.id, "status": job.status, "url": f"/api/jobs/{job.id}",
                  "events": f"/api/jobs/{job.id}/events"}, status=202)


def _job(request: Request, job_id: str) -> Job:
    job = _pool(request).get(job_id)
    if job is None or job.op != "solve":
        raise RequestError.of(404, "no such job (finished jobs are kept for 15 minutes)", field="id",
                              value=job_id[:60])
    return job


@router.get("/api/jobs/{job_id}", tags=["jobs"], summary="A job's status, progress and result",
            responses={404: _ERRORS})
async def get_job(request: Request, job_id: str) -> Response:
    """``status`` is queued, running, done, failed or cancelled; ``result``, ``spec`` and
    ``pictures`` come with the answer."""
    return _json(_job(request, job_id).to_json())


@router.get("/api/jobs/{job_id}/result", tags=["jobs"], summary="A finished job's full result",
            responses={200: {"description": "the result, what `cpwords solve --json` prints: every answer found"},
                       404: _ERRORS, 409: _ERRORS, 410: _ERRORS})
async def job_result(request: Request, job_id: str) -> Response:
    """The whole result of a finished solve, every answer in it. An answer too big for one JSON
    body (a listing of hundreds of thousands of answers) names this address in its
    ``full_result``, and its body lists the first answers only; the file is kept with its job."""
    job = _job(request, job_id)
    if job.download is not None:
        if job.download.is_file():
            return FileResponse(job.download, media_type="application/json")
        raise RequestError.of(410, "the full result is no longer kept (the server keeps "
                                   f"{size_text(limits.MAX_DOWNLOAD_BYTES)} of them; the oldest go first)")
    if not job.final:
        raise RequestError.of(409, f"the job has no result yet (it is {job.status})", field="id", value=job_id[:60])
    if job.answer is None:
        raise RequestError.of(409, f"the job ended without a result (it {job.status})", field="id", value=job_id[:60])
    return _json(dumps(json.loads(job.answer)["result"]))


@router.delete("/api/jobs/{job_id}", tags=["jobs"], summary="Cancel a job", responses={404: _ERRORS})
async def cancel_job(request: Request, job_id: str) -> Response:
    """Stop the job; its worker is free again within a second. Answers with the job's state."""
    job = _job(request, job_id)
    _pool(request).cancel(job)
    with anyio.move_on_after(CANCEL_WAIT_S):
        while not job.final:
            await job.wait(job.version, timeout=0.2)
    return _json(job.state())


@router.get("/api/jobs/{job_id}/events", tags=["jobs"], summary="Server-sent events of a job",
            response_class=StreamingResponse, responses={404: _ERRORS})
async def job_events(request: Request, job_id: str) -> StreamingResponse:
    """A ``state`` event at every change (status and progress), then ``end`` with the final state."""
    job = _job(request, job_id)

    async def stream() -> AsyncIterator[bytes]:
        seen = -1
        while True:
            version = job.version
            if version != seen:
                seen = version
                # One snapshot decides both the event's data and whether it is the last: the job's
                # thread may finish between two reads, and an ``end`` event must carry the end state.
                snapshot = job.state()
                final = snapshot["status"] in FINAL
                state = dumps(snapshot)
                yield b"event: " + (b"end" if final else b"state") + b"\ndata: " + state + b"\n\n"
                if final:
                    return
            elif not await job.wait(version, timeout=KEEPALIVE_S):
                yield b": keep-alive\n\n"

    # X-Accel-Buffering: nginx passes each event on at once instead of buffering the stream.
    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


# ---------------------------------------------------------------- words


@router.get("/api/dict/{name}/{word}", tags=["words"], summary="What a dictionary knows about a word",
            responses={404: _ERRORS, 422: _ERRORS})
async def word_info(request: Request, name: str, word: str) -> Response:
    """Level, zipf frequency, rareness, definitions (WordNet) and the kinds' facts (ladder group
    and links), as ``cpwords dict info WORD --dict NAME --json`` prints them."""
    from cpwords.lexicon.sources import is_builtin_name
    from cpwords.specs import DictionaryRef

    if not is_builtin_name(name):
        raise RequestError.of(404, "not a built-in dictionary name (scowl-N, scowl-british-N, common-N, "
                                   "italian, spanish, german, french)", field="name", value=name[:60])
    alphabet = DictionaryRef(name=name).alphabet()
    word = alphabet.fold(word)
    if not _WORD.fullmatch(word) or not alphabet.is_word(word):
        raise RequestError.of(422, f"a word is 1 to 40 letters {alphabet.describe()}", field="word", value=word[:60])
    job = _submit(request, Job("word", (name, word)))
    try:
        await _until_final(request, job)
        return _answer(job)
    finally:
        _pool(request).forget(job)


@router.get("/healthz", tags=["server"], summary="Is the server up")
async def health(request: Request) -> Response:
    """``{"status": "ok"}`` and the pool's load (workers, busy, queued)."""
    return _json({"status": "ok", **_pool(request).counts()})
