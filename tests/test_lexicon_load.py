"""A big user word list loads with numpy (cpwords.lexicon.plain), gives exactly the lexicon the
word-by-word path gives, is cached as one flat file, and keeps the solve's time limit."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import warnings
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pace import HANG_S

import cpwords
from cpwords.alphabet import ENGLISH
from cpwords.engines.budget import Budget, BuildStopped, builds_within
from cpwords.lexicon import LexiconWarning, builtin, load_lexicon, plain, sources, wordfile
from cpwords.lexicon.core import Lexicon
from cpwords.results import Status
from cpwords.specs import DictionaryRef

LETTERS = "etaoinshrdlcumwfgypbvkjxqz"


def _reference(lines: list[str]) -> Lexicon:
    """The lexicon of ``lines`` one word at a time: each line stripped and lowercased, once."""
    words = list(dict.fromkeys(line.strip().lower() for line in lines if line.strip()))
    return Lexicon._with_builtin_values_rows(words, name="ref")


def _same(a: Lexicon, b: Lexicon) -> None:
    assert list(a) == list(b)
    assert a._levels == b._levels and a._zipf_c == b._zipf_c
    assert a.content_hash == b.content_hash


def _random_words(rng: random.Random, n: int, longest: int = 12, avoid: frozenset[str] = frozenset()) -> list[str]:
    out: set[str] = set()
    while len(out) < n:
        word = "".join(rng.choice(LETTERS[: rng.randint(6, 26)]) for _ in range(rng.randint(3, longest)))
        if word not in avoid:
            out.add(word)
    return sorted(out)


def _write_list(path: Path, n: int, seed: int) -> list[str]:
    """``n`` words: every word of scowl-35 (so that puzzles have answers) and made-up ones."""
    rng = random.Random(seed)
    known = list(load_lexicon("scowl-35"))
    words = known + _random_words(rng, n - len(known), avoid=frozenset(known))
    rng.shuffle(words)
    path.write_text("\n".join(words) + "\n", encoding="ascii")
    return words


# ------------------------------------------------------------------ the same lexicon as before

@pytest.mark.parametrize("share", [6, pytest.param(1, marks=pytest.mark.sweep)], ids=["every-6th-word", "all"])
def test_the_shipped_lists_value_as_word_by_word(share: int) -> None:
    """enable2k (172,000 words, valued with numpy when loaded) and scowl-95's words as a user list:
    every sixth word of each in every run (still past the numpy path's 20,000 words), all of them
    in the sweep."""
    enable = builtin.word_list("enable2k.txt.gz")[::share]
    _same(Lexicon._with_builtin_values(enable, name="ref"), Lexicon._with_builtin_values_rows(enable, name="ref"))
    full = list(load_lexicon("scowl-95"))
    scowl = full[::share]
    random.Random(1).shuffle(scowl)
    rows = plain.plain_words("\n".join(scowl).encode("ascii"))
    assert rows is not None
    _same(Lexicon(*plain.valued(rows), name="ref"), _reference(scowl))
    kept = set(scowl)
    assert [w for w in full if w in kept] == list(Lexicon(*plain.valued(rows), name="ref"))  # scowl-95's order


@pytest.mark.parametrize("longest", [12, 20])
def test_both_key_widths_value_as_word_by_word(longest: int) -> None:
    """Words of up to 12 letters take one key each (sorted and decoded again); longer ones the
    general path (several keys a word): both give the word-by-word lexicon."""
    rng = random.Random(longest)
    words = _random_words(rng, 30_000, longest) + list(load_lexicon("scowl-50"))[:5000]
    if longest == 12:
        words = [w for w in words if len(w) <= 12]
    rng.shuffle(words)
    rows = plain.plain_words("\n".join(words + words[:100]).encode("ascii"))
    assert rows is not None and (rows.dtype.itemsize <= 13) == (longest == 12)
    _same(Lexicon(*plain.valued(rows), name="ref"), _reference(words))


_line = st.one_of(
    st.sampled_from(["cat", "dog", "the", "silver", "zymurgy", "antidisestablishmentarianism",
                     "pneumonoultramicroscopicsilicovolcanoconiosis", "a", "i", "qu"]),
    st.text(alphabet="abcxyzq", min_size=1, max_size=30),
    st.text(alphabet="etaoinsETAOINS", min_size=1, max_size=14),
).flatmap(lambda w: st.sampled_from([w, w.upper(), f"  {w}\t", f"{w}\r"]))


_plain_file = st.lists(st.one_of(_line, st.just("")), min_size=1, max_size=60)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_plain_file)
def test_random_plain_files_value_as_word_by_word(lines: list[str]) -> None:
    """Thirty random files in every run, a hundred and twenty in the sweep."""
    _check_plain_file(lines)


@pytest.mark.sweep
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_plain_file)
def test_many_random_plain_files_value_as_word_by_word(lines: list[str]) -> None:
    _check_plain_file(lines)


def _check_plain_file(lines: list[str]) -> None:
    data = "\n".join(lines).encode("ascii")
    rows = plain.plain_words(data)
    if not any(line.strip() for line in lines):
        assert rows is None
        return
    assert rows is not None
    _same(Lexicon(*plain.valued(rows), name="ref"), _reference(lines))


_odd_line = st.sampled_from(["# a comment", "two words", "café", "x1", "a" * 65, "tab\tinside"])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_line, min_size=1, max_size=40), _odd_line)
def test_a_file_with_any_other_line_reads_as_before(lines: list[str], odd: str) -> None:
    """A line that is not one plain word sends the whole file the careful way: the same lexicon
    and the same warning as the word-by-word reading gives (twenty files in every run, sixty in
    the sweep)."""
    _check_other_line(lines, odd)


@pytest.mark.sweep
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_line, min_size=1, max_size=40), _odd_line)
def test_many_files_with_any_other_line_read_as_before(lines: list[str], odd: str) -> None:
    _check_other_line(lines, odd)


def _check_other_line(lines: list[str], odd: str) -> None:
    assert plain.plain_words("\n".join([*lines, odd]).encode("utf-8")) is None
    with mock.patch("cpwords.lexicon.core._ARRAY_WORDS", 1):  # numpy for any size where it applies
        items = [*lines, odd]
        fast = Lexicon.from_words(items)
    slow = Lexicon.from_words(items)
    _same(fast, slow)
    assert fast.warnings == slow.warnings


def test_the_file_path_and_the_list_path_agree(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    words = _write_list(path, 60_000, seed=3)
    lex, notes, packed = sources._read_file_lexicon(path, ENGLISH, lambda: None)
    assert packed is not None and packed.unpacked() == (lex._words, lex._levels, lex._zipf_c)
    assert notes == [] and lex.warnings == ()
    _same(lex, _reference(words))
    _same(lex, Lexicon.from_words(words))


def test_a_non_english_list_takes_the_careful_path(tmp_path: Path) -> None:
    path = tmp_path / "parole.txt"
    path.write_text("Città\nperché\ncasa\n" + "\n".join(f"parola{c}" for c in "abc") + "\nx1\n", encoding="utf-8")
    with pytest.warns(LexiconWarning, match="1 entry"):
        lex = load_lexicon(DictionaryRef(path=path, language="italian"))
    assert {"citta", "perche", "casa"} <= set(lex) and lex.language == "italian"
    assert any("1 entry" in w for w in lex.warnings)


# ------------------------------------------------------------------ the flat cache

def test_a_damaged_or_foreign_cache_entry_is_read_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(sources, "CACHED_FILE_BYTES", 0)
    path = tmp_path / "mine" / "words.txt"
    path.parent.mkdir()
    _write_list(path, 25_000, seed=5)
    first, _ = sources._file_lexicon(path)
    assert sorted(p.name for p in path.parent.iterdir()) == ["words.txt"]  # nothing written beside it
    (entry,) = (tmp_path / "cache").glob("word-file-*.words")
    blob = entry.read_bytes()
    assert wordfile.read_entry(entry, "another key") is None
    entry.write_bytes(blob[: len(blob) // 2])  # a truncated entry (checksum fails)
    assert wordfile.read_entry(entry, "") is None
    again, _ = sources._file_lexicon(path)
    _same(first, again)
    assert entry.read_bytes() == blob  # rewritten whole


# ------------------------------------------------------------------ the deadline

@pytest.fixture(scope="module")
def slow_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two million lines that must be read one by one (a line that is not a word sends the list
    the careful way): seconds to load on any machine, far more than a tiny limit and its grace."""
    path = tmp_path_factory.mktemp("slow") / "slow2m.txt"
    path.write_text("don't\n" + "word\n" * 2_000_000, encoding="ascii")
    return path


def test_the_load_ends_at_the_deadline_with_the_file_named(big_list: Path, slow_list: Path) -> None:
    """A spent budget stops the load of a big list (deterministic); a limit of a nanosecond on a
    list that takes seconds to read stops it whatever the machine, with the same message."""
    path = big_list
    assert path.stat().st_size >= sources.CACHED_FILE_BYTES  # a one-time build (a small list is not one)
    with builds_within(Budget(deadline=time.monotonic() - 1)), pytest.raises(BuildStopped) as caught:
        load_lexicon(DictionaryRef(path=path))  # the numpy way checks between its steps
    assert f"the lexicon of the word list {path} was being built" in caught.value.message
    assert len(load_lexicon(DictionaryRef(path=path))) == 150_000  # outside a solve: no deadline
    result = cpwords.solve({"kind": "spelling_bee", "letters": "cejoprt", "center": "c",
                            "dictionary": {"path": str(slow_list)}, "time_limit": 1e-9})
    assert result.status == Status.UNKNOWN and not result.solutions
    assert f"the time limit was reached while the lexicon of the word list {slow_list}" in result.message


def _cli(*argv: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CPWORDS_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "cpwords", *argv], text=True, capture_output=True, env=env,
                          timeout=HANG_S)


