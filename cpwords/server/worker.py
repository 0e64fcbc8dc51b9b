"""The solver process of ``cpwords serve``: receives jobs on one pipe, answers on another.

A worker runs one job at a time in its main thread; a listener thread reads the job pipe, so
that a ``stop`` message reaches the running solve's :class:`~cpwords.engines.budget.Budget`
while the solver holds the main thread (CP-SAT, SAT and the native searches stop within a
second). The server starts it as ``python -m cpwords.server.worker JOBS_FD RESULTS_FD`` in a
session of its own, so that it can be killed together with any processes a solve starts; it
ignores Ctrl-C (the server stops its workers itself) and leaves when its job pipe closes.

Messages in (parent -> worker)::

    ("solve", job_id, spec_data, options)   options: max_time, threads, pictures
    ("word", job_id, dictionary_name, word)
    ("stop", job_id)
    ("exit",)

Messages out (worker -> parent)::

    ("ready", pid)
    ("started", job_id)
    ("solving", job_id, stand_in_json_bytes)   the spec is valid; the answer to send if the solve
                                               does not end near the time limit
    ("progress", job_id, {"description", "total", "done"})
    ("solved", job_id)                         the solve has its result (pictures and JSON follow)
    ("done", job_id, answer_json_bytes)
    ("input_error", job_id, error_dict)
    ("failed", job_id, message)

The answer is serialised here, in the worker, so the server's event loop only copies bytes.
"""

from __future__ import annotations

import io
import os
import queue
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

# _MISSING: how InputError says "no value given" (None is a value a user can give).
from cpwords.errors import _MISSING, InputError
from cpwords.server.wire import dumps, shown

#: Seconds between two progress messages of one job (the bar needs no more).
PROGRESS_EVERY_S = 0.1


def error_body(exc: InputError) -> dict[str, Any]:
    """An InputError as the JSON body of a 4xx answer: the CLI's one line, and its parts.

    >>> error_body(InputError("unknown field", field="strat", value="cold"))["error"]
    "field 'strat', value 'cold': unknown field"
    """
    value = None if exc.value is _MISSING else shown(exc.value)
    if len(dumps(value)) > 200:  # a huge value is shown the way the one line shows it
        value = shown(repr(exc.value)[:57] + "...")
    return {"error": exc.one_line(), "message": exc.message, "field": exc.field and shown(exc.field),
            "value": value, "line": exc.line}


class _Reporter:
    """A :class:`~cpwords.engines.budget.Progress` that sends throttled progress messages."""

    def __init__(self, send: Any, job_id: str) -> None:
        self._send = send
        self._job_id = job_id

    @contextmanager
    def __call__(self, description: str, total: int | None = None) -> Iterator[Any]:
        done = 0
        last = 0.0

        def report(force: bool = False) -> None:
            nonlocal last
            now = time.monotonic()
            if force or now - last >= PROGRESS_EVERY_S:
                last = now
                self._send(("progress", self._job_id, {"description": description, "total": total, "done": done}))

        def advance(n: int = 1) -> None:
            nonlocal done
            done += n
            report()

        report(force=True)
        try:
            yield advance
        finally:
            report(force=True)


