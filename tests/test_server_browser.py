"""``cpwords serve`` for real: uvicorn on 127.0.0.1 on a free port, driven by headless Chromium.

Each page is used as a person would: type a puzzle (by keyboard), see the answer, click a Ruzzle
word and see its path, type a Spanish board with ñ, roll Boggle dice, step through unscramble swaps,
start and cancel a job, paste a YAML spec with ``<script>`` in it, and read every page at a phone's
width. One server and one browser serve the whole module (tests/test_server_languages.py's browser
tests are here for that reason). A screenshot of each page is saved; set
``CPWORDS_SCREENSHOTS=docs/screenshots`` to refresh the ones in the docs.

The browser tests skip, saying why, where Chromium or its driver is missing (CI installs Debian's
``chromium`` and ``chromium-driver``). The live HTTP tests (events as they happen, a client that
hangs up, a clean shutdown) need no browser.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pace import HANG_S, Stopwatch, wait_for_server, wait_until

from cpwords.server.config import STOP_GRACE_S

pytest.importorskip("uvicorn", reason="cpwords serve needs the serve extra (fastapi, uvicorn)")
httpx = pytest.importorskip("httpx")

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")) if p and
                 Path(p).exists()), None)
DRIVER = next((p for p in ("/usr/bin/chromedriver", shutil.which("chromedriver")) if p and Path(p).exists()), None)
CHROME_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync")
LONG_COUNT = {"kind": "prefix_suffix_board", "task": "count_boards", "dictionary": "common-20k"}
DESKTOP, PHONE = (1200, 900), (390, 844)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> set[int]:
    """Process ids of ``pid``'s children (Linux /proc), empty where that cannot be read."""
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out |= {int(c) for c in (task / "children").read_text().split()}
        except OSError:
            pass
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``python -m cpwords.server`` on a free port of 127.0.0.1; stopped (Ctrl-C) at the end,
    and its workers must be gone with it."""
    port = _free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with log.open("wb") as out:
        # No page's solve here is about the server's time limit: it only guards against a hang.
        proc = subprocess.Popen([sys.executable, "-m", "cpwords.server", "--port", str(port), "--workers", "2",
                                 "--max-time", f"{HANG_S:g}"], stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"

    try:
        wait_for_server(proc, log, base)
    except BaseException:
        proc.kill()
        raise
    workers = _children(proc.pid)
    yield base
    proc.send_signal(signal.SIGINT)
    try:
        assert proc.wait(HANG_S) == 0, log.read_text()
    finally:
        proc.kill()
    # The server reaps its workers before it exits; a worker it could not end would still run here.
    wait_until(lambda: not [pid for pid in workers if Path(f"/proc/{pid}").exists() and "Z" not in _state(pid)],
               f"the workers {sorted(workers)} to end with the server")


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()[0]
    except (OSError, IndexError):
        return "Z"


# ---------------------------------------------------------------- live HTTP, no browser


#: The clock's part of a cancel seen from a client: the worker's grace to stop through its budget
#: before it is killed (STOP_GRACE_S), plus the kill; and the processor work of the round trip.
CANCEL_WALL_S = STOP_GRACE_S + 0.3
CANCEL_CPU_S = 0.5


@pytest.mark.timing  # it bounds seconds: run alone (see pyproject.toml)
def test_events_arrive_while_the_job_runs(server: str) -> None:
    """Server-sent events arrive while a job runs (progress), and a cancel frees the worker within
    a second: the answer to DELETE comes when the job has ended."""
    job = httpx.post(f"{server}/api/jobs", json=LONG_COUNT).json()
    cancelled = False
    seen: list[dict[str, Any]] = []
    with httpx.stream("GET", f"{server}{job['events']}", timeout=HANG_S) as events:
        assert events.headers["content-type"].startswith("text/event-stream")
        assert events.headers["x-accel-buffering"] == "no"
        for line in events.iter_lines():
            if line.startswith("data: "):
                seen.append(json.loads(line[6:]))
            # Once: events sent before the cancel may still arrive after it.
            if seen and seen[-1]["status"] == "running" and seen[-1]["progress"] and not cancelled:
                cancelled = True
                with Stopwatch() as watch:
                    assert httpx.delete(f"{server}{job['url']}", timeout=HANG_S).json()["status"] == "cancelled"
                watch.assert_within(CANCEL_WALL_S, CANCEL_CPU_S, "DELETE of a running job")
            if seen and seen[-1]["status"] == "cancelled":
                break
    assert seen[-1]["status"] == "cancelled" and any(s["progress"] for s in seen)


@pytest.mark.timing  # it bounds seconds: run alone (see pyproject.toml)
def test_a_client_that_hangs_up_frees_its_worker(server: str) -> None:
    """A client that goes away cancels its solve: the server looks every DISCONNECT_CHECK_S and
    then frees the worker as a cancel does."""
    from cpwords.server.api import DISCONNECT_CHECK_S

    with pytest.raises(httpx.ReadTimeout):  # the client hangs up after a second
        httpx.post(f"{server}/api/solve", json=LONG_COUNT, timeout=1.0)
    with Stopwatch() as watch:
        wait_until(lambda: httpx.get(f"{server}/healthz", timeout=HANG_S).json()["busy"] == 0, "the worker to be free")
    watch.assert_within(DISCONNECT_CHECK_S + CANCEL_WALL_S, CANCEL_CPU_S, "a worker freed after its client left")


# ---------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None or DRIVER is None:
        pytest.skip("no Chromium or chromedriver here (Debian: apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in CHROME_FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="cpwords-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)  # never Selenium Manager
    driver.set_window_size(*DESKTOP)
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: $CPWORDS_SCREENSHOTS (e.g. docs/screenshots), else a temporary folder."""
    folder = os.environ.get("CPWORDS_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def shot(driver: Any, folder: Path, name: str, size: tuple[int, int] = DESKTOP) -> Path:
    """A screenshot of the whole page at ``size``'s width."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(size[0], max(size[1], min(height, 4000)))
    driver.execute_script("window.scrollTo(0, 0)")
    path = folder / f"{name}.png"
    driver.save_screenshot(str(path))
    driver.set_window_size(*size)
    assert path.stat().st_size > 10_000
    return path


def until(driver: Any, predicate: Any, timeout: float = HANG_S) -> Any:
    """Poll ``predicate`` until it gives something true (the timeout only stops a test that hangs)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # An answer replaces its elements while the predicate reads them: a stale element is read again.
    return WebDriverWait(driver, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: predicate(d))


def css(driver: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, selector)


def by_id(driver: Any, element_id: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element_id)


def open_page(driver: Any, url: str, ready: str) -> None:
    driver.set_window_size(*DESKTOP)
    driver.get(url)
    until(driver, lambda d: css(d, ready))


def picture_width(driver: Any, selector: str) -> int:
    """The natural width of the first image ``selector`` finds: 0 until the picture has loaded (an
    image decodes after it is put into the page, so a test waits for it rather than reading it once)."""
    return int(driver.execute_script("const i = document.querySelector(arguments[0]); return i ? i.naturalWidth : 0",
                                     selector) or 0)


def no_errors(driver: Any) -> None:
    """The page logged no script error (a CSP refusal or an exception would show here); 4xx answers
    the tests asked for on purpose are logged as network errors and do not count."""
    severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and e.get("source") != "network"]
    assert not severe, severe


