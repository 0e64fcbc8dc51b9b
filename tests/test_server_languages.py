"""``cpwords serve`` with the Italian, Spanish, German and French dictionaries: the JSON API solves
boards and looks words up in their alphabets (through the ASGI test client, with real worker
processes) and the pages offer the languages. (A browser types a Spanish board with ñ in
tests/test_server_browser.py, which shares one server and one browser among its tests.)
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from pace import HANG_S

pytest.importorskip("fastapi", reason="cpwords serve needs the serve extra (fastapi, uvicorn)")

with warnings.catch_warnings():  # newer Starlette asks for httpx2 in its test client; httpx still works
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from cpwords import puzzles, verify
from cpwords.puzzles.loading import parse_spec
from cpwords.results import Result
from cpwords.server import ServerConfig, create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The app with one worker; the server's time limit is a hang guard (no solve is about it)."""
    with TestClient(create_app(ServerConfig(workers=1, max_time=HANG_S))) as c:
        yield c


def solve(client: TestClient, spec: dict[str, Any]) -> dict[str, Any]:
    """POST a spec; the answer is re-checked by the kind's checker."""
    response = client.post("/api/solve", json=spec)
    assert response.status_code == 200, response.text
    answer = response.json()
    result = Result.model_validate({**answer["result"], "solutions": []})
    assert result.status in ("optimal", "feasible"), answer["result"].get("message")
    checked = parse_spec(spec)  # as sent (the echoed spec lists every field, defaults included)
    kind_solution = puzzles.get(checked.kind).solution_class()
    solutions = [kind_solution.model_validate(s) for s in answer["result"]["solutions"]]
    for s in solutions:
        assert verify.check_solution(checked, s) == [], s
    return answer


@pytest.mark.parametrize(("language", "rows", "wanted"), [
    ("spanish", ["NIÑO", "gato", "casa", "pera"], {"niño", "gato"}),  # a letter outside a-z, typed in capitals
    # The same for each other language: the sweep.
    pytest.param("italian", ["casa", "mare", "sole", "vino"], {"casa", "mare", "sole", "vino"}, marks=pytest.mark.sweep),
    pytest.param("german", ["über", "haus", "land", "zeit"], {"über", "haus"}, marks=pytest.mark.sweep),
])
def test_ruzzle_boards_in_three_languages(language: str, rows: list[str], wanted: set[str], client: TestClient) -> None:
    answer = solve(client, {"kind": "ruzzle", "grid": rows, "dictionary": language, "bonuses": "ruzzle-4x4"})
    assert wanted <= {s["word"] for s in answer["result"]["solutions"]}


def test_other_kinds_in_other_alphabets(client: TestClient) -> None:
    boxed = solve(client, {"kind": "letter_boxed", "sides": ["ñat", "ocr", "sie", "dlm"], "dictionary": "es"})
    assert "ñ" in "".join(boxed["result"]["solutions"][0]["words"])
    # The 39,095 most common German words: the first ladder of a dictionary builds its index.
    ladder = solve(client, {"kind": "ladder", "start": "über", "target": "aber",
                            "dictionary": {"name": "de", "max_level": 35}})
    assert ladder["result"]["solutions"][0]["words"] == ["über", "aber"]
    bee = solve(client, {"kind": "spelling_bee", "letters": "übernat", "dictionary": "german"})
    assert bee["result"]["count"] > 0


def test_letters_outside_the_alphabet_are_a_422_with_the_cli_line(client: TestClient) -> None:
    response = client.post("/api/solve", json={"kind": "ruzzle", "grid": ["niño", "gato", "casa", "pera"]})
    assert response.status_code == 422
    body = response.json()
    assert body["field"] == "grid" and "holds 'ñ'; use letters a-z only" in body["error"]
    assert "\n" not in body["error"] and "Traceback" not in response.text


def test_word_facts_in_a_language(client: TestClient) -> None:
    facts = client.get("/api/dict/es/Niño").json()
    assert facts["word"] == "niño" and facts["in_dictionary"] and facts["ladder_group"]["size"] > 100
    italian = client.get("/api/dict/italian/Mare").json()
    assert italian["word"] == "mare" and italian["in_dictionary"] and italian["definitions"] == []  # not a mare
    assert client.get("/api/dict/italian/Città").json()["word"] == "citta"
    refused = client.get("/api/dict/spanish/c0sa")
    assert refused.status_code == 422 and "letters a-z and ñ" in refused.json()["error"]
    assert client.get("/api/dict/scowl-70/niño").status_code == 422


def test_pages_offer_the_languages(client: TestClient) -> None:
    for page in ("ruzzle", "ladder", "letter_boxed", "spelling_bee"):
        html = client.get(f"/kind/{page}").text
        for language in ("italian", "spanish", "german", "french"):
            assert f'<option value="{language}">' in html, (page, language)
    assert all("[A-Za-z]" not in client.get(f"/kind/{page}").text for page in ("ladder", "letter_boxed", "spelling_bee"))