@pytest.fixture(scope="module")
def big_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """150,000 words: past the size whose lexicon is kept in the disk cache (the one-time build)."""
    path = tmp_path_factory.mktemp("big") / "big150k.txt"
    _write_list(path, 150_000, seed=11)
    return path


def test_a_big_list_loads_and_the_command_answers_cold_and_warm(big_list: Path, tmp_path: Path) -> None:
    """Two processes, as a user runs them: the first builds the lexicon and keeps it, the second
    reads it from the cache; the same answer (no time limit: the test is not about one)."""
    argv = ("spelling-bee", "cejoprt", "--center", "c", "--dict", str(big_list), "--json")
    cold = _cli(*argv, cache=tmp_path)
    assert cold.returncode == 0, cold.stderr
    assert list(tmp_path.glob("word-file-*.words"))  # kept for the next run
    warm = _cli(*argv, cache=tmp_path)
    assert warm.returncode == 0, warm.stderr
    first, second = json.loads(cold.stdout), json.loads(warm.stdout)
    assert first["solutions"] == second["solutions"] and first["status"] == "optimal"
    words = set(first["solutions"][0]["words"])
    lexicon = load_lexicon(DictionaryRef(path=big_list))
    hive = set("cejoprt")
    expected = {w for w in lexicon if len(w) >= 4 and "c" in w and set(w) <= hive}
    assert words == expected and {"corrector", "project"} <= words and len(words) > 21  # made-up words too


