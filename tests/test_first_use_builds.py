"""A dictionary's one-time builds answer to the run's time limit (issue 24, items 3 and 6).

The first use of a dictionary builds its index (the ladder's links and groups, Ruzzle's trie and
scoring tables, Letter Boxed's letter masks, the prefix/suffix tokens) and keeps it in the disk
cache. Each stage of a build looks at the run's budget: once it is stopped, or a quarter of a second past
its deadline, the build ends and the result says, in the user's words, what was being built.
These tests stop the budget before the run starts, so the first stage of a build on a word list
nobody has used yet is where the run must end: no timing involved.
"""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpwords
from cpwords.engines.budget import BUILD_GRACE_S, Budget, BuildStopped, build_checkpoint, builds_within
from cpwords.puzzles.letter_boxed.words import letter_masks
from cpwords.puzzles.loading import parse_spec


def _fresh_list(folder: Path, seed: int) -> Path:
    """A word list no other test uses (its content hash, so every cache, is its own)."""
    rng = random.Random(seed)
    words = {"cold", "cord", "word", "warm", "ward", "card", "core", "wore", "worm", "ware"}
    while len(words) < 3000:
        words.add("".join(rng.choice("etaoinsrhldcumwpgfy") for _ in range(rng.randint(3, 7))))
    path = folder / f"words-{seed}.txt"
    path.write_text("\n".join(sorted(words)) + "\n")
    return path


SPECS = {
    "the ladder index": {"kind": "ladder", "start": "cold", "target": "warm"},
    "the Ruzzle trie": {"kind": "ruzzle", "grid": ["cold", "warm", "rest", "dine"]},
    "the Letter Boxed word table": {"kind": "letter_boxed", "sides": ["cod", "lwa", "rmi", "etn"]},
    "the prefix/suffix token table": {"kind": "prefix_suffix_board", "seed": 1},
    "the Spelling Bee word table": {"kind": "spelling_bee", "letters": "coldwar", "center": "c"},
}


@pytest.mark.parametrize("what", sorted(SPECS))
def test_a_stopped_run_ends_in_the_build_and_says_what_it_was_building(what: str, tmp_path: Path) -> None:
    words = _fresh_list(tmp_path, seed=sorted(SPECS).index(what) + 100)
    spec = parse_spec({**SPECS[what], "dictionary": {"path": str(words)}})
    budget = Budget(None)
    budget.stop("interrupted")
    result = cpwords.solve(spec, budget=budget)
    assert result.status == "unknown", (result.status, result.message)
    assert result.message is not None and f"while {what} of" in result.message, result.message
    assert "was being built" in result.message and result.stats["stopped"] == "interrupted"
    assert result.solutions == []
    # Without the stop, the same dictionary builds and answers (nothing half-built was kept).
    again = cpwords.solve(spec)
    assert again.status != "unknown" and "being built" not in (again.message or ""), again.message
    assert cpwords.verify.check(spec, again) == []


def test_a_build_gets_its_grace_past_the_deadline_then_stops() -> None:
    budget = Budget(0.0)
    with builds_within(budget):
        build_checkpoint("the trie of a list")  # at the deadline: within the grace, the build goes on
        budget.deadline = budget.deadline - BUILD_GRACE_S - 0.01  # type: ignore[operator]
        with pytest.raises(BuildStopped) as stopped:
            build_checkpoint("the trie of a list")
    assert stopped.value.message.startswith("the time limit was reached while the trie of a list was being built")
    build_checkpoint("the trie of a list")  # outside a run: builds are free


def test_letter_masks_agree_with_a_plain_loop() -> None:
    rng = random.Random(5)
    index = {ch: i for i, ch in enumerate("abcdefghijklmnopqrstuvwxyzäöü")}
    words = ["".join(rng.choice(list(index)) for _ in range(rng.randint(0, 9))) for _ in range(2000)]
    masks, lengths = letter_masks(words, index)
    for word, mask, length in zip(words, masks.tolist(), lengths.tolist(), strict=True):
        assert mask == sum({1 << index[ch] for ch in word}) and length == len(word)