class _Worker:
    """State of one worker process: the job running now and its budget."""

    def __init__(self, jobs: Connection, results: Connection) -> None:
        self.jobs = jobs
        self.results = results
        self.inbox: queue.Queue[tuple[Any, ...] | None] = queue.Queue()
        self.lock = threading.Lock()
        self.current: str | None = None
        self.budget: Any = None
        self.cancelled: set[str] = set()  # stops that came before their job started

    def send(self, message: tuple[Any, ...]) -> None:
        try:
            self.results.send(message)
        except (OSError, ValueError):
            os._exit(0)  # the server is gone: nobody to answer

    def listen(self) -> None:
        """Read the job pipe: jobs go to the main thread, stops go straight to the budget."""
        while True:
            try:
                message = self.jobs.recv()
            except (EOFError, OSError):
                os._exit(0)  # the server closed the pipe (or died): leave with it
            if message[0] == "stop":
                with self.lock:
                    if self.current == message[1] and self.budget is not None:
                        self.budget.stop("interrupted")
                    else:
                        self.cancelled.add(message[1])
            elif message[0] == "exit":
                self.inbox.put(None)
                return
            else:
                self.inbox.put(message)

    def run(self) -> None:
        while True:
            message = self.inbox.get()
            if message is None:
                return
            job_id = message[1]
            self.send(("started", job_id))
            try:
                if message[0] == "solve":
                    answer = self.solve(job_id, message[2], message[3])
                else:
                    answer = word_answer(message[2], message[3])
                self.send(("done", job_id, answer))
            except InputError as exc:
                self.send(("input_error", job_id, error_body(exc)))
            except MemoryError:
                # Over this worker's memory cap: the request is too big for this server. What the
                # request pushed the process's memory up to is not all given back (a fragmented
                # heap kept a worker near its cap, refusing tiny requests after), so the pool
                # replaces this worker with a fresh one.
                _forget_caches()
                self.send(("too_big", job_id, _too_big()))
            except Exception as exc:  # a bug: logged in full here, one line to the client
                traceback.print_exc(file=sys.stderr)
                self.send(("failed", job_id, f"internal error ({type(exc).__name__}); the server log has the details"))
            finally:
                with self.lock:
                    self.current, self.budget = None, None

    def solve(self, job_id: str, data: Any, options: dict[str, Any]) -> bytes:
        from cpwords.engines.budget import Budget

        budget = Budget(options["max_time"], progress=_Reporter(self.send, job_id))
        with self.lock:
            self.current, self.budget = job_id, budget
            if job_id in self.cancelled:
                self.cancelled.discard(job_id)
                budget.stop("interrupted")
        return solve_answer(data, budget, {**options, "job": job_id},
                            tell=lambda *message: self.send((message[0], job_id, *message[1:])))


def solve_answer(data: Any, budget: Any, options: dict[str, Any], tell: Any = None) -> bytes:
    """Validate ``data`` (files refused), solve it within ``budget`` and return the answer as
    JSON: ``{"spec", "result", "pictures"}``.

    Parameters
    ----------
    data: the spec as plain data (parsed JSON) or as YAML text (one document).
    budget: the job's budget (its deadline is the server's time limit; the stop switch cancels).
    options: ``max_time`` (seconds), ``threads`` (solver threads a solve may use), ``pictures``
        (render SVG), ``blank`` (pictures without the answer); ``spool``, ``job`` and
        ``max_answer_bytes``: an answer bigger than that keeps its full result in the file
        ``SPOOL/JOB.json`` (see :func:`answer_bytes`).
    tell: called as ``tell("solving", stand_in)`` once the spec is valid (``stand_in``: the answer
        the server sends if the solve overruns its limit, see :func:`stand_in_answer`) and as
        ``tell("solved")`` once the solve has its result.
    """
    from cpwords import api, puzzles
    from cpwords.lexicon import chosen_for_others
    from cpwords.puzzles.loading import loads_spec, parse_spec

    if isinstance(data, str):
        spec = loads_spec(data, source="spec", allow_files=False)
    else:
        spec = parse_spec(data, source="spec", allow_files=False)
    # The pages show words to people who did not choose the dictionary: offensive words are left
    # out unless the spec sets ``exclude`` itself (even ``[]``).
    spec = chosen_for_others(spec)
    kind = puzzles.get(spec.kind)
    from cpwords.server.config import search_seconds

    max_time = float(options["max_time"])
    # The search stops a little before the server's limit: the answer is built, checked and sent in time.
    search_time = search_seconds(max_time)
    time_limit = min(spec.time_limit or search_time, search_time)
    threads = min(spec.workers or options["threads"], options["threads"])
    if tell is not None:
        tell("solving", stand_in_answer(spec, max_time))
    result = api.solve(spec, budget=budget, time_limit=time_limit, workers=threads)
    if tell is not None:
        tell("solved")
    pictures: list[str] = []
    if options.get("pictures") and kind.draws and result.solved:
        pictures = _pictures(kind, spec, result, blank=bool(options.get("blank")))
    return answer_bytes(spec, result, pictures, options)