def test_a_tiny_limit_on_a_big_list_ends_honestly(slow_list: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A millisecond for a list that takes seconds to read, on any machine: the stop comes while
    the lexicon is built, whenever it comes (a budget spent before the start gives the same
    answer). The text answer through cpwords.cli.main, the JSON one as a process."""
    from cpwords.cli import main

    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path))
    saved = warnings.showwarning
    try:
        code = main(["ladder", "cat", "dog", "--dict", str(slow_list), "--time-limit", "0.001"])
    finally:
        warnings.showwarning = saved
    out = capsys.readouterr()
    assert code == 1 and "Traceback" not in out.err, out.err
    assert f"the lexicon of the word list {slow_list} was being built" in " ".join(out.out.split())
    js = _cli("ladder", "cat", "dog", "--dict", str(slow_list), "--time-limit", "0.001", "--json", cache=tmp_path)
    result = json.loads(js.stdout)
    assert js.returncode == 1 and result["status"] == "unknown" and result["stats"]["stopped"] == "time_limit"
    assert str(slow_list) in result["message"] and not list(tmp_path.glob("word-file-*"))


def test_the_content_hash_is_the_one_caches_were_keyed_by() -> None:
    """The faster hash hashes the same text as before (caches built before stay valid)."""
    import hashlib

    from cpwords.lexicon.rareness import FORMULA_VERSION

    for lex in (load_lexicon("scowl-50"), Lexicon.from_words(_random_words(random.Random(9), 3000) + ["the"])):
        h = hashlib.sha256(f"cpwords-lexicon {FORMULA_VERSION}\n".encode())
        h.update("\n".join(lex).encode("utf-8"))
        h.update(b"\0" + bytes(lv for lv in lex._levels))
        h.update(b"\0" + ",".join(map(str, lex._zipf_c)).encode("ascii"))
        assert lex.content_hash == h.hexdigest()


@pytest.mark.parametrize("filters", [
    {"exclude": frozenset({"the", "zzz", "cat"})}, {"exclude": ["the", "and"]}, {"min_length": 4},
    {"max_length": 5, "max_level": 50}, {"min_length": 3, "max_length": 9, "max_level": 70, "exclude": {"dog"}},
])
def test_big_lexicons_filter_as_word_by_word(filters: dict[str, object]) -> None:
    """A list of 20,000 words or more is filtered with one numpy mask: the same words in the same order."""
    lex = Lexicon.from_words(_random_words(random.Random(2), 25_000, 14) + list(load_lexicon("scowl-50"))[:8000])
    fast = lex.filtered(**filters)  # type: ignore[arg-type]
    with mock.patch("cpwords.lexicon.core._ARRAY_WORDS", 10**9):
        slow = lex.filtered(**filters)  # type: ignore[arg-type]
    _same(fast, slow)
    assert 0 < len(fast) < len(lex)


def test_a_few_lookups_of_a_big_lexicon_scan_then_the_dict_takes_over() -> None:
    """The first lookups of a big lexicon scan its list (no set, no position dict built) until
    the scans have read it four times; later ones use them; every answer is the same as the
    dict's, and a missing word is a KeyError."""
    words = _random_words(random.Random(4), 30_000) + ["the", "silver"]
    lex, reference = Lexicon.from_words(words), Lexicon.from_words(words)
    reference._pos, reference._set  # noqa: B018 (built at once: the reference answers from them)
    asked = ["silver", "the", words[0], words[-3], "notaword", *words[100:120], "nota", "notb", "notc", "notd",
             *words[200:210]]  # four misses read the list four times: the set and dict are built then
    for word in asked:
        assert (word in lex) == (word in reference)
        if word in reference:
            assert (lex.level(word), lex.zipf(word), lex.rareness(word)) == (
                reference.level(word), reference.zipf(word), reference.rareness(word))
        else:
            with pytest.raises(KeyError):
                lex.rareness(word)
    assert "_pos" in vars(lex) and "_set" in vars(lex)  # built once the scans were used up
    fresh = Lexicon.from_words(words)
    assert fresh.rareness("silver") == reference.rareness("silver") and "_pos" not in vars(fresh)


@pytest.mark.parametrize("comments", ["# my list\n", "# list\r\n#\n", "#café\n"])
def test_a_big_list_with_comments_reads_the_fast_way_as_line_by_line(tmp_path: Path, comments: str) -> None:
    path = tmp_path / "commented.txt"
    words = _random_words(random.Random(6), 30_000) + ["the", "silver"]
    lines = [f"{w}  # note {i}" if i % 1000 == 0 else w for i, w in enumerate(words)]
    path.write_text(comments + "\n".join(lines) + "\n#last\rcat\n", encoding="utf-8")
    lex, notes, packed = sources._read_file_lexicon(path, ENGLISH, lambda: None)
    assert packed is not None  # the numpy way: comments (even with accents) are dropped first
    _same(lex, _reference([*words, "cat"]))
    assert lex.warnings == () and notes == []