def test_a_build_the_limit_stopped_goes_on_in_the_background_and_the_next_run_answers(tmp_path: Path) -> None:
    """As a user runs it: the first run of a big list at a tiny limit stops in a one-time build
    and hands it to a detached process; once that has ended, the next run answers from the cache,
    building nothing (without it, every run would stop in the same place). The first run's limit
    (a hundredth of a second) is far shorter than the build on any machine; the next run has no
    limit, and the cache folder shows that it built nothing."""
    import json
    import os

    from pace import big_word_list, run_cpwords, running, wait_until

    path = big_word_list(tmp_path / "big.txt", words=100_000)  # its index takes about a second to build
    cache = tmp_path / "cache"
    env = {**os.environ, "CPWORDS_CACHE_DIR": str(cache), "CPWORDS_NO_BACKGROUND_BUILDS": ""}
    argv = ["ladder", "cold", "warm", "--dict", str(path), "--json"]
    first = run_cpwords([*argv, "--time-limit", "0.01"], env=env)
    assert first.returncode == 1 and first.stderr == "", first.stderr
    stopped = json.loads(first.stdout)
    pid = stopped["stats"]["background_build_pid"]
    assert stopped["status"] == "unknown" and "goes on in the background" in stopped["message"], stopped["message"]
    try:
        wait_until(lambda: not running(pid), "the background build")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)

    def files() -> dict[str, int]:
        return {str(p.relative_to(cache)): p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()}

    built = files()
    assert built, "the background build kept nothing"
    second = run_cpwords(argv, env=env)
    answered = json.loads(second.stdout)
    assert second.returncode == 0 and answered["status"] == "optimal", answered["message"]
    assert answered["solutions"][0]["words"][0] == "cold" and "background_build_pid" not in answered["stats"]
    assert files() == built  # answered from the cache: nothing built, nothing written


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöüñé", min_size=0, max_size=9), max_size=300),
       min_length=st.integers(1, 5), language=st.sampled_from(["english", "german"]))
def test_the_spelling_bee_table_grouped_with_arrays_is_the_word_by_word_one(
        words: list[str], min_length: int, language: str) -> None:
    """Same groups, same order of masks and of words in each, same points (letters outside the
    alphabet, empty and short words, more than seven letters: all left out alike)."""
    from cpwords.alphabet import alphabet_of
    from cpwords.puzzles.spelling_bee import words as bee

    alphabet = alphabet_of(language)
    loop = bee.WordTable.build(words, min_length, alphabet=alphabet)  # a plain list: word by word
    grouped, points = bee._grouped_arrays(words, min_length, alphabet, None)
    assert grouped == loop.words and list(grouped) == list(loop.words) and points == loop.points


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="the cache's lock is POSIX flock")
def test_waiting_for_another_process_build_keeps_the_limit(tmp_path: Path) -> None:
    """Another process holds the build lock of an entry (it is building it): a run that needs
    the entry waits for it only until its own limit (and the grace), then says so."""
    import fcntl
    import os
    import time

    from cpwords.lexicon import Lexicon
    from cpwords.lexicon.cache import cache_path, cached

    lexicon = Lexicon.from_words(["cold", "cord", "word", "warm"])
    path = cache_path(lexicon, "test-entry", 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    holder = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(holder, fcntl.LOCK_EX)  # as a process building the entry holds it
    try:
        budget = Budget(0.2)
        t0 = time.monotonic()
        with builds_within(budget), pytest.raises(BuildStopped) as stopped:
            cached(lexicon, "test-entry", lambda: 1, version=1)
        assert time.monotonic() - t0 >= 0.2 + BUILD_GRACE_S  # it waited, then stopped
        assert stopped.value.elsewhere
        assert "another cpwords process was building the test entry" in stopped.value.message
    finally:
        os.close(holder)
    assert cached(lexicon, "test-entry", lambda: 2, version=1) == 2  # the lock is free: it builds


def test_every_hard_instance_of_the_sweep_reaches_the_background_builder_unchanged() -> None:
    """The detached builder re-reads the spec from its JSON: it must be the same spec (``limit:
    null`` is not the default limit), or it would build for another puzzle."""
    import json
    import sys

    from cpwords.background import payload

    sys.path.insert(0, str(Path(__file__).parent))
    from test_time_limits import CASES

    for case, fields in CASES.items():
        spec = parse_spec(fields)
        assert parse_spec(json.loads(payload(spec))).model_dump() == spec.model_dump(), case


def test_work_each_run_does_again_is_not_promised_to_be_kept() -> None:
    """Dropping the plurals of a big list is done again by every run: stopped, it says so, and it
    is not handed to a background build (nothing would be kept)."""
    budget = Budget(None)
    budget.stop("interrupted")
    with builds_within(budget), pytest.raises(BuildStopped) as stopped:
        build_checkpoint("the plural-free copy of big.txt", kept=False)
    assert not stopped.value.to_finish
    assert stopped.value.message.startswith("the run was interrupted while the plural-free copy of big.txt was being made")
    assert "kept in the cache" not in stopped.value.message
    with builds_within(budget), pytest.raises(BuildStopped) as waited:
        build_checkpoint("the ladder index", elsewhere=True)
    assert not waited.value.to_finish and "another cpwords process was building the ladder index" in waited.value.message


def test_a_stopped_build_crosses_process_boundaries() -> None:
    """A server worker or a forked solve hands the exception back pickled (it was a 500 once)."""
    import pickle

    stopped = BuildStopped("time_limit", "the trie of big.txt", kept=False)
    again = pickle.loads(pickle.dumps(stopped))
    assert (type(again), again.args, again.what, again.kept, again.message) == \
        (BuildStopped, ("time_limit",), "the trie of big.txt", False, stopped.message)
