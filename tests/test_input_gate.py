"""One input gate (issue 34): what the server, the Python API, the spec loader and the command
line refuse, and how, in one place (:func:`cpwords.specs.gate`, the API's argument checks,
:mod:`cpwords.server.wire`, :func:`cpwords.files.read_stdin`).

NaN, infinity, numbers past the gate's bounds (``1e400`` reads as infinity), half of a UTF-16
surrogate pair and wrong types are refused naming the field or argument: 422 with strict JSON on
the server, :class:`~cpwords.errors.InputError` in Python, one line and exit 2 on the command
line. Every case is an item of ../shared/audits/turn4-defects.md (the id is in the test's name
or its parameters); the schema fuzzers are in tests/test_fuzz_schemas.py.
"""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from pace import HANG_S

import cpwords
from cpwords import api
from cpwords.cli import main
from cpwords.errors import InputError
from cpwords.files import MAX_FILE_BYTES
from cpwords.puzzles.loading import json_schema, parse_spec

LADDER = {"kind": "ladder", "start": "cold", "target": "warm"}
GENERATE = {"kind": "ladder", "mode": "generate", "count": 2, "par": 3, "length": 4}
NOT_FINITE = "the number is not finite"
SURROGATE = "half of a UTF-16 surrogate pair"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def strict_json(text: str) -> Any:
    """``text`` parsed as a browser's ``JSON.parse`` would: ``NaN`` and ``Infinity`` are errors."""

    def refuse(constant: str) -> Any:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def refused(call: Callable[[], Any]) -> InputError:
    with pytest.raises(InputError) as info:
        call()
    assert "\n" not in info.value.one_line()
    return info.value


# ---------------------------------------------------------------- the Python API's arguments (B6, N15)


@pytest.mark.parametrize(("call", "argument"), [
    (lambda: cpwords.solve(GENERATE, time_limit="1"), "time_limit"),  # B6: TypeError
    (lambda: cpwords.loads(42), "text"),  # B6: AttributeError
    (lambda: cpwords.load(None), "path"),  # B6: TypeError
    (lambda: cpwords.solve(LADDER, seed=2**80), "seed"),  # B6: accepted though specs refuse it
    (lambda: cpwords.solve(LADDER, progress=42), "progress"),  # B6: accepted
    (lambda: cpwords.solve(LADDER, check="no"), "check"),  # B6: accepted
    (lambda: cpwords.solve(LADDER, time_limit=math.inf), "time_limit"),  # B1's API half: accepted
    (lambda: cpwords.solve(LADDER, time_limit=math.nan), "time_limit"),
    (lambda: cpwords.solve(LADDER, seed=1.5), "seed"),
    (lambda: cpwords.solve(LADDER, engine=3), "engine"),
    (lambda: cpwords.solve_many([LADDER], time_limit="1"), "time_limit"),
    (lambda: cpwords.solve_many([LADDER], scores_only="yes"), "scores_only"),
    (lambda: api.solve_batch([LADDER], shard_seconds=math.nan), "shard_seconds"),
    (lambda: cpwords.solve(LADDER, cluster="local:abc"), "cluster"),  # N15: named '--cluster'
], ids=["B6-time_limit-text", "B6-loads-int", "B6-load-None", "B6-seed-2**80", "B6-progress", "B6-check",
        "B1-time_limit-inf", "time_limit-nan", "seed-float", "engine-int", "solve_many-time_limit",
        "scores_only", "shard_seconds-nan", "N15-cluster"])
def test_api_arguments_are_refused_naming_the_argument(call: Callable[[], Any], argument: str) -> None:
    error = refused(call)
    assert error.field == argument, error.one_line()
    assert "--" not in error.one_line()  # an option of the command line is no argument of a call


def test_good_arguments_still_pass(tmp_path: Path) -> None:
    result = cpwords.solve(LADDER, seed=7, time_limit=30, check=True, progress=None, engine="native")
    assert result.status == "optimal" and result.stats["seed"] == 7
    puzzle = tmp_path / "p.yaml"
    puzzle.write_text("kind: ladder\nstart: cold\ntarget: warm\n", encoding="utf-8")
    assert [s.kind for s in cpwords.load(puzzle)] == [cpwords.loads(puzzle.read_text()).kind] == ["ladder"]


# ---------------------------------------------------------------- specs: the gate every field passes (B1, B2, E16)


