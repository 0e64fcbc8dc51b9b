"""The answers a server worker (:mod:`cpwords.server.worker`) sends, as JSON bytes: a solve's
answer (:func:`answer_bytes`, spilling a big result into the spool), the stand-in sent when a
solve overruns the time limit (:func:`stand_in_answer`), the pictures of a result, and what a
dictionary knows about a word (:func:`word_answer`).
"""

from __future__ import annotations

import io
import sys
import traceback
from pathlib import Path
from typing import Any

from cpwords.server.wire import dumps


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


def result_pictures(kind: Any, spec: Any, result: Any, *, blank: bool = False) -> list[str]:
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
