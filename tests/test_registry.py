"""The registry and the kind descriptors: every kind joins the same way, and its parts agree."""

from __future__ import annotations

import subprocess
import sys
import typing

import pytest
from pace import HANG_S

from cpwords import puzzles
from cpwords.cli import field_choices, main
from cpwords.engines.found import Found
from cpwords.puzzles.loading import parse_spec
from cpwords.results import Solution
from cpwords.specs import BaseSpec

KINDS = list(puzzles.kinds().values())


def _literal_values(spec_class: type[BaseSpec], name: str) -> set[str]:
    return set(field_choices(spec_class, name))


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_descriptor_parts_load_and_agree(kind: puzzles.PuzzleKind) -> None:
    spec_class = kind.spec_class()
    assert issubclass(spec_class, BaseSpec) and issubclass(kind.solution_class(), Solution)
    hooks = kind.load(kind.pipeline)
    assert callable(kind.load(kind.checker)) and callable(hooks.prepare) and callable(hooks.result)
    assert spec_class.descriptor() is kind  # the spec names its registry entry
    assert hasattr(kind.render_module(), "render")
    assert hasattr(kind.render_module(), "svg") == kind.draws
    # The spec's engine choices are exactly the capability table's engines.
    assert _literal_values(spec_class, "engine") == set(kind.engines)
    # Every task the spec allows is performed by some engine, with a default engine.
    task_field = "task" if "task" in spec_class.model_fields else "mode"
    assert _literal_values(spec_class, task_field) == set(kind.tasks)
    for task in kind.tasks:
        assert kind.default_engine(task) in kind.engines_for(task)
        for engine in kind.engines_for(task):
            assert callable(kind.task_function(engine, task))


def test_registry_names_are_unique_and_lookups_work() -> None:
    assert len({k.command for k in KINDS}) == len(KINDS)
    for kind in KINDS:
        assert puzzles.get(kind.name) is kind and puzzles.by_command(kind.command) is kind
    with pytest.raises(Exception, match="unknown puzzle kind"):
        puzzles.get("crossword")


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_bad_engine_for_a_task_is_refused_at_load_with_the_engines_that_can(kind: puzzles.PuzzleKind) -> None:
    for task in kind.tasks:
        missing = [e for e in kind.engines if not kind.supports(e, task)]
        if not missing:
            continue
        field = "task" if "task" in kind.spec_class().model_fields else "mode"
        data = {"kind": kind.name, field: task, "engine": missing[0]}
        # The fields a spec of this kind cannot do without.
        data |= _required_fields(kind)
        with pytest.raises(Exception) as info:
            parse_spec(data)
        message = str(info.value)
        assert "field 'engine'" in message and f"cannot do task {task!r}" in message, message
        assert all(e in message for e in kind.engines_for(task))


def _required_fields(kind: puzzles.PuzzleKind) -> dict[str, typing.Any]:
    """The fields a spec of the kind cannot do without (its cases' ``REQUIRED``)."""
    return dict(kind.test_cases().REQUIRED)


def test_cli_refuses_an_engine_that_cannot_do_the_task(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["letter-boxed", "--task", "generate", "--engine", "cpsat"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and "--engine" in err and "engine that can: native" in err


def test_a_ladder_never_loads_the_solvers() -> None:
    code = ("import sys, cpwords; cpwords.solve({'kind': 'ladder', 'start': 'cold', 'target': 'warm', 'seed': 1}); "
            "print(sorted(m for m in sys.modules if m.startswith(('ortools', 'pysat'))))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=HANG_S)
    assert run.stdout.strip() == "[]"


def test_result_from_search_decides_status_and_message_in_one_place() -> None:
    from cpwords.results import Result

    class Spec:
        kind, engine, task = "demo", "native", "enumerate"

    r = Result.from_search(Spec, Found(answers=[1], count=1, complete=False, stopped="limit"), [Solution(words=["a"])],
                           infeasible="none")
    assert (r.status, r.count_exact, r.message) == ("feasible", False, "listing stopped at the limit of 1 answer")
    r = Result.from_search(Spec, Found(count=0), infeasible="no such thing")
    assert (r.status, r.message, r.count_exact) == ("infeasible", "no such thing", True)
    r = Result.from_search(Spec, Found(complete=False, stopped="interrupted"), infeasible="x")
    assert (r.status, r.message) == ("unknown", "the search was interrupted before any answer was found")
    r = Result.from_search(Spec, Found(answers=["a"], complete=False), [Solution()], infeasible="x", asked=3, what="grid")
    assert r.message == "1 of the 3 grids asked for: the time limit was reached"
    r = Result.from_search(Spec, Found(answers=["a"]), [Solution()], infeasible="x", asked=3, what="board")
    assert (r.status, r.message) == ("optimal", "1 of the 3 boards asked for: there are no more (the search was complete)")


def test_json_on_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    for argv in (["dict", "list", "--json"], ["dict", "info", "scowl-35", "--json"],
                 ["dict", "info", "silver", "--json"], ["dict", "define", "walked", "--json"],
                 ["schema", "ladder", "--json"], ["ladder", "cold", "warm", "--json", "--seed", "1"]):
        assert main(argv) == 0, argv
        json.loads(capsys.readouterr().out)


def test_an_engine_that_does_not_perform_a_task_is_a_clear_error() -> None:
    kind = puzzles.get("word_grid")
    with pytest.raises(puzzles.UnsupportedTask, match="engines that do: cpsat"):
        kind.task_function("native", "unscramble")
    with pytest.raises(puzzles.UnsupportedTask, match="its tasks"):
        kind.default_engine("fly")