@pytest.mark.parametrize(("spec", "field", "words"), [
    ({"kind": "word_grid", "task": "puzzle", "count": 1, "par": math.nan}, "par", NOT_FINITE),  # B1
    ({**LADDER, "time_limit": math.nan}, "time_limit", NOT_FINITE),  # B1
    ({**LADDER, "time_limit": math.inf}, "time_limit", NOT_FINITE),  # B3: solved with Infinity
    ({**LADDER, "seed": math.inf}, "seed", NOT_FINITE),  # B1
    ({"kind": "ladder", "start": "cold", "target": -math.inf}, "target", NOT_FINITE),  # B1
    ({**LADDER, "time_limit": "nan"}, "time_limit", "finite"),  # text that reads as NaN
    ({**LADDER, "seed": "123456789012345678901234"}, "seed", "too large"),  # digits past 2**53
    ({"kind": "spelling_bee", "letters": "\ud83dabcdef", "center": "\ud83d"}, "letters", SURROGATE),  # B2
    ({"kind": "ladder", "start": "\ud800", "target": "warm"}, "start", SURROGATE),  # B2
    ({"kind": "letter_boxed", "sides": ["\ud800ab", "cde", "fgh"]}, "sides[0]", SURROGATE),  # B2
    ({**LADDER, "title": "\udfff"}, "title", SURROGATE),  # B5's title, refused where it comes in
    ({**LADDER, "dictionary": {"words": ["cold", "\ud800"]}}, "dictionary.words[1]", SURROGATE),
    ({"kind": "spelling_bee", "task": [None, None], "min_word_length": 4}, "task", "Input should be"),  # E16: 500
    ({"kind": "letter_boxed", "task": ["count"]}, "task", "Input should be"),
])
def test_specs_pass_one_gate(spec: dict[str, Any], field: str, words: str) -> None:
    """The same refusal through every door: a mapping given to ``cpwords.solve``, the spec
    loader with files refused (what the server runs), and the YAML text of ``cpwords.loads``."""
    for call in (lambda: cpwords.solve(spec), lambda: parse_spec(spec, source="spec", allow_files=False)):
        error = refused(call)
        assert error.field == field and words in error.message, error.one_line()


@pytest.mark.parametrize(("yaml_text", "field"), [
    ("kind: ladder\nstart: cold\ntarget: warm\nseed: .nan\n", "seed"),  # B1's YAML bodies
    ("kind: ladder\nstart: cold\ntarget: .inf\n", "target"),
    ("kind: ladder\nstart: cold\ntarget: warm\ntime_limit: .inf\n", "time_limit"),
    ("kind: ladder\nstart: cold\ntarget: warm\ntime_limit: 1e400\n", "time_limit"),
    ('kind: ladder\nstart: cold\ntarget: warm\ntitle: "\\ud800"\n', "title"),  # B5's file
])
def test_yaml_is_gated_the_same_way(yaml_text: str, field: str) -> None:
    error = refused(lambda: cpwords.loads(yaml_text))
    assert error.field == field and error.line is not None, error.one_line()


def test_an_escaped_surrogate_pair_is_the_character_it_spells() -> None:
    """JSON written by Python's ``json.dumps`` escapes an emoji as two halves, which YAML (a
    superset of JSON) reads as two lone surrogates: the gate joins them, and the title prints."""
    spec = cpwords.loads('{"kind": "ladder", "start": "cold", "target": "warm", "title": "\\ud83d\\ude00 ok"}')
    assert spec.title == "\U0001f600 ok"


def test_the_gate_keeps_large_word_lists_cheap_and_unchanged() -> None:
    words = [f"w{'a' * (i % 7)}" for i in range(20_000)]
    spec = parse_spec({**LADDER, "dictionary": {"words": words}})
    assert spec.dictionary.words == words


# ---------------------------------------------------------------- the schema (E16)


def test_the_published_schema_makes_kind_the_required_discriminator() -> None:
    """E16: the body schema a client is generated from selects the spec by ``kind``, which every
    kind's schema requires (a client that leaves it out forms no valid request), and bounds
    every integer as the gate does."""
    schema = json_schema()
    kinds = list(cpwords.puzzles.kinds())
    assert schema["discriminator"]["propertyName"] == "kind"
    assert sorted(schema["discriminator"]["mapping"]) == sorted(kinds)
    for ref in schema["oneOf"]:
        member = schema["$defs"][ref["$ref"].rsplit("/", 1)[1]]
        assert member["required"][0] == "kind", member["title"]
        for name, prop in member["properties"].items():
            for option in [prop, *prop.get("anyOf", [])]:
                if option.get("type") == "integer":
                    assert option["maximum"] <= 2**53 - 1 and option["minimum"] >= -(2**53 - 1), name


# ---------------------------------------------------------------- the server (B1, B2, B3, E16, N28)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    pytest.importorskip("fastapi", reason="cpwords serve needs the serve extra")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from cpwords.server import ServerConfig, create_app

    # raise_server_exceptions=False: a 500 is an answer to look at, not an exception in the test
    with TestClient(create_app(ServerConfig(workers=1, max_time=HANG_S)), raise_server_exceptions=False) as c:
        yield c


