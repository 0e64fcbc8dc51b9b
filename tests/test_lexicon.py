"""The lexicon: built-in counts, rareness, user lists, filters, errors, cache, definitions, CLI."""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path

import pytest
from pace import HANG_S, wait_until

from cpwords.errors import InputError
from cpwords.lexicon import (
    Lexicon,
    LexiconWarning,
    define,
    known_dictionaries,
    load_lexicon,
)
from cpwords.lexicon import cache as lexcache
from cpwords.lexicon.definitions import base_forms
from cpwords.specs import DictionaryRef

# ------------------------------------------------------------------ built-in dictionaries


@pytest.mark.parametrize(("name", "count"), [("scowl-35", 39_095), ("scowl-70", 111_593), ("scowl-80", 242_844)])
def test_scowl_counts(name: str, count: int) -> None:
    assert len(load_lexicon(name)) == count


def test_default_is_scowl_70_and_cached() -> None:
    lex = load_lexicon()
    assert lex.name == "scowl-70"
    assert load_lexicon("scowl-70") is lex
    assert load_lexicon(DictionaryRef(name="scowl-70")) is lex


def test_every_builtin_loads_and_levels_nest() -> None:
    sizes = {}
    for name in known_dictionaries():
        lex = load_lexicon(name)
        assert len(lex) > 0
        assert all(lex.alphabet.is_word(w) for w in lex.by_length(5)[:200])
        assert lex.alphabet.language != "english" or all(w.isascii() for w in lex.by_length(5)[:200])
        sizes[name] = len(lex)
    assert sizes["scowl-10"] < sizes["scowl-20"] < sizes["scowl-95"]
    assert sizes["scowl-british-70"] != sizes["scowl-70"]
    assert "colour" in load_lexicon("scowl-british-35") and "colour" not in load_lexicon("scowl-35")
    assert "color" in load_lexicon("scowl-35") and "color" not in load_lexicon("scowl-british-35")


def test_lexicon_api() -> None:
    lex = load_lexicon("scowl-80")
    words = lex.words
    assert words[:3] == ["the", "to", "and"]  # frequency order
    assert "silver" in lex and "Silver" not in lex and "zzxq" not in lex
    assert set(lex.by_length(3)) == {w for w in words if len(w) == 3}
    assert sum(lex.length_counts().values()) == len(lex)
    assert lex.level("silver") == 20 and lex.zipf("silver") == pytest.approx(4.81)
    with pytest.raises(KeyError):
        lex.level("zzxq")
    assert len(lex.content_hash) == 64 and lex.content_hash != load_lexicon("scowl-70").content_hash


def test_rareness_order() -> None:
    lex = load_lexicon("scowl-95")
    order = ["silver", "solder", "salver", "soever", "wolver"]
    values = [lex.rareness(w) for w in order]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert lex.rareness("silver") == 1 and lex.rareness("solved") == 1
    # several common words beat one obscure word
    assert 5 * lex.rareness("solder") < lex.rareness("salver")
    assert all(r >= 1 for r in lex.rareness_map().values())


def test_common_words() -> None:
    lex = load_lexicon("common-5k")
    assert len(lex) == 5000
    scowl80 = load_lexicon("scowl-80")
    assert all(w in scowl80 for w in lex)
    assert len(load_lexicon("common-3000")) == 3000
    assert load_lexicon("common-2k").words == lex.words[:2000]
    zipfs = [lex.zipf(w) for w in lex]
    assert zipfs == sorted(zipfs, reverse=True)
    assert "dont" not in lex  # contractions are not SCOWL words


def test_drop_plurals() -> None:
    lex = load_lexicon(DictionaryRef(name="common-5k", drop_plurals=True))
    full = load_lexicon("common-5k")
    assert "years" in full and "years" not in lex and "year" in lex
    assert "boxes" not in lex or "box" not in full
    assert len(lex) < len(full)


# ------------------------------------------------------------------ user lists and filters


