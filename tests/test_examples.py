"""Every shipped example solves, passes verify, and prints through the CLI in all three forms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cpwords
from cpwords import cli, verify
from cpwords.puzzles import kinds, loading
from cpwords.results import Result

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.yaml"))


def test_every_kind_has_an_example() -> None:
    """In examples/, or (the template, which users never see) as its cases' ``EXAMPLE``."""
    kinds_with_examples = {s.kind for path in EXAMPLES for s in loading.load_specs(path)}
    kinds_with_examples |= {name for name, kind in kinds().items() if kind.test_cases().EXAMPLE is not None}
    assert set(kinds()) <= kinds_with_examples


@pytest.mark.parametrize("kind", [name for name, kind in kinds().items() if kind.test_cases().EXAMPLE is not None])
def test_an_example_of_the_cases_solves_and_verifies(kind: str) -> None:
    spec = loading.loads_spec(kinds()[kind].test_cases().EXAMPLE, source=f"{kind} cases")
    result = cpwords.solve(spec, seed=7)
    assert result.status.solved, (kind, result.status, result.message)
    assert verify.check(spec, result) == []


#: Examples too long for every run: the search for the best 3x3 Boggle board (ruzzle-best-board.yaml
#: keeps the best_board task in every run); the sweep solves them.
LONG = {"ruzzle-boggle-best-3x3.yaml"}


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name, marks=[pytest.mark.sweep] if p.name in LONG else [])
                                  for p in EXAMPLES])
def test_example_solves_and_verifies(path: Path) -> None:
    for spec in loading.load_specs(path):
        result = cpwords.solve(spec, seed=7)
        assert result.status.solved, (path.name, result.status, result.message)
        assert verify.check(spec, result) == []
        assert result.stats["wall_s"] >= 0 and result.stats["seed"] == 7


@pytest.mark.parametrize("path", EXAMPLES[:3], ids=[p.name for p in EXAMPLES[:3]])
def test_cli_json_output_is_the_result_model(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["solve", str(path), "--json", "--seed", "3"])
    out = capsys.readouterr().out
    data = json.loads(out)
    for item in data if isinstance(data, list) else [data]:
        result = Result.model_validate(item)
        assert code == result.exit_code() == 0


def test_schema_covers_every_kind(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    text = json.dumps(schema)
    for kind in kinds():
        assert f'"{kind}"' in text
    for kind in kinds():
        assert cli.main(["schema", kind]) == 0
        one = json.loads(capsys.readouterr().out)
        assert "kind" in one["properties"]
        # every field of every kind is documented
        missing = [name for name, prop in one["properties"].items() if name != "kind" and not prop.get("description")]
        assert not missing, (kind, missing)


def test_unknown_engine_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    if not EXAMPLES:
        pytest.skip("no examples yet")
    assert cli.main(["solve", str(EXAMPLES[0]), "--engine", "quantum"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "engine" in err