def refusal(response: Any, field: str | None) -> dict[str, Any]:
    """A 422 in strict JSON (what a browser's JSON.parse reads), naming ``field``."""
    assert response.status_code == 422, (response.status_code, response.text)
    assert response.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = strict_json(response.text)
    assert body["field"] == field and "\n" not in body["error"], body
    return body


@pytest.mark.parametrize(("body", "field"), [
    ('{"kind":"word_grid","task":"puzzle","count":1,"par":NaN}', "par"),  # B1: 500
    ('{"kind":"word_grid","task":"puzzle","count":1,"par":1e400}', "par"),  # B1: 500
    ('{"kind":"ladder","start":"cold","target":"warm","time_limit":NaN}', "time_limit"),  # B1
    ('{"kind":"ladder","start":"cold","target":"warm","seed":Infinity}', "seed"),  # B1
    ('{"kind":"ladder","start":"cold","target":-Infinity}', "target"),  # B1
    ('{"kind":"ladder","start":"cold","target":"warm","time_limit":1e400}', "time_limit"),  # B3: 200, Infinity
    ('{"kind":"spelling_bee","letters":"\\ud83dabcdef","center":"\\ud83d"}', "letters"),  # B2: 500
    ('{"kind":"ladder","start":"\\ud800","target":"warm"}', "start"),  # B2: 500
    ('{"kind":"spelling_bee","letters":"abcdefg","center":"\\udfff"}', "center"),  # B2
    ('{"kind":"letter_boxed","sides":["\\ud800ab","cde","fgh"]}', "sides[0]"),  # B2
    ('{"kind":"ladder","start":"cold","target":"warm","titl\\ud800":1}', "titl\\ud800"),  # a key: escaped
    ('{"kind":"spelling_bee","task":[null,null],"min_word_length":4,"puzzles":5,"avoid":"s"}', "task"),  # E16
])
@pytest.mark.parametrize("path", ["/api/solve", "/api/jobs"])
def test_the_server_refuses_with_strict_json(client: Any, path: str, body: str, field: str) -> None:
    response = client.post(path, content=body.encode(), headers={"Content-Type": "application/json"})
    refusal(response, field)


@pytest.mark.parametrize(("yaml_text", "field"), [
    ("kind: ladder\nstart: cold\ntarget: warm\nseed: .nan\n", "seed"),  # B1: 500
    ("kind: ladder\nstart: cold\ntarget: .inf\n", "target"),  # B1: 500
])
def test_yaml_bodies_too(client: Any, yaml_text: str, field: str) -> None:
    response = client.post("/api/solve", content=yaml_text.encode(), headers={"Content-Type": "application/yaml"})
    assert refusal(response, field)["line"] is not None


def test_a_refused_file_is_named_plainly(client: Any) -> None:
    """N28/E10: the value is the name as given (not ``PosixPath('/etc/passwd')``), and the message
    offers what the field takes: a shipped shape (an inline shape is not one), or a built-in
    dictionary or inline words."""
    body = refusal(client.post("/api/solve", json={"kind": "word_grid", "shape": "/etc/passwd"}), "shape")
    assert body["value"] == "/etc/passwd" and "PosixPath" not in body["error"]
    assert "shipped shape" in body["message"] and "inline" not in body["message"]
    inline = refusal(client.post("/api/solve", json={"kind": "word_grid", "shape": {"rows": ["...", "...", "..."]}}),
                     "shape")
    assert "inline" not in inline["message"]
    dictionary = refusal(client.post("/api/solve", json={**LADDER, "dictionary": {"path": "/etc/passwd"}}),
                         "dictionary.path")
    assert dictionary["value"] == "/etc/passwd" and "inline" in dictionary["message"]


def test_a_body_that_passes_the_gate_is_answered_in_strict_json(client: Any) -> None:
    response = client.post("/api/solve", json={**LADDER, "title": "\U0001f600", "time_limit": 1e300})
    assert response.status_code == 200, response.text
    answer = strict_json(response.text)
    assert answer["result"]["status"] == "optimal" and answer["spec"]["title"] == "\U0001f600"


def test_the_openapi_body_is_the_published_schema(client: Any) -> None:
    """E16: ``/api/solve`` and ``/api/jobs`` take what ``cpwords schema`` prints: one schema per
    kind, ``kind`` the discriminator, required in each."""
    document = strict_json(client.get("/openapi.json").text)
    published = json_schema(ref_template="#/components/schemas/{model}")
    components = document["components"]["schemas"]
    for path in ("/api/solve", "/api/jobs"):
        body = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert components[body["$ref"].rsplit("/", 1)[1]] == {k: v for k, v in published.items() if k != "$defs"}
    for name, member in published["$defs"].items():
        assert components[name] == member
    # every example spec is a valid body by the document: a client built from it can send them
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    standalone = {**published, "$defs": published["$defs"]}
    validator = jsonschema_rs.validator_for(json.loads(json.dumps(standalone).replace("#/components/schemas/",
                                                                                        "#/$defs/")))
    for example in sorted(EXAMPLES.glob("*.yaml")):
        for document in yaml.safe_load_all(example.read_text(encoding="utf-8")):
            assert validator.is_valid(json.loads(json.dumps(document, default=str))), example.name