def test_user_file_bad_lines_and_values(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("# my words\nSilver\n wolver \ncan't\nsoller # comment\n\nzyxwvq\nsalver\nab12\nsilver\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lex = load_lexicon(DictionaryRef(path=path))
    assert sorted(lex) == ["salver", "silver", "soller", "wolver", "zyxwvq"]
    assert len(lex.warnings) == 1 and "skipped 2 entries" in lex.warnings[0]
    assert any(issubclass(w.category, LexiconWarning) for w in caught)
    assert lex.level("silver") == 20 and lex.zipf("silver") == pytest.approx(4.81)
    assert lex.level("zyxwvq") == 100 and lex.zipf("zyxwvq") == 0
    assert lex.rareness("zyxwvq") > lex.rareness("soller") > lex.rareness("silver")
    assert list(lex)[0] == "silver"  # frequency order


def test_user_word_known_only_to_wordfreq() -> None:
    lex = Lexicon.from_words(["instagram", "silver"])
    assert lex.level("instagram") == 100 and lex.zipf("instagram") > 3


def test_inline_words_and_filters() -> None:
    ref = DictionaryRef(words=["cat", "Dog", "horse", "zebra", "aardvark"], min_length=4, max_length=5)
    assert sorted(load_lexicon(ref)) == ["horse", "zebra"]
    assert "silver" not in load_lexicon(DictionaryRef(name="scowl-80", max_level=10))
    assert all(lex_len >= 7 for lex_len in load_lexicon(DictionaryRef(name="scowl-35", min_length=7)).length_counts())


def test_unknown_name() -> None:
    with pytest.raises(InputError) as info:
        load_lexicon("scowl-7")
    err = info.value
    assert err.field == "dictionary" and err.value == "scowl-7"
    assert "scowl-british-N" in err.one_line() and "common-N" in err.one_line()
    with pytest.raises(InputError):
        load_lexicon("webster")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        load_lexicon(DictionaryRef(path=tmp_path / "nope.txt"))
    assert "nope.txt" in info.value.one_line() and "no such" in info.value.one_line()


def test_empty_list(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("# nothing\n123\n")
    with pytest.raises(InputError, match="no words"):
        load_lexicon(DictionaryRef(path=path))
    with pytest.raises(InputError, match="after filtering"):
        load_lexicon(DictionaryRef(words=["cat"], min_length=5))


def test_edited_file_reloads(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_text("cat\n")
    assert len(load_lexicon(DictionaryRef(path=path))) == 1
    path.write_text("cat\ndog\nemu\n")
    assert len(load_lexicon(DictionaryRef(path=path))) == 3


# ------------------------------------------------------------------ derived-index cache


def test_cache_reuse_stale_corrupt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "c"))
    lex = Lexicon.from_words(["cat", "cot", "dog"])
    calls = []

    def build() -> dict[str, int]:
        calls.append(1)
        return {"links": 1}

    assert lexcache.cached(lex, "links", build, version=1) == {"links": 1}
    assert lexcache.cached(lex, "links", build, version=1) == {"links": 1}
    assert len(calls) == 1
    lexcache.cached(lex, "links", build, version=2)  # a new version is a new entry
    assert len(calls) == 2
    path = lexcache.cache_path(lex, "links", 1)
    path.write_bytes(path.read_bytes()[:-3])  # truncated: checksum fails
    assert lexcache.cached(lex, "links", build, version=1) == {"links": 1}
    assert len(calls) == 3
    path.write_bytes(b"garbage")
    assert lexcache.cached(lex, "links", build, version=1) == {"links": 1}
    assert len(calls) == 4
    other = Lexicon.from_words(["cat", "cot"])
    lexcache.cached(other, "links", build, version=1)  # different content, different key
    assert len(calls) == 5


def test_cache_unwritable_warns_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(blocker / "sub"))
    monkeypatch.setattr(lexcache, "_warned", False)
    lex = Lexicon.from_words(["cat"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert lexcache.cached(lex, "x", lambda: 42, version=1) == 42
        assert lexcache.cached(lex, "y", lambda: 43, version=1) == 43
    messages = [str(w.message) for w in caught if issubclass(w.category, lexcache.CacheWarning)]
    assert len(messages) == 1 and "cannot write the cache folder" in messages[0]


def _build_in_child(folder: str, out: str, arrived: str, runs: int) -> None:
    """Worker of the concurrency test: build one entry, recording each real build in ``out``; the
    build holds the lock until every run has arrived at the cache (the others then wait for it, or
    find the entry written: one build either way)."""
    import os

    os.environ["CPWORDS_CACHE_DIR"] = folder

    def build() -> int:
        with open(out, "a") as f:
            f.write("built\n")
        wait_until(lambda: Path(arrived).read_text().count("\n") == runs, "every run at the cache")
        return 7

    with open(arrived, "a") as f:
        f.write("here\n")
    assert lexcache.cached(Lexicon.from_words(["cat", "dog"]), "concurrent", build, version=1) == 7


def test_concurrent_runs_build_an_entry_once(tmp_path: Path) -> None:
    import multiprocessing

    out, arrived = tmp_path / "builds.txt", tmp_path / "arrived.txt"
    arrived.write_text("")
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_build_in_child, args=(str(tmp_path / "cache"), str(out), str(arrived), 4))
             for _ in range(4)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(HANG_S)
    assert [proc.exitcode for proc in procs] == [0] * 4
    assert out.read_text().count("built") == 1


def test_killed_build_leaves_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import signal
    import subprocess
    import sys

    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path))
    lex = Lexicon.from_words(["cat", "dog"])
    path = lexcache.cache_path(lex, "killed", 1)
    # What a build killed between writing its temporary file and renaming it leaves behind.
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    stray = path.with_name(f"{path.name}.{child.pid}.tmp")
    stray.write_bytes(b"half a file")
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert lexcache.cached(lex, "killed", lambda: 5, version=1) == 5
    assert not list(tmp_path.glob("*.tmp"))
    assert lexcache.cached(lex, "killed", lambda: 6, version=1) == 5  # stored, read back