def answer_bytes(spec: Any, result: Any, pictures: list[str], options: dict[str, Any]) -> bytes:
    """The answer as JSON, ``{"spec", "result", "pictures"}``, with every answer of the result in it.

    The result is written one answer at a time (it can hold millions, made when read). When its
    JSON passes ``options["max_answer_bytes"]`` and the server gave a spool folder, it goes on into
    ``SPOOL/JOB.json`` (the download ``GET /api/jobs/JOB/result``), and the answer sent is one JSON
    body of bounded size: its result lists the first :data:`~cpwords.server.config.PREVIEW_SOLUTIONS`
    answers and says where all of them are, and ``full_result`` gives the address, the answers and
    the bytes of the whole result.
    """
    from cpwords.output import JsonWriter
    from cpwords.server.config import PREVIEW_SOLUTIONS

    spool, job = options.get("spool"), options.get("job")
    cap = options.get("max_answer_bytes") if spool and job else None
    sink = _Spill(cap, Path(str(spool)) / f"{job}.json")
    try:
        with JsonWriter(sink, batch=False, compact=True) as writer:  # type: ignore[arg-type]
            writer.write(result)
    except BaseException:
        sink.discard()
        raise
    head = {"spec": spec.model_dump(mode="json")}
    if sink.file is None:
        return _joined(head, "".join(sink.parts), pictures)
    size = sink.close()
    url = f"/api/jobs/{job}/result"
    shown = min(PREVIEW_SOLUTIONS, len(result.solutions))
    note = (f"this answer lists the first {shown:,} of the {len(result.solutions):,} answers; the full result, "
            f"with every one, is at {url}")
    preview = result.model_copy(update={"solutions": result.solutions[:shown],
                                        "message": f"{result.message}; {note}" if result.message else note})
    head["full_result"] = {"url": url, "solutions": len(result.solutions), "bytes": size}
    out = io.StringIO()
    with JsonWriter(out, batch=False, compact=True) as writer:
        writer.write(preview)
    return _joined(head, out.getvalue(), pictures)


def _joined(head: dict[str, Any], result_json: str, pictures: list[str]) -> bytes:
    """``{**head, "result": …, "pictures": …}`` as compact JSON, the result already written."""
    start = dumps(head)[:-1].decode("ascii")
    return f'{start},"result":{result_json},"pictures":{dumps(pictures).decode("ascii")}}}'.encode()


class _Spill:
    """A text sink kept in memory up to ``limit`` characters, then written on into ``path``
    through the one writer (:class:`cpwords.writer.NewFile`: a fresh temporary in the spool,
    renamed to ``path`` at :meth:`close`, never over a file that is there)."""

    def __init__(self, limit: int | None, path: Path) -> None:
        self.limit, self.path = limit, path
        self.parts: list[str] = []
        self.size = 0
        self.file: Any = None
        self._new: Any = None

    def write(self, text: str) -> int:
        if self.file is not None:
            self.file.write(text)
        else:
            self.parts.append(text)
            self.size += len(text)
            if self.limit is not None and self.size > self.limit:
                from cpwords.writer import NewFile, Outputs

                claim = Outputs(force=False).claim(self.path, "spool")
                assert claim is not None
                self._new = NewFile(claim)
                self.file = self._new.file
                self.file.writelines(self.parts)
                self.parts = []
        return len(text)

    def flush(self) -> None:
        if self.file is not None:
            self.file.flush()

    def close(self) -> int:
        """Give the file its name; returns its size in bytes."""
        self._new.commit()
        return self.path.stat().st_size

    def discard(self) -> None:
        """Remove what was written (the answer failed)."""
        if self._new is not None:
            self._new.discard()


