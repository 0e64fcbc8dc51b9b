"""``cpwords serve``'s JSON API through the ASGI test client, with real worker processes.

Every kind solves through the API with the CLI's answers; every bad input of the CLI's own sweep
(tests/test_robustness.py) gives a 4xx with the CLI's one line, field and value; files are refused;
bodies, inline word lists and solve times are capped; jobs report progress and cancel within a
second; a full queue answers 429; a crashed worker fails its job alone; the token is enforced.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="cpwords serve needs the serve extra (fastapi, uvicorn)")

import yaml

with warnings.catch_warnings():  # newer Starlette asks for httpx2 in its test client; httpx still works
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
from pace import HANG_S, wait_until
from test_robustness import FILES  # the CLI's sweep of bad inputs

import cpwords
from cpwords import cli, puzzles
from cpwords.errors import InputError
from cpwords.puzzles.loading import json_schema
from cpwords.server import ServerConfig, create_app
from cpwords.server import cli as serve_cli
from cpwords.server.config import MAX_BODY_BYTES, MAX_INLINE_WORDS, PAGES_DIR

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: A long job: counting every board of common-20k takes well over a minute on one core.
LONG_COUNT = {"kind": "prefix_suffix_board", "task": "count_boards", "dictionary": "common-20k"}
YAML = {"Content-Type": "application/yaml"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The app with two workers; no solve here is about the server's time limit, so none meets it
    (``max_time`` a hang guard: tests/test_server_jobs.py and test_server_time_limit.py test it)."""
    with TestClient(create_app(ServerConfig(workers=2, max_time=HANG_S))) as c:
        yield c


def wait_for(predicate: Any, every: float = 0.05) -> Any:
    """Poll ``predicate`` until it returns something true, and return that (the hang guard,
    :data:`pace.HANG_S`, only stops a test that hangs)."""
    value = None

    def ready() -> bool:
        nonlocal value
        value = predicate()
        return bool(value)

    wait_until(ready, "a job's state", poll_s=every)
    return value


def running(client: TestClient, spec: dict[str, Any]) -> str:
    """Start a job and wait until a worker runs it; returns its id."""
    response = client.post("/api/jobs", json=spec)
    assert response.status_code == 202, response.text
    job_id = response.json()["id"]
    wait_for(lambda: client.get(f"/api/jobs/{job_id}").json()["status"] == "running")
    return job_id


def assert_error_body(response: Any, status: int | None = None) -> dict[str, Any]:
    """A refusal: 4xx, JSON, an ``error`` of one line, never a traceback."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    if status is not None:
        assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert {"error", "field", "value"} <= set(body)
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    return body


# ---------------------------------------------------------------- the registry


def test_kinds_are_the_registry(client: TestClient) -> None:
    data = client.get("/api/kinds").json()["kinds"]
    assert [k["kind"] for k in data] == list(puzzles.kinds())
    for row in data:
        table = puzzles.get(row["kind"]).table()
        assert {k: row[k] for k in table} == table
        assert client.get(row["page"]).status_code == 200
        schema = client.get(row["schema"]).json()
        assert schema["properties"]["kind"]["const" if "const" in schema["properties"]["kind"] else "default"] == row["kind"]


def test_unknown_kind_schema_is_404_naming_the_field(client: TestClient) -> None:
    body = assert_error_body(client.get("/api/schema/laddr"), 404)
    assert body["field"] == "kind" and body["value"] == "laddr" and "ladder" in body["error"]


def test_shipped_shapes_are_served_and_nothing_else(client: TestClient) -> None:
    names = client.get("/api/models/grids").json()["names"]
    assert "gridle-5x5" in names
    assert client.get("/api/models/grids/gridle-5x5").json()["rows"][1] == ".#.#."
    for path in ("/api/models/grids/..%2F..%2Fpyproject", "/api/models/etc/passwd", "/api/models/grids/nope"):
        assert_error_body(client.get(path), 404)


def test_openapi_documents_every_kind_and_docs_work_offline(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    body = schema["paths"]["/api/solve"]["post"]["requestBody"]["content"]
    assert body["application/json"]["schema"] == {"$ref": "#/components/schemas/PuzzleSpec"}
    text = json.dumps(schema["components"]["schemas"]["PuzzleSpec"])
    assert all(f'"{kind}"' in text for kind in puzzles.kinds())
    docs = client.get("/docs").text
    assert "swagger" in docs.lower()
    if "/docs/assets/" in docs:  # fastapi-offline installed: no CDN
        assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200


# ---------------------------------------------------------------- the same answers as the CLI


def _example(kind: str, folder: Path) -> Path:
    """A kind's own example, ``examples/<kind>.yaml``, else its first example file (any kind added
    later is covered the same way), else its cases' ``EXAMPLE`` written to ``folder`` (the template)."""
    own = EXAMPLES / f"{kind}.yaml"
    if own.is_file() and yaml.safe_load(own.read_text()).get("kind") == kind:
        return own
    for path in sorted(EXAMPLES.glob("*.yaml")):
        if yaml.safe_load(path.read_text()).get("kind") == kind:
            return path
    text = puzzles.get(kind).test_cases().EXAMPLE
    if text is None:
        pytest.skip(f"no example of {kind}")
    (folder / f"{kind}.yaml").write_text(text)
    return folder / f"{kind}.yaml"