def test_same_words_two_files_each_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from cpwords.cli import main

    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    for f in (first, second):
        f.write_text("cold\ncord\ncard\nward\nwarm\n")
    for f in (first, second):  # the second run reads the index the first one cached
        assert main(["ladder", "cold", "warm", "--dict", str(f), "--json", "--seed", "1"]) == 0
        assert json.loads(capsys.readouterr().out)["stats"]["dictionary"] == str(f)
        assert main(["ladder", "cold", "zzzz", "--dict", str(f)]) == 2
        err = capsys.readouterr().err
        assert str(f) in err and ("first" in err) == (f == first)


def test_long_and_junk_entries_are_skipped_in_one_warning(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_text("cat\n" + "a" * 1_000_000 + "\n" + "".join(f"{i}!\n" for i in range(100_000)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lex = load_lexicon(DictionaryRef(path=path))
    assert list(lex) == ["cat"]
    (message,) = [str(w.message) for w in caught]
    assert "skipped 100,000 entries that are not words" in message and "1 entry longer than 64" in message
    assert len(message) < 300


def test_latin1_list_is_read_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("café\ncat\ndog\n".encode("latin-1"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lex = load_lexicon(DictionaryRef(path=path))
    assert sorted(lex) == ["cat", "dog"]
    assert any("read as Latin-1" in str(w.message) for w in caught)


@pytest.mark.parametrize("content", ["cat\ndog\n".encode("utf-16"), bytes(range(256))])
def test_utf16_and_binary_lists_are_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "w.txt"
    path.write_bytes(content)
    with pytest.raises(InputError, match="UTF-16|binary") as err:
        load_lexicon(DictionaryRef(path=path))
    assert str(path) in err.value.one_line()


def test_exclude_offensive() -> None:
    from cpwords.lexicon import excluded_words, offensive_words

    bad = offensive_words()
    plain = load_lexicon("scowl-70")
    filtered = load_lexicon(DictionaryRef(name="scowl-70", exclude=["offensive"]))
    assert excluded_words(["offensive"]) == bad
    assert not bad & set(filtered) and bad & set(plain)
    assert set(filtered) == set(plain) - bad
    assert load_lexicon("scowl-70", generating=True) is filtered  # the default where cpwords chooses
    kept = DictionaryRef(name="scowl-70", exclude=[])
    assert load_lexicon(kept, generating=True) is load_lexicon(kept)  # an explicit [] keeps every word
    assert len(load_lexicon(kept)) == len(plain)
    assert "exclude=offensive" in filtered.label


# ------------------------------------------------------------------ definitions


def test_definitions_base_and_inflected() -> None:
    silver = define("silver")
    assert silver and silver[0].startswith("noun: a soft white precious")
    assert any("solution" in d for d in define("solves")) and define("solves")[0].startswith("verb (solve)")
    assert define("walked")[0].startswith("verb (walk)")
    assert any(d.startswith("adj (happy)") for d in define("happier"))  # exception list
    assert any(d.startswith("noun (goose)") for d in define("geese"))
    assert ("noun", "box") in base_forms("boxes")
    assert define("zyxwvq") == []


# ------------------------------------------------------------------ command line


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        from cpwords.cli import main
    except ImportError:  # the main CLI not there: our own parser
        from cpwords.commands.dictionary import add_parser

        def main(argv: list[str]) -> int:
            parser = argparse.ArgumentParser()
            add_parser(parser.add_subparsers())
            args = parser.parse_args(argv)
            try:
                return args.func(args)
            except InputError as exc:
                print(exc.one_line(), file=__import__("sys").stderr)
                return 2

    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_dict(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(["dict", "list"], capsys)
    assert code == 0 and "scowl-british-95" in out and "111,593" in out
    code, out, _ = _run(["dict", "info", "scowl-35"], capsys)
    assert code == 0 and "39,095" in out
    code, out, _ = _run(["dict", "info", "silver", "--dict", "scowl-35"], capsys)
    assert code == 0 and "rareness" in out and "4.81" in out and "precious" in out
    code, out, _ = _run(["dict", "info", "wolver", "--dict", "scowl-60"], capsys)
    assert code == 1 and "no" in out
    code, out, _ = _run(["dict", "define", "walked"], capsys)
    assert code == 0 and "verb (walk)" in out
    code, _, err = _run(["dict", "info", "scowl-7"], capsys)
    assert code == 2 and "scowl-7" in err and "unknown dictionary" in err
    path = tmp_path / "mine.txt"
    path.write_text("cat\ncot\n")
    code, out, _ = _run(["dict", "info", "cot", "--dict", str(path)], capsys)
    assert code == 0
    code, _, err = _run(["dict", "info", str(tmp_path / "missing.txt")], capsys)
    assert code == 2 and "no such word-list file" in err