def stand_in_answer(spec: Any, max_time: float) -> bytes:
    """The answer sent when a solve has not ended shortly after the server's time limit (work that
    does not look at the limit, such as the first build of a big dictionary's index): status
    ``unknown``, ``stats.stopped`` ``time_limit``, and a message the server completes with what the
    solve was doing. The server sends it on time and lets the solve go on a little (what it builds
    is cached for the next request) before it restarts the worker."""
    from cpwords.results import Result, Status

    result = Result(kind=spec.kind, status=Status.UNKNOWN, engine=spec.engine, task=spec.task, stats={
        "stopped": "time_limit"}, message=f"the server's time limit ({max_time:g} s) was reached "
                    "before the solve could answer; nothing it found in time can be sent")
    answer = {"spec": spec.model_dump(mode="json"), "result": result.model_dump(mode="json"), "pictures": []}
    return dumps(answer)


def _pictures(kind: Any, spec: Any, result: Any, *, blank: bool = False) -> list[str]:
    """The kind's SVG pictures of a result (one per generated puzzle where the kind draws several;
    ``blank``: the player's view, without the answer, where the kind draws one); a renderer that
    fails costs the pictures, never the answer."""
    try:
        module = kind.render_module()
        if hasattr(module, "svgs"):
            return list(module.svgs(spec, result, answer=not blank))
        return [module.svg(spec, result)]
    except Exception:
        traceback.print_exc(file=sys.stderr)
        return []


def word_answer(name: str, word: str) -> bytes:
    """What the built-in dictionary ``name`` knows about ``word`` (``cpwords dict info``), as JSON."""
    from cpwords.puzzles import word_facts
    from cpwords.specs import DictionaryRef

    facts = word_facts(word, DictionaryRef(name=name))
    return dumps(facts, default=str)


def _too_big() -> dict[str, Any]:
    from cpwords.server.config import size_text

    cap = memory_cap()
    limit = f" ({size_text(cap)})" if cap else ""
    message = (f"the request needs more memory than a worker of this server may use{limit}; "
               "ask for less (a smaller puzzle, dictionary or limit), or run it with the cpwords command")
    return {"error": message, "message": message, "field": None, "value": None, "line": None}


def _forget_caches() -> None:
    """Drop what this process keeps between jobs (dictionaries, indexes, tries: the functions'
    caches), so that the memory a failed request pushed up does not refuse the next ones."""
    import gc

    for name, module in list(sys.modules.items()):
        if name.startswith("cpwords") and module is not None:
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()
    gc.collect()


def memory_cap() -> int | None:
    """The bytes this worker may allocate, from ``cpwords serve`` (None: no cap)."""
    from cpwords.server.config import WORKER_MEMORY_ENV

    try:
        return int(os.environ[WORKER_MEMORY_ENV])
    except (KeyError, ValueError):
        return None


def limit_memory() -> None:
    """Cap this process's data (heap and anonymous memory) so that one request cannot take the
    machine's memory: past it, allocations fail with MemoryError (where the system allows it)."""
    cap = memory_cap()
    if cap is None:
        return
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_DATA, (cap, cap))
    except (ImportError, ValueError, OSError):
        pass  # no such limit here (Windows): the server's time limit still bounds the request


def main(jobs: Connection, results: Connection) -> None:
    """Serve jobs from the ``jobs`` pipe until it closes or says ``exit``."""
    from cpwords.engines.workers import start_worker

    start_worker()  # as every worker of the execution layer starts
    limit_memory()
    worker = _Worker(jobs, results)
    import cpwords.api  # noqa: F401  (loaded before "ready": the first job starts at once)

    listener = threading.Thread(target=worker.listen, name="cpwords-worker-listener", daemon=True)
    listener.start()
    worker.send(("ready", os.getpid()))
    worker.run()


if __name__ == "__main__":
    # python -m cpwords.server.worker JOBS_FD RESULTS_FD (the server starts it in its own session)
    main(Connection(int(sys.argv[1]), writable=False), Connection(int(sys.argv[2]), readable=False))