def _answers(result: dict[str, Any]) -> dict[str, Any]:
    return {k: result[k] for k in ("kind", "status", "engine", "task", "solutions", "count", "count_exact", "objective")}


@pytest.mark.parametrize("kind", list(puzzles.kinds()))
def test_every_kind_solves_like_the_cli(kind: str, client: TestClient, capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    path = _example(kind, tmp_path)
    assert cli.main(["solve", str(path), "--json", "--seed", "7", "--workers", "1"]) == 0
    expected = json.loads(capsys.readouterr().out)
    data = yaml.safe_load(path.read_text())
    response = client.post("/api/solve?pictures=true", json={**data, "seed": 7})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert _answers(answer["result"]) == _answers(expected)
    assert answer["spec"]["kind"] == kind
    assert bool(answer["pictures"]) == puzzles.get(kind).draws
    # The YAML text itself gives the same answer.
    text = re.sub(r"^seed:.*$", "", path.read_text(), flags=re.M) + "\nseed: 7\n"  # a key given twice is refused
    again = client.post("/api/solve", content=text, headers=YAML).json()
    assert _answers(again["result"]) == _answers(expected) and again["pictures"] == []


# ---------------------------------------------------------------- bad input: the CLI's sweep

#: Cases of the CLI sweep that name a file: the server refuses to read it.
NAMES_A_FILE = re.compile(r"path:|: \S+\.ya?ml\b")
#: Cases the server refuses before reading YAML (bytes that are not UTF-8, no body): what it says.
REFUSED_AS_BODIES = {"binary.yaml": "not UTF-8", "utf16.yaml": "not UTF-8", "empty.yaml": "the request body is empty"}
SWEEP = sorted(n for n in FILES if n.endswith(".yaml") and not n.endswith(("-file.yaml", "shape-bad.yaml")))


@pytest.fixture(scope="module")
def sweep_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sweep")
    for name, content in FILES.items():
        (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    (folder / "folder").mkdir()
    return folder


def _cli_error(path: Path) -> str:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["solve", str(path)]) == 2
    line = err.getvalue().strip().removeprefix("cpwords: error: ")
    return re.sub(rf"^{re.escape(str(path.parent))}/[^:]+(:\d+)?: |^/dev/zero: ", "", line)


@pytest.mark.parametrize("name", SWEEP)
def test_bad_input_of_the_cli_sweep_is_a_4xx_with_the_cli_line(name: str, client: TestClient, sweep_folder: Path) -> None:
    content = FILES[name]
    raw = content if isinstance(content, bytes) else content.encode()
    body = assert_error_body(client.post("/api/solve", content=raw, headers=YAML))
    if name in REFUSED_AS_BODIES:
        assert REFUSED_AS_BODIES[name] in body["error"]
        return
    text = raw.decode("utf-8")
    if NAMES_A_FILE.search(text):
        assert body["field"] is not None and body["field"].split(".")[-1] in ("path", "shape", "board", "bonuses")
        assert "files cannot be named here" in body["error"], body
        return
    expected = _cli_error(sweep_folder / name)
    # The pages leave offensive words out by default, and a dictionary's label says so.
    shown = re.sub(r"^spec(:\d+)?: ", "", body["error"])
    assert shown.replace(", exclude=offensive", "").replace(" (exclude=offensive)", "") == expected
    # The same line: the same field and value, also as separate parts of the body.
    named = re.match(r"field '([^']+)'(?=[,:])(, value )?", expected)
    if named:
        assert body["field"] == named[1]
        assert (body["value"] is not None) == bool(named[2])


@pytest.mark.parametrize(("spec", "field"), [
    ({"kind": "ladder", "start": "cold", "target": "warm", "dictionary": {"path": "/etc/passwd"}}, "dictionary.path"),
    ({"kind": "ladder", "start": "cold", "target": "warm", "dictionary": {"path": "words.txt"}}, "dictionary.path"),
    ({"kind": "word_grid", "shape": "../models/grids/gridle-5x5.yaml"}, "shape"),
    ({"kind": "word_grid", "shape": "/etc/passwd"}, "shape"),
    ({"kind": "prefix_suffix_board", "board": "boards/okwddm.yaml"}, "board"),
    ({"kind": "ruzzle", "grid": ["cats", "dogs"], "bonuses": "/tmp/layout.yaml"}, "bonuses"),
])
def test_files_named_in_a_spec_are_refused(spec: dict[str, Any], field: str, client: TestClient) -> None:
    for path in ("/api/solve", "/api/jobs"):
        body = assert_error_body(client.post(path, json=spec), 422)
        assert body["field"] == field and "files cannot be named" in body["error"]


def test_inline_words_are_allowed_up_to_the_cap(client: TestClient) -> None:
    words = ["cold", "cord", "card", "ward", "warm"]
    spec = {"kind": "ladder", "start": "cold", "target": "warm", "mode": "shortest", "dictionary": {"words": words}}
    result = client.post("/api/solve", json=spec).json()["result"]
    assert result["solutions"][0]["words"] == words
    too_many = [f"w{chr(97 + i % 26)}{i}" for i in range(MAX_INLINE_WORDS + 1)]
    body = assert_error_body(client.post("/api/solve", json={**spec, "dictionary": {"words": too_many}}), 422)
    assert body["field"] == "dictionary.words" and f"{MAX_INLINE_WORDS:,}" in body["error"]


def test_body_is_capped_at_one_mebibyte(client: TestClient) -> None:
    big = b"kind: ladder\ntitle: " + b"x" * MAX_BODY_BYTES + b"\n"
    assert "larger than" in assert_error_body(client.post("/api/solve", content=big, headers=YAML), 413)["error"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: the cap is counted while reading
        yield b"kind: ladder\ntitle: "
        for _ in range(MAX_BODY_BYTES // 65536 + 1):
            yield b"x" * 65536

    assert_error_body(client.post("/api/solve", content=chunks(), headers=YAML), 413)


@pytest.mark.parametrize(("content", "media", "status", "says"), [
    (b"", "application/json", 400, "empty"),
    (b"{not json", "application/json", 400, "not valid JSON"),
    (b"[1, 2]", "application/json", 422, "JSON object"),
    (b"\xff\xfekind", "application/yaml", 400, "not UTF-8"),
    (b"kind: ladder", "application/xml", 415, "application/json"),
    (b"[" * 100_000 + b"]" * 100_000, "application/json", 400, "nested too deeply"),
    (b"kind: ladder\nstart: cold\ntarget: warm\n---\nkind: ladder\nstart: cold\ntarget: warm\n", "text/yaml", 422, "one puzzle"),
])
def test_malformed_bodies(content: bytes, media: str, status: int, says: str, client: TestClient) -> None:
    body = assert_error_body(client.post("/api/solve", content=content, headers={"Content-Type": media}), status)
    assert says in body["error"]


def test_user_text_comes_back_as_inert_data(client: TestClient) -> None:
    title = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    answer = client.post("/api/solve?pictures=true", json={
        "kind": "letter_boxed", "title": title, "sides": ["lme", "iuf", "wcb", "oas"]}).json()
    assert answer["result"]["title"] == title
    for picture in answer["pictures"]:
        assert "<script" not in picture and "onerror=" not in picture.replace("onerror=alert", "")
    body = assert_error_body(client.post("/api/solve", json={"kind": "ladder", "start": "<script>", "target": "x"}))
    assert body["value"] == "<script>"
    page = client.get("/kind/ladder")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "<script>" not in page.text.replace("<script src=", "")


def test_word_facts(client: TestClient) -> None:
    facts = client.get("/api/dict/scowl-70/Cold").json()
    assert facts["word"] == "cold" and facts["in_dictionary"] and facts["rareness"] >= 0
    assert facts["definitions"] and facts["ladder_group"]["size"] > 1000
    assert "links" in facts
    assert assert_error_body(client.get("/api/dict/etc-passwd/cold"), 404)["field"] == "name"
    assert_error_body(client.get("/api/dict/..%2F..%2Fetc/cold"), 404)
    assert assert_error_body(client.get("/api/dict/scowl-70/c0ld"), 422)["field"] == "word"
    assert assert_error_body(client.get("/api/dict/scowl-71/cold"), 422)["field"] == "dictionary"


# ---------------------------------------------------------------- the token


def test_token_is_required_on_api_and_pages() -> None:
    with TestClient(create_app(ServerConfig(workers=1, token="s3cret"))) as c:
        assert_error_body(c.get("/api/kinds"), 401)
        assert c.get("/api/kinds").headers["www-authenticate"] == "Bearer"
        assert_error_body(c.get("/api/kinds", headers={"Authorization": "Bearer wrong"}), 401)
        assert c.get("/api/kinds", headers={"Authorization": "Bearer s3cret"}).status_code == 200
        assert_error_body(c.post("/api/solve", json={"kind": "ladder"}), 401)
        assert c.get("/openapi.json").status_code == 401
        page = c.get("/kind/ladder")
        assert page.status_code == 401 and "needs a token" in page.text
        assert c.get("/kind/ladder?token=wrong").status_code == 401
        assert c.get("/static/cpwords.css").status_code == 200
        link = c.get("/kind/ladder?token=s3cret&x=1", follow_redirects=False)
        assert link.status_code == 303 and link.headers["location"] == "/kind/ladder?x=1"
        assert "httponly" in link.headers["set-cookie"].lower() and "samesite=strict" in link.headers["set-cookie"].lower()
        c.cookies.set("cpwords_token", "s3cret")
        assert c.get("/kind/ladder").status_code == 200 and c.get("/api/kinds").status_code == 200


# ---------------------------------------------------------------- pages and the command line


def test_a_kind_without_page_files_gets_the_generic_page(tmp_path: Path) -> None:
    with TestClient(create_app(ServerConfig(workers=1, pages_dir=tmp_path))) as c:
        page = c.get("/kind/ruzzle").text
        assert '<details id="yaml-panel" class="panel" open>' in page and "/pages/ruzzle.js" not in page
        assert "<code>grid</code>" in page  # the fields, from the spec's schema
        assert_error_body(c.get("/pages/ruzzle.js"), 404)
    assert c.get("/kind/nosuchkind").status_code == 404


def test_every_kind_has_a_page(client: TestClient) -> None:
    """Every registered kind (also one added later) has a page, listed on the index: its own form and
    script when ``pages/<kind>.*`` exist, else the generic YAML page, started with the kind's fields."""
    index = client.get("/").text
    for kind in puzzles.kinds():
        assert f'href="/kind/{kind}"' in index
        page = client.get(f"/kind/{kind}").text
        assert 'aria-current="page"' in page and f'data-kind="{kind}"' in page
        assert 'id="yaml-text"' in page and f"kind: {kind}" in page
        if (PAGES_DIR / f"{kind}.js").is_file():
            assert f'src="/pages/{kind}.js"' in page
            assert client.get(f"/pages/{kind}.js").headers["content-type"].startswith("text/javascript")
        else:
            assert '<details id="yaml-panel" class="panel" open>' in page
        for required in json_schema(kind).get("required", []):
            assert f"# {required}: (required)" in page or required == "kind"
    assert client.get("/kind/nosuchkind").status_code == 404


def test_serve_is_a_command_of_cpwords(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--help"]) == 0 and "--max-time" in capsys.readouterr().out
    for bad, field in ((["--port", "70000"], "--port"), (["--max-time", "-1"], "--max-time"),
                       (["--token", " "], "--token")):
        assert cli.main(["serve", *bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"field '{field}'" in err and "Traceback" not in err
    assert cli.main(["serve", "--port", "x"]) == 2
    assert "invalid int value" in capsys.readouterr().err


def test_serve_options() -> None:
    parser = argparse.ArgumentParser()
    serve_cli.add_parser(parser.add_subparsers())
    args = parser.parse_args(["serve", "--port", "9000", "--workers", "64", "--max-time", "3", "--token", "t"])
    config = serve_cli.config_from(args)
    assert (config.host, config.port, config.max_time, config.token) == ("127.0.0.1", 9000, 3.0, "t")
    assert 1 <= config.workers <= (os.cpu_count() or 1)
    for bad in (["--port", "70000"], ["--max-time", "0"], ["--workers", "0"], ["--queue", "0"]):
        with pytest.raises(InputError):
            serve_cli.config_from(parser.parse_args(["serve", *bad]))


def test_pages_leave_offensive_words_out_unless_the_spec_asks(client: TestClient) -> None:
    spec = {"kind": "ruzzle", "grid": ["crap", "zzzz", "zzzz", "zzzz"], "dictionary": "scowl-70"}
    assert "crap" in {s.words[0] for s in cpwords.solve(spec).solutions}  # the CLI keeps every word
    served = client.post("/api/solve", json=spec).json()["result"]
    words = {s["words"][0] for s in served["solutions"]}
    assert "crap" not in words and "rap" in words
    kept = client.post("/api/solve", json={**spec, "dictionary": {"name": "scowl-70", "exclude": []}}).json()
    assert "crap" in {s["words"][0] for s in kept["result"]["solutions"]}
