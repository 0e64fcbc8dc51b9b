"""Spec loading: valid and invalid YAML give the right spec or one clear line, exit code 2."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path
from typing import Literal

import pytest
from pace import HANG_S
from pydantic import Field

from cpwords import cli, puzzles, specs
from cpwords.errors import InputError
from cpwords.puzzles import PuzzleKind, loading
from cpwords.specs import BaseSpec, DictionaryRef


class ToySpec(BaseSpec):
    """A kind used only by these tests."""

    kind: Literal["toy"]
    task: Literal["solve", "count"] = "solve"
    """What to do."""
    engine: Literal["native", "cpsat"] | None = None
    """How."""
    n: int = Field(default=3, ge=1)
    """A positive number."""
    dictionary: DictionaryRef = Field(default_factory=lambda: DictionaryRef(name="scowl-70"))
    """Words."""
    sides: list[str] = Field(default_factory=list)
    """Some strings."""

    @classmethod
    def descriptor(cls) -> PuzzleKind:
        """The toy kind's registry entry."""
        return puzzles.get("toy")


@pytest.fixture(autouse=True)
def toy_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind joined through the registry like a real one (its spec in a stand-in module)."""
    module = types.ModuleType("cpwords_toy.spec")
    module.ToySpec = ToySpec  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "cpwords_toy", types.ModuleType("cpwords_toy"))
    monkeypatch.setitem(sys.modules, "cpwords_toy.spec", module)
    kind = PuzzleKind(name="toy", command="toy", title="Toy", summary="a test kind", package="cpwords_toy",
                      capabilities={"native": ("solve", "count"), "cpsat": ("solve",)}, spec="spec:ToySpec")
    monkeypatch.setitem(puzzles.kinds(), "toy", kind)


def write(tmp_path: Path, text: str, name: str = "p.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(text: str, tmp_path: Path) -> InputError:
    with pytest.raises(InputError) as info:
        loading.load_specs(write(tmp_path, text))
    return info.value


def test_valid_spec_and_defaults(tmp_path: Path) -> None:
    spec = loading.load_spec(write(tmp_path, "kind: toy\nn: 5\n"))
    assert isinstance(spec, ToySpec) and spec.n == 5 and spec.dictionary.name == "scowl-70"


def test_batch_of_documents(tmp_path: Path) -> None:
    found = loading.load_specs(write(tmp_path, "kind: toy\nn: 1\n---\nkind: toy\nn: 2\n"))
    assert [s.n for s in found] == [1, 2]
    with pytest.raises(InputError, match="expected one puzzle, found 2"):
        loading.load_spec(write(tmp_path, "kind: toy\n---\nkind: toy\n"))


def test_unknown_field_names_file_line_field_and_allowed_fields(tmp_path: Path) -> None:
    err = error_of("kind: toy\nn: 2\ncolour: red\n", tmp_path)
    line = err.one_line()
    assert "p.yaml:3" in line and "colour" in line and "unknown field" in line and "allowed fields" in line
    assert "\n" not in line


def test_wrong_type_names_field_and_value(tmp_path: Path) -> None:
    err = error_of("kind: toy\nn: many\n", tmp_path)
    assert err.field == "n" and err.value == "many" and err.line == 2


def test_nested_field_path_and_line(tmp_path: Path) -> None:
    err = error_of("kind: toy\ndictionary:\n  name: scowl-70\n  min_length: zero\n", tmp_path)
    assert err.field == "dictionary.min_length" and err.line == 4
    err = error_of("kind: toy\nsides: [abc, 7, {x: 1}]\n", tmp_path)
    assert err.field == "sides[1]" or err.field == "sides[2]"


def test_missing_and_unknown_kind(tmp_path: Path) -> None:
    assert "field 'kind' is missing" in error_of("n: 3\n", tmp_path).one_line()
    err = error_of("kind: sudoku\n", tmp_path)
    assert "unknown puzzle kind" in err.one_line() and "toy" in err.one_line() and err.line == 1


@pytest.mark.parametrize("text, fragment", [
    ("", "empty"),
    ("# only a comment\n", "empty"),
    ("- 1\n- 2\n", "mapping"),
    ("kind: toy\nn: [1,\n", "not valid YAML"),
    ("just words\n", "mapping"),
])
def test_empty_and_malformed_files(tmp_path: Path, text: str, fragment: str) -> None:
    assert fragment in error_of(text, tmp_path).one_line()


def test_yaml_alias_bomb_is_refused_without_expanding_it(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    text = "kind: toy\n" + "\n".join(lines) + "\n"
    assert "alias bomb" in error_of(text, tmp_path).one_line()


def test_huge_document_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("kind: toy\nsides:\n" + "- abcdefgh\n" * 600_000, encoding="utf-8")
    with pytest.raises(InputError, match="larger than"):
        loading.load_specs(path)


def test_dictionary_reference_forms(tmp_path: Path) -> None:
    spec = loading.load_spec(write(tmp_path, "kind: toy\ndictionary: common-2k\n"))
    assert spec.dictionary.name == "common-2k"
    spec = loading.load_spec(write(tmp_path, "kind: toy\ndictionary: {path: words.txt, min_length: 3}\n"))
    assert spec.dictionary.path == tmp_path / "words.txt"  # relative to the YAML file's folder
    spec = loading.load_spec(write(tmp_path, "kind: toy\ndictionary: {words: [Cat, dog]}\n"))
    assert spec.dictionary.words == ["Cat", "dog"]
    err = error_of("kind: toy\ndictionary: {name: scowl-70, words: [a]}\n", tmp_path)
    assert "exactly one of" in err.one_line()


def test_dump_round_trip(tmp_path: Path) -> None:
    spec = loading.load_spec(write(tmp_path, "kind: toy\nn: 4\nsides: [ab, cd]\n"))
    again = loading.loads_spec(specs.dump_spec(spec))
    assert again.model_dump() == spec.model_dump() and again.engine == "native"


def test_schema_of_one_kind_has_descriptions() -> None:
    schema = loading.json_schema("toy")
    assert schema["properties"]["n"]["description"] == "A positive number."


def test_cli_bad_input_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "kind: toy\nn: -1\n")
    before = path.read_text()
    assert cli.main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "p.yaml:2" in err and "field 'n'" in err and "Traceback" not in err
    assert path.read_text() == before  # nothing the user gave is written over


def test_cli_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["solve"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


# one bad file as a process in part 1 (the others go through cli.main above); the rest under `sweep`
@pytest.mark.parametrize("text", ["", *(pytest.param(t, marks=pytest.mark.sweep) for t in ("kind: [\n", "n: 3\n"))])
def test_cli_subprocess_never_shows_a_traceback(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, text)
    run = subprocess.run([sys.executable, "-m", "cpwords", "solve", str(path)], capture_output=True, text=True,
                         timeout=HANG_S)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1 and str(path) in run.stderr


def test_cli_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["solve", "/no/such/puzzle.yaml"]) == 2
    assert "no such puzzle file" in capsys.readouterr().err


def test_engine_that_cannot_do_the_task_is_bad_input_at_load(tmp_path: Path) -> None:
    """The capability table is checked at validation: file, line, field and the engines that can."""
    err = error_of("kind: toy\ntask: count\nengine: cpsat\n", tmp_path)
    assert err.field == "engine" and err.line == 3 and err.value == "cpsat"
    assert "cannot do task 'count'" in err.message and "native" in err.message


def test_default_engine_comes_from_the_capability_table(tmp_path: Path) -> None:
    spec = loading.load_spec(write(tmp_path, "kind: toy\ntask: count\n"))
    assert spec.engine == "native" and "engine" not in spec.model_fields_set


def test_dates_and_byte_order_marks_are_read_as_text(tmp_path: Path) -> None:
    path = tmp_path / "d.yaml"
    path.write_bytes("\ufeffkind: toy\ntitle: 2024-13-45\n".encode())
    assert loading.load_spec(path).title == "2024-13-45"
    err = error_of("kind: toy\nseed: 2024-02-30\n", tmp_path)
    assert err.field == "seed" and err.value == "2024-02-30"


def test_deep_nesting_is_one_clear_error(tmp_path: Path) -> None:
    err = error_of("kind: toy\nsides: " + "[" * 500 + "]" * 500 + "\n", tmp_path)
    assert "nested" in err.message


@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "folder"])
def test_special_files_are_refused_without_reading_them(tmp_path: Path, special: str) -> None:
    import os

    if special == "fifo":
        path = tmp_path / "pipe.yaml"
        os.mkfifo(path)
    elif special == "folder":
        path = tmp_path
    else:
        path = Path(special)
    with pytest.raises(InputError) as info:
        loading.load_specs(path)
    assert info.value.source == str(path)


def test_files_named_in_specs_resolve_against_the_puzzle_folder(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "words.txt").write_text("cat\n")
    spec = loading.load_spec(write(tmp_path / "sub", "kind: toy\ndictionary: {path: words.txt}\n"))
    assert spec.dictionary.path == tmp_path / "sub" / "words.txt"
    with pytest.raises(InputError, match="files cannot be named here"):
        loading.loads_spec("kind: toy\ndictionary: {path: words.txt}\n", allow_files=False)
