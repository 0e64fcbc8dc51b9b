"""Big word lists load fast and give exactly the lexicon the word-by-word path gives."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import cpwords.lexicon.core as core
from cpwords.lexicon import load_lexicon, sources
from cpwords.lexicon.core import Lexicon
from cpwords.specs import DictionaryRef


def _words(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    known = list(load_lexicon("scowl-95"))
    out = rng.sample(known, n // 2) + ["".join(rng.choice("abcxyzq") for _ in range(rng.randint(1, 9)))
                                        for _ in range(n // 2)]
    return [f"  {w.upper()} " if i % 5 == 0 else w for i, w in enumerate(out)]


def _same(a: Lexicon, b: Lexicon) -> None:
    assert list(a) == list(b) and a._levels == b._levels and a._zipf_c == b._zipf_c
    assert a.content_hash == b.content_hash


@pytest.mark.parametrize("seed", [1, 2])
def test_the_array_path_gives_the_word_by_word_lexicon(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    words = _words(seed, 30_000)
    fast = Lexicon.from_words(words)
    monkeypatch.setattr(core, "_ARRAY_WORDS", 10**9)
    _same(fast, Lexicon.from_words(words))


def test_a_list_with_non_words_takes_the_careful_path() -> None:
    words = _words(3, 30_000) + ["not a word", "café", ""]
    lex = Lexicon.from_words(words)
    assert "café" not in lex and lex.warnings and "3 entries" in lex.warnings[0]


def test_a_big_word_file_is_read_once_then_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(sources, "CACHED_FILE_BYTES", 0)
    path = tmp_path / "words.txt"
    path.write_text("# my list\n" + "\n".join(_words(4, 30_000)) + "\nnot a word\n")
    first, notes = sources._file_lexicon(path)
    assert list((tmp_path / "cache").glob("word-file-*.words"))
    calls: list[int] = []
    monkeypatch.setattr(sources, "_read_word_file", lambda p: calls.append(1) or ([], []))
    again, notes_again = sources._file_lexicon(path)
    assert calls == [] and notes_again == notes and again.warnings == first.warnings
    _same(first, again)
    path.write_text("cold\nwarm\n")  # an edited file is read afresh
    monkeypatch.undo()
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(sources, "CACHED_FILE_BYTES", 0)
    assert list(sources._file_lexicon(path)[0]) in (["cold", "warm"], ["warm", "cold"])
    assert len(load_lexicon(DictionaryRef(path=path))) == 2