# ---------------------------------------------------------------- the command line (B4, B5, D1, E11)


class Zeros(io.RawIOBase):
    """A stand-in for ``/dev/zero`` that ends after ``size`` bytes and counts what was read."""

    def __init__(self, size: int) -> None:
        self.left, self.read_bytes = size, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self.left)
        buffer[:n] = bytes(n)
        self.left -= n
        self.read_bytes += n
        return n


def test_stdin_is_read_with_the_files_cap(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """D1: ``cpwords solve - < /dev/zero`` grew to 5.3 GB; stdin is read as a file is, capped."""
    zeros = Zeros(16 * MAX_FILE_BYTES)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(zeros)))
    assert main(["solve", "-"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("cpwords: error: <stdin>: ") and "larger than 4 MiB" in line, line
    assert zeros.read_bytes <= MAX_FILE_BYTES + 2 * io.DEFAULT_BUFFER_SIZE


def test_a_closed_stdin_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """B4: ``cpwords solve - <&-`` (Python's stdin is then None) was an AttributeError traceback."""
    monkeypatch.setattr(sys, "stdin", None)
    assert main(["solve", "-"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("cpwords: error: <stdin>: standard input is closed"), line


def test_stdin_is_decoded_as_a_file_is(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("kind: ladder\nstart: cold\n".encode("utf-16"))))
    assert main(["solve", "-"]) == 2
    assert "UTF-16" in capsys.readouterr().err


def test_unencodable_text_is_printed_escaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """B5: printing a title the output cannot encode was a traceback in ``output.emit`` and lost
    the answer; it is printed escaped, the answer after it."""
    puzzle = tmp_path / "cafe.yaml"
    puzzle.write_text("kind: ladder\nstart: cold\ntarget: warm\ntitle: café ★\n", encoding="utf-8")
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["solve", str(puzzle)]) == 0
    out.flush()
    text = out.buffer.getvalue().decode("ascii")  # type: ignore[attr-defined]
    assert "caf\\xe9 \\u2605" in text and "cold -> warm" in text and "optimal" in text, text


def test_unencodable_text_as_a_user_runs_it(tmp_path: Path) -> None:
    """B5 through a real process whose output is ASCII, and B4's closed stdin, as a user runs them."""
    puzzle = tmp_path / "cafe.yaml"
    puzzle.write_text("kind: ladder\nstart: cold\ntarget: warm\ntitle: café\n", encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    run = subprocess.run([sys.executable, "-m", "cpwords", "solve", str(puzzle)], capture_output=True,
                         env=env, timeout=HANG_S, check=False)
    assert run.returncode == 0 and b"caf\\xe9" in run.stdout and b"Traceback" not in run.stderr, run.stderr
    closed = subprocess.run([sys.executable, "-m", "cpwords", "solve", "-"], capture_output=True, text=True,
                            timeout=HANG_S, check=False, preexec_fn=lambda: os.close(0))
    assert closed.returncode == 2 and closed.stderr.count("\n") == 1 and "standard input is closed" in closed.stderr


def test_a_surrogate_title_in_a_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """B5's file (``title: "\\ud800"``): no traceback; the gate names the file, line and field."""
    puzzle = tmp_path / "sur.yaml"
    puzzle.write_text('kind: ladder\nstart: cold\ntarget: warm\ntitle: "\\ud800"\n', encoding="utf-8")
    assert main(["solve", str(puzzle)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert f"{puzzle}:4: field 'title'" in line and SURROGATE in line, line


def test_serve_names_the_bounds_of_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    """E11: ``--max-memory 9223372036854775808`` said only "from 256"; the upper bound is named."""
    assert main(["serve", "--max-memory", "9223372036854775808"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "'--max-memory'" in line and "from 256 to 1,099,511,627,776" in line, line
    assert main(["serve", "--max-time", "1e7"]) == 2
    assert "below 1,000,000" in capsys.readouterr().err


def test_the_cli_still_names_its_options_for_cluster_errors(capsys: pytest.CaptureFixture[str]) -> None:
    """N15's other side: the API names ``cluster``; the command line names ``--cluster``."""
    assert main(["ladder", "cold", "warm", "--cluster", "local:abc"]) == 2
    assert "field '--cluster'" in capsys.readouterr().err