def test_ladder_by_keyboard_with_definitions_and_no_ladder(server: str, browser: Any, shots: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    open_page(browser, f"{server}/kind/ladder", "#ladder-form")
    start = by_id(browser, "start")
    start.clear()
    start.send_keys("cold", Keys.TAB)
    browser.switch_to.active_element.send_keys(Keys.CONTROL, "a")
    browser.switch_to.active_element.send_keys("warm", Keys.ENTER)  # Enter submits: no mouse needed
    until(browser, lambda d: len(css(d, "section.ladder-box")) == 2)
    shortest = css(browser, 'section[data-mode="shortest"] .ladder-word')
    assert [w.text.lower() for w in shortest][0::len(shortest) - 1] == ["cold", "warm"]
    assert len(css(browser, 'section[data-mode="shortest"] mark')) == len(shortest) - 1  # one changed letter a step
    css(browser, 'section[data-mode="shortest"] ol.ladder button')[1].send_keys(Keys.ENTER)
    definition = until(browser, lambda d: css(d, ".definition ol li"))
    assert definition[0].text
    shot(browser, shots, "ladder")
    no_errors(browser)
    start = by_id(browser, "target")
    start.clear()
    start.send_keys("envy", Keys.ENTER)
    groups = until(browser, lambda d: css(d, "table.groups tbody tr"))
    assert "different groups" in css(browser, ".verdict")[0].text
    assert [r.text.split()[0] for r in groups] == ["COLD", "ENVY"] and groups[1].text.split()[-1] == "1"


def test_letter_boxed_solve_counts_and_generate(server: str, browser: Any, shots: Path) -> None:
    open_page(browser, f"{server}/kind/letter_boxed", "#box-form")
    by_id(browser, "box-solve").click()
    until(browser, lambda d: css(d, ".counts tbody tr"))
    assert "→" in css(browser, ".best .chain")[0].text
    until(browser, lambda d: picture_width(d, ".pictures img") > 100)  # the drawing loaded
    assert [r.text.split()[0] for r in css(browser, ".counts tbody tr")] == ["1", "2", "3"]
    assert len(css(browser, ".fewest li")) >= 1 and css(browser, "#downloads a")[0].get_attribute("download") == "letter_boxed.json"
    shot(browser, shots, "letter_boxed")
    before = [by_id(browser, f"side-{i}").get_attribute("value") for i in range(1, 5)]
    by_id(browser, "box-generate").click()
    until(browser, lambda d: any("A new puzzle" in v.text for v in css(d, ".verdict")))
    after = [by_id(browser, f"side-{i}").get_attribute("value") for i in range(1, 5)]
    assert after != before and all(len(side) == 3 for side in after)
    no_errors(browser)


def test_word_grid_unscramble_swaps_one_by_one(server: str, browser: Any, shots: Path) -> None:
    open_page(browser, f"{server}/kind/word_grid", "#grid-editor input")
    by_id(browser, "grid-example").click()
    by_id(browser, "grid-unscramble").click()
    until(browser, lambda d: css(d, "#swap-next"))
    steps = int(css(browser, ".unscramble h3")[0].text.split()[2])
    assert steps >= 1 and by_id(browser, "swap-back").get_attribute("disabled") is not None
    for k in range(1, steps + 1):
        by_id(browser, "swap-next").click()
        assert by_id(browser, "swap-label").text.startswith(f"Swap {k} of {steps}")
        assert len(css(browser, "#swap-board .swap")) == 2
    letters = "".join(c.text or "#" for c in css(browser, "#swap-board .cell")).lower()
    assert letters[:5] == "about" and letters[20:] == "nurse"
    shot(browser, shots, "word_grid")
    # Fill: the typed top row is kept and every other open cell gets a letter.
    by_id(browser, "grid-clear").click()
    for cell, letter in zip(css(browser, "#grid-editor input")[:5], "about", strict=True):
        cell.send_keys(letter)
    by_id(browser, "grid-fill").click()
    until(browser, lambda d: not css(d, "#answer .unscramble") and any("Words:" in h.text for h in css(d, "#answer .hint")))
    filled = [c.get_attribute("value").lower() for c in css(browser, "#grid-editor input")]
    assert "".join(filled[:5]) == "about" and all(len(v) == 1 for v in filled)
    no_errors(browser)


def test_word_grid_puzzle_and_reveal(server: str, browser: Any, shots: Path) -> None:
    """Make a puzzle: a coloured board with its par; Reveal steps through the proven-fewest swaps."""
    open_page(browser, f"{server}/kind/word_grid", "#grid-editor input")
    by_id(browser, "par").send_keys("6")
    by_id(browser, "grid-puzzle").click()
    until(browser, lambda d: css(d, "#puzzle-board .cell"))
    tiles = [c for c in css(browser, "#puzzle-board .cell") if "black" not in c.get_attribute("class")]
    assert len(tiles) == 21 and {t.get_attribute("data-color") for t in tiles} <= {"g", "y", "-"}
    assert css(browser, ".puzzle h3")[0].text.startswith("Par 6 swaps")
    assert not css(browser, "#swap-board")  # the answer stays hidden until asked for
    shot(browser, shots, "word_grid-puzzle")
    by_id(browser, "puzzle-reveal").click()
    until(browser, lambda d: css(d, "#swap-next"))
    for _ in range(6):
        by_id(browser, "swap-next").click()
    assert by_id(browser, "swap-label").text.endswith("solved.")
    no_errors(browser)


def test_ladder_puzzle_and_reveal(server: str, browser: Any) -> None:
    open_page(browser, f"{server}/kind/ladder", "#ladder-puzzle-form")
    par = by_id(browser, "puzzle-par")
    par.clear()
    par.send_keys("4")
    by_id(browser, "ladder-puzzle").click()
    until(browser, lambda d: css(d, "#puzzle-pair"))
    assert "→" in by_id(browser, "puzzle-pair").text and not css(browser, "section.ladder-box")
    by_id(browser, "puzzle-reveal").click()
    until(browser, lambda d: len(css(d, "section.ladder-box .ladder-word")) == 5)
    no_errors(browser)


@pytest.mark.timing  # it bounds seconds: run alone (see pyproject.toml)
def test_board_solve_and_a_count_job_cancelled(server: str, browser: Any, shots: Path) -> None:
    from selenium.webdriver.support.ui import Select

    open_page(browser, f"{server}/kind/prefix_suffix_board", "#slots input")
    by_id(browser, "board-solve").click()
    until(browser, lambda d: css(d, "ol.boards li"))
    assert by_id(browser, "slot-c").text.endswith("-") and "ways to fill" in css(browser, ".count")[0].text
    shot(browser, shots, "prefix_suffix_board")
    by_id(browser, "board-generate").click()
    until(browser, lambda d: css(d, "#board-reveal"))  # a new board: its suffixes in the slots
    until(browser, lambda d: picture_width(d, "#answer .pictures img") > 100)
    Select(by_id(browser, "dictionary")).select_by_value("common-20k")
    by_id(browser, "board-count").click()
    until(browser, lambda d: float(by_id(d, "job-progress").get_attribute("value") or 0) > 0)  # the bar moves
    assert " of " in by_id(browser, "job-text").text  # "Counting boards: counting boards (…), 12 of 367"
    shot(browser, shots, "prefix_suffix_board-job")
    with Stopwatch() as watch:
        by_id(browser, "job-cancel").click()
        until(browser, lambda d: not by_id(d, "job").is_displayed())
    # The worker's grace and kill are the clock's; the page's round trip (the click, DELETE, the
    # last event, drawing) is processor work.
    watch.assert_within(CANCEL_WALL_S, 1.0, "Cancel on the board page")
    assert "cancelled" in by_id(browser, "status").text
    no_errors(browser)


def test_ruzzle_typed_board_and_word_paths(server: str, browser: Any, shots: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    open_page(browser, f"{server}/kind/ruzzle", "#tiles input")
    for tile in css(browser, "#tiles input"):
        browser.execute_script("arguments[0].value = ''", tile)
    by_id(browser, "tile-1-1").click()
    ActionChains(browser).send_keys("ratesoniqulendtra").perform()  # the cursor moves on by itself
    typed = [t.get_attribute("value") for t in css(browser, "#tiles input")]
    assert typed == [*"ratesoni", "qu", *"lendtra"]
    ActionChains(browser).send_keys(Keys.ENTER).perform()  # Enter in a tile submits the board
    words = until(browser, lambda d: css(d, "#word-list button"))
    assert len(words) > 20
    for button in (words[0], words[5]):
        button.click()
        path = json.loads(button.get_attribute("data-path"))
        lit = [(int(t.get_attribute("data-r")), int(t.get_attribute("data-c"))) for t in css(browser, "#tiles input.on")]
        assert sorted(lit) == sorted(map(tuple, path))
        first_cell = css(browser, "#tiles input.first")[0]
        assert [int(first_cell.get_attribute("data-r")), int(first_cell.get_attribute("data-c"))] == path[0]
        assert button.get_attribute("aria-pressed") == "true"
    words[1].send_keys(Keys.ENTER)  # keyboard works on the words too
    assert words[1].get_attribute("aria-pressed") == "true" and words[0].get_attribute("aria-pressed") == "false"
    shot(browser, shots, "ruzzle")
    # The best-board search runs as a job with a progress bar; Cancel ends it. A search stopped
    # through its budget answers with the best board found so far (test_server_jobs.py checks that
    # answer); its worker has STOP_GRACE_S to give it, then is killed, which a busy machine can
    # need: the page shows what the job ended with. (The page's search scores 20,000 boards, about
    # a second here: a fast machine may finish it first.)
    by_id(browser, "ruzzle-best").click()
    until(browser, lambda d: " of " in by_id(d, "job-text").text)  # "…: hill climbing …, 0 of 100"
    browser.execute_script("arguments[0].click()", by_id(browser, "job-cancel"))  # (hidden if the job is over)
    until(browser, lambda d: not by_id(d, "job").is_displayed())
    status = by_id(browser, "status").text
    assert "error" not in by_id(browser, "status").get_attribute("class"), status
    board = [t.get_attribute("value") for t in css(browser, "#tiles input")]
    if "cancelled" not in status or "found so far" in status:  # its answer: a board and its words
        assert all(board) and css(browser, "#word-list button"), status
    no_errors(browser)


def test_a_spanish_board_typed_in_the_browser(server: str, browser: Any) -> None:
    """Random letters by a language's letter frequencies (German); a Spanish board typed with ñ
    by keyboard finds its Spanish words."""
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
    until(browser, lambda d: css(d, "#word-list button"))
    words = {b.get_attribute("data-word") for b in css(browser, "#word-list button")}
    assert {"niño", "gato", "casa", "pera"} <= words
    no_errors(browser)


def test_random_english_boggle_board_is_rolled_from_the_dice(server: str, browser: Any) -> None:
    """With Boggle scoring, Random rolls the dice of the board's size (4×4 and 5×5): every board
    shown is one the dice can roll."""
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


def test_spelling_bee_hive_words_ranks_and_generate(server: str, browser: Any, shots: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    open_page(browser, f"{server}/kind/spelling_bee", "#bee-form")
    assert len(css(browser, "#hive-preview svg.hive .hex")) == 7  # drawn as the letters are typed
    letters = by_id(browser, "letters")
    letters.clear()
    letters.send_keys("tlnpaci", Keys.TAB)  # then the centre, t, and Enter: by keyboard only
    browser.switch_to.active_element.send_keys(Keys.CONTROL, "a")
    browser.switch_to.active_element.send_keys("t", Keys.ENTER)
    until(browser, lambda d: css(d, ".bee-list li"))
    hexes = css(browser, "#answer svg.hive .hex")
    assert len(hexes) == 7 and [h.get_attribute("data-letter") for h in css(browser, "#answer svg.hive .hex.center")] == ["t"]
    words = [li.find_element("css selector", ".word").text for li in css(browser, ".bee-list li")]
    points = [int(li.find_element("css selector", ".points").text) for li in css(browser, ".bee-list li")]
    assert all("t" in w and set(w) <= set("tlnpaci") and len(w) >= 4 for w in words)
    pangrams = [li.find_element("css selector", ".word").text for li in css(browser, ".bee-list li.pangram")]
    assert pangrams and all(set(w) == set("tlnpaci") for w in pangrams)  # applicant
    for w, p in zip(words, points, strict=True):  # the game's scores, recomputed here
        assert p == (1 if len(w) == 4 else len(w)) + (7 if w in pangrams else 0)
    ranks = [r.text.split()[0] for r in css(browser, "table.ranks tbody tr")]
    assert ranks[0] == "Beginner" and css(browser, "table.ranks tbody tr")[-1].text.startswith("Queen Bee")
    assert css(browser, ".bee-summary")[0].text.startswith(f"{len(words)} words · {sum(points)} points")
    shot(browser, shots, "spelling_bee")
    by_id(browser, "bee-generate").click()
    until(browser, lambda d: any("A new hive" in v.text for v in css(d, ".verdict")))
    new_letters, new_center = by_id(browser, "letters").get_attribute("value"), by_id(browser, "center").get_attribute("value")
    assert len(set(new_letters)) == 7 and new_center in new_letters and "s" not in new_letters
    generated = [li.find_element("css selector", ".word").text for li in css(browser, ".bee-list li")]
    assert 20 <= len(generated) <= 60 and css(browser, ".bee-list li.pangram")
    from cpwords.lexicon import load_lexicon, offensive_words

    assert set(generated) <= set(load_lexicon("common-20k")) - offensive_words()
    no_errors(browser)


def test_yaml_spec_with_script_in_it_is_shown_as_text(server: str, browser: Any) -> None:
    open_page(browser, f"{server}/kind/letter_boxed", "#yaml-panel")
    css(browser, "#yaml-panel > summary")[0].click()
    hostile = "<img src=x onerror=window.__pwned=1><script>window.__pwned=2</script>"
    text = "kind: letter_boxed\ntitle: '" + hostile + "'\nsides: [lme, iuf, wcb, oas]\n"
    browser.execute_script("document.getElementById('yaml-text').value = arguments[0]", text)
    by_id(browser, "yaml-solve").click()
    title = until(browser, lambda d: css(d, ".verdict .title"))
    assert hostile in title[0].text
    assert browser.execute_script("return window.__pwned") is None
    browser.execute_script("document.getElementById('yaml-text').value = 'kind: ladder\\nstart: cold\\ntarget: warm\\ndictionary: {path: /etc/passwd}\\n'")
    by_id(browser, "yaml-solve").click()
    error = until(browser, lambda d: "error" in by_id(d, "status").get_attribute("class") and by_id(d, "status"))
    assert "files cannot be named" in error.text
    # A word with markup in it comes back in the error line, as text.
    solve_yaml(browser, "kind: ladder\nstart: '<script>window.__pwned=4</script>'\ntarget: warm\n")
    until(browser, lambda d: "__pwned=4" in by_id(d, "status").text)
    assert "<script>window.__pwned=4</script>" in by_id(browser, "status").text
    assert browser.execute_script("return window.__pwned") is None


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _kinds_without_pages() -> list[str]:
    """Registered kinds with no page description of their own: they get the generic YAML page."""
    from cpwords import puzzles
    from cpwords.server.config import PAGES_DIR

    return [k for k in puzzles.kinds() if not (PAGES_DIR / f"{k}.js").is_file()]


def _example_text(kind: str) -> str | None:
    import yaml

    for path in sorted(EXAMPLES.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        if "---" not in text and (yaml.safe_load(text) or {}).get("kind") == kind:
            return text
    from cpwords import puzzles

    return puzzles.get(kind).test_cases().EXAMPLE  # a kind users never see (the template)


def solve_yaml(driver: Any, text: str) -> None:
    """Put ``text`` into the YAML box (as a paste would) and press Solve."""
    driver.execute_script("document.getElementById('yaml-text').value = arguments[0]", text)
    by_id(driver, "yaml-solve").click()


@pytest.mark.parametrize("kind", [*_kinds_without_pages(), "-"])
def test_a_kind_without_a_page_of_its_own_solves_on_the_generic_page(kind: str, server: str, browser: Any) -> None:
    """A kind added to the registry without page files gets the generic page: its example solves
    there, with the verdict, the answers and the downloads (the template kind is one). And, ``-``,
    the generic view on another kind's page: a ladder spec solved on the Ruzzle page, with
    ``<script>`` in its title."""
    if kind == "-":
        open_page(browser, f"{server}/kind/ruzzle", "#yaml-panel")
        css(browser, "#yaml-panel > summary")[0].click()
        hostile = "<script>window.__pwned=3</script>"
        solve_yaml(browser, "kind: ladder\nmode: shortest\ntitle: '" + hostile + "'\nstart: cold\ntarget: warm\n"
                            "dictionary: {words: [cold, cord, card, ward, warm]}\n")
        rows = until(browser, lambda d: css(d, "#answer ol.generic li"))
        assert [r.text for r in rows] == ["cold cord card ward warm"]
        assert hostile in css(browser, ".verdict .title")[0].text
        assert browser.execute_script("return window.__pwned") is None
    else:
        text = _example_text(kind)
        if text is None:
            pytest.skip(f"no single-puzzle example of {kind} in examples/")
        open_page(browser, f"{server}/kind/{kind}", "#yaml-panel[open]")
        assert by_id(browser, "yaml-text").get_attribute("value").startswith(f"kind: {kind}")
        solve_yaml(browser, text)
        until(browser, lambda d: css(d, "#answer .verdict") or "error" in by_id(d, "status").get_attribute("class"))
        assert not css(browser, "#status.error"), by_id(browser, "status").text
        assert css(browser, "#downloads a")[0].get_attribute("download") == f"{kind}.json"
    no_errors(browser)


#: What each page's phone test does before it measures: what shows once the page's script has set
#: it up (boards drawn from the shipped shapes, its buttons' handlers added), the button it presses,
#: what then shows.
PHONE_ACTIONS = {"kind/ladder": ("#ladder-form", "ladder-solve", "section.ladder-box"),
                 "kind/letter_boxed": ("#box-form", "box-solve", ".counts"),
                 "kind/word_grid": ("#grid-editor input", "grid-generate", ".pictures img"),
                 "kind/prefix_suffix_board": ("#slots input", "board-solve", "ol.boards"),
                 "kind/ruzzle": ("#tiles input", "ruzzle-solve", "#word-list button"),
                 "kind/spelling_bee": ("#bee-form", "bee-solve", ".bee-list li")}


#: The pages the README's command measures: the index and the Ruzzle page (a board and a list of
#: words side by side on a desktop); every other page is measured by the sweep.
PHONE_PAGES = ("", "kind/ruzzle")


def _all_pages() -> list[Any]:
    """The index and every registered kind's page (a kind added later is measured too)."""
    from cpwords import puzzles

    pages = ["", *(f"kind/{kind}" for kind in puzzles.kinds())]
    return [page if page in PHONE_PAGES else pytest.param(page, marks=pytest.mark.sweep) for page in pages]


@pytest.mark.parametrize("page", _all_pages())
def test_every_page_fits_a_phone(page: str, server: str, browser: Any, shots: Path) -> None:
    browser.set_window_size(*PHONE)
    browser.get(f"{server}/{page}")
    until(browser, lambda d: d.execute_script("return document.readyState") == "complete")
    if page in PHONE_ACTIONS:
        ready, button, answer = PHONE_ACTIONS[page]
        until(browser, lambda d: css(d, ready) and by_id(d, button).is_enabled())
        by_id(browser, button).click()
        until(browser, lambda d: css(d, answer))
        if page == "kind/ruzzle":
            css(browser, "#word-list button")[0].click()
    overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{page or 'index'} is {overflow} px wider than a phone"
    name = page.removeprefix("kind/") or "index"
    shot(browser, shots, f"{name}-phone", PHONE)
    browser.set_window_size(*DESKTOP)
    if not page:
        browser.get(f"{server}/")
        shot(browser, shots, "index")
    no_errors(browser)
