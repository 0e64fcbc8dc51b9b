"""``cpwords serve`` with the Italian, Spanish, German and French dictionaries: the JSON API solves
boards and looks words up in their alphabets (through the ASGI test client, with real worker
processes), the pages offer the languages, and a browser types a Spanish board with ñ.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

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
    with TestClient(create_app(ServerConfig(workers=1, max_time=30))) as c:
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


def test_ruzzle_boards_in_three_languages(client: TestClient) -> None:
    for language, rows, wanted in (("italian", ["casa", "mare", "sole", "vino"], {"casa", "mare", "sole", "vino"}),
                                   ("spanish", ["NIÑO", "gato", "casa", "pera"], {"niño", "gato"}),
                                   ("german", ["über", "haus", "land", "zeit"], {"über", "haus"})):
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


# ---------------------------------------------------------------- a browser (skips without Chromium)

from test_server_browser import browser, by_id, css, no_errors, open_page, server, until  # noqa: E402, F401


def test_a_spanish_board_typed_in_the_browser(server: str, browser: Any) -> None:  # noqa: F811 (fixtures)
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    open_page(browser, f"{server}/kind/ruzzle", "#tiles input")
    Select(by_id(browser, "dictionary")).select_by_value("german")
    by_id(browser, "ruzzle-random").click()  # random letters by German letter frequencies
    assert all(t.get_attribute("value") in {*"abcdefghijklmnoprstuvwzäöü", "qu"} for t in css(browser, "#tiles input"))
    Select(by_id(browser, "dictionary")).select_by_value("spanish")
    for tile in css(browser, "#tiles input"):
        browser.execute_script("arguments[0].value = ''", tile)
    by_id(browser, "tile-1-1").click()
    ActionChains(browser).send_keys("niñogatocasapera").perform()
    assert [t.get_attribute("value") for t in css(browser, "#tiles input")] == list("niñogatocasapera")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    until(browser, lambda d: css(d, "#word-list button"), timeout=60)
    words = {b.get_attribute("data-word") for b in css(browser, "#word-list button")}
    assert {"niño", "gato", "casa", "pera"} <= words
    no_errors(browser)


def test_random_english_boggle_board_is_rolled_from_the_dice(server: str, browser: Any) -> None:  # noqa: F811
    from selenium.webdriver.support.ui import Select

    from cpwords.puzzles.ruzzle.dice import load_dice, rollable

    open_page(browser, f"{server}/kind/ruzzle", "#tiles input")
    Select(by_id(browser, "scoring")).select_by_value("boggle")
    for size, name in (("4", "boggle-new"), ("5", "big-boggle")):
        Select(by_id(browser, "size")).select_by_value(size)
        until(browser, lambda d, n=int(size): len(css(d, "#tiles input")) == n * n)
        dice = load_dice(name)
        for _ in range(3):
            before = [t.get_attribute("value") for t in css(browser, "#tiles input")]
            by_id(browser, "ruzzle-random").click()
            until(browser, lambda d, b=before: [t.get_attribute("value") for t in css(d, "#tiles input")] != b)
            flat = [t.get_attribute("value") for t in css(browser, "#tiles input")]
            board = [flat[r * dice.cols:(r + 1) * dice.cols] for r in range(dice.rows)]
            assert rollable(dice, board), board
    no_errors(browser)
