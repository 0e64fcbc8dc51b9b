"""The web pages' "Make a puzzle" (word grid) and "Make a ladder puzzle" (ladder): the specs the
pages send solve through the JSON API with everything the pages show (the browser tests drive the
buttons themselves where Chromium is installed)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest
from pace import HANG_S

pytest.importorskip("fastapi", reason="cpwords serve needs the serve extra (fastapi, uvicorn)")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from cpwords.lexicon.exclude import offensive_words
from cpwords.server import ServerConfig, create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The app with one worker; the server's time limit is a hang guard (no solve is about it)."""
    with TestClient(create_app(ServerConfig(workers=1, max_time=HANG_S))) as c:
        yield c


def test_pages_offer_the_buttons(client: TestClient) -> None:
    grid = client.get("/kind/word_grid").text
    assert 'id="grid-puzzle"' in grid and 'id="par"' in grid
    assert "puzzle-reveal" in client.get("/pages/word_grid.js").text
    ladder = client.get("/kind/ladder").text
    assert 'id="ladder-puzzle"' in ladder and 'id="puzzle-par"' in ladder
    assert 'mode: "generate"' in client.get("/pages/ladder.js").text


def test_word_grid_puzzle_as_the_page_asks(client: TestClient) -> None:
    response = client.post("/api/solve?pictures=true", json={"kind": "word_grid", "shape": "gridle-5x5",
                                                              "task": "puzzle", "seed": 11, "par": 6})
    assert response.status_code == 200, response.text
    result = response.json()["result"]
    sol = result["solutions"][0]
    assert result["status"] == "optimal" and sol["par"] == 6 and len(sol["swaps"]) == 6
    assert len(sol["colors"]) == 5 and sol["difficulty"]["level"] in ("easy", "medium", "hard")
    assert result["stats"]["uniqueness"]["engine"] == "cpsat"
    banned = offensive_words()
    assert not any(w in banned for w in sol["words"])


def test_ladder_puzzle_as_the_page_asks(client: TestClient) -> None:
    response = client.post("/api/solve", json={"kind": "ladder", "mode": "generate", "length": 4, "par": 4,
                                               "seed": 11})
    assert response.status_code == 200, response.text
    sol = response.json()["result"]["solutions"][0]
    assert len(sol["words"]) == 5 and sol["steps"] == 4 and sol["ladders"] >= 1 and sol["difficulty"]["level"]
