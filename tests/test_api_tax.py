"""What ``cpwords.solve`` adds around an engine costs little, and still gives the same results."""

from __future__ import annotations

from typing import Any

import pytest

import cpwords
from cpwords import api
from cpwords.errors import InputError
from cpwords.puzzles.loading import parse_spec
from cpwords.puzzles.ruzzle.solution import RuzzleSolution
from cpwords.results import Result, Solution

BOARD = {"kind": "ruzzle", "grid": ["cats", "dogs", "quite", "emus"], "bonuses": "ruzzle-4x4",
         "dictionary": "scowl-35"}


def test_replacing_plain_fields_copies_without_revalidating(monkeypatch: pytest.MonkeyPatch) -> None:
    import cpwords.geometry

    spec = parse_spec(BOARD, source="board.yaml")
    reads: list[Any] = []
    real = cpwords.geometry.read_shape
    monkeypatch.setattr(cpwords.geometry, "read_shape", lambda *a, **k: reads.append(a) or real(*a, **k))
    fast = api.with_options(spec, seed=3, time_limit=2.5, workers=1)
    assert reads == []  # the bonus layout file is not read again
    slow = api.with_options(spec, seed=3, time_limit=2.5, workers=1, engine="active")
    assert len(reads) == 1
    assert fast.model_dump() == {**slow.model_dump(), "engine": "trie"}
    assert fast.model_fields_set == slow.model_fields_set - {"engine"}
    assert fast.bonus_cells() == spec.bonus_cells() and fast.source == "board.yaml"  # type: ignore[attr-defined]
    assert api.with_options(spec, seed=None) is spec
    same = api.with_options(fast, seed=3)
    assert same is fast  # nothing changes: no copy


@pytest.mark.parametrize("option,value,message", [
    ("time_limit", -1, "greater than 0"), ("workers", 0, "greater than or equal to 1"), ("seed", "x", "integer")])
def test_bad_plain_options_blame_the_option(option: str, value: Any, message: str) -> None:
    spec = parse_spec(BOARD)
    with pytest.raises(InputError, match=message) as info:
        api.with_options(spec, labels={option: f"--{option.replace('_', '-')}"}, **{option: value})
    assert info.value.field == f"--{option.replace('_', '-')}"


def test_a_second_solve_reads_no_file_and_checks_all_words_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import cpwords.geometry
    from cpwords.puzzles.ruzzle import check, trie

    spec = parse_spec(BOARD)
    first = cpwords.solve(spec, seed=1)
    calls: list[str] = []
    monkeypatch.setattr(trie, "load_trie", lambda *a, **k: calls.append("trie") or pytest.fail("trie reloaded"))
    monkeypatch.setattr(cpwords.geometry, "read_shape", lambda *a, **k: pytest.fail("layout read again"))
    real_check = check.check
    monkeypatch.setattr(check, "check", lambda *a: calls.append("one word") or real_check(*a))
    again = cpwords.solve(spec, seed=1)
    assert calls == [] and again.status == "optimal" and again.stats["check_s"] >= 0
    assert [s.model_dump() for s in again.solutions] == [s.model_dump() for s in first.solutions]
    assert again.stats["trie_built"] == 0 and again.count == first.count > 50


def test_trusted_solutions_equal_validated_ones() -> None:
    fields = {"words": ["cats"], "word": "cats", "path": [[1, 1], [1, 2]], "score": 7, "grid": None}
    quick, checked = RuzzleSolution.trusted(dict(fields)), RuzzleSolution(**fields)
    assert quick == checked and quick.model_dump() == checked.model_dump()
    assert quick.model_fields_set == checked.model_fields_set and quick.model_dump_json() == checked.model_dump_json()
    quick.score = 8  # still an ordinary model
    assert quick.score == 8 and "score" in quick.model_fields_set
    partial = RuzzleSolution.trusted({"word": "cats"})  # not every field: the model's defaults, as model_construct
    assert partial.words == [] and partial.grid is None and partial.model_fields_set == {"word"}
    assert [s.words for s in Solution.trusted_many([{"words": ["a"]}, {"words": ["b"], "other": 1}])] == [["a"], ["b"]]


def test_results_read_back_from_json() -> None:
    result = cpwords.solve(BOARD, seed=2)
    again = Result.model_validate_json(result.model_dump_json())
    assert again.model_dump() == result.model_dump()
    assert [s.model_dump() for s in again.solutions] == [s.model_dump() for s in result.solutions]


def test_trusted_result_equals_the_validated_one() -> None:
    spec = parse_spec({"kind": "ladder", "start": "cold", "target": "warm", "seed": 1})
    fast = cpwords.solve(spec)
    again = Result.model_validate(fast.model_dump())
    assert again.model_dump() == fast.model_dump() and again.status is fast.status
    assert fast.model_fields_set == set(Result.model_fields)
    fast.message = "changed"  # assignment still works on a trusted instance
    assert fast.model_dump()["message"] == "changed"


def test_index_of_a_named_dictionary_is_kept_per_reference_fields() -> None:
    from cpwords.puzzles.ladder.store import load_index

    plain = load_index(parse_spec({"kind": "ladder", "start": "cold", "target": "warm",
                                   "dictionary": "scowl-35"}).dictionary)
    assert load_index("scowl-35") is plain
    filtered = load_index(parse_spec({"kind": "ladder", "start": "cold", "target": "warm",
                                      "dictionary": {"name": "scowl-35", "max_level": 20}}).dictionary)
    assert filtered is not plain and len(filtered.words) < len(plain.words)
