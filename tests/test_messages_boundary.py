"""What cpwords says about the input it was given (issue 34): options blamed by the name typed,
options that conflict refused in one line, decomposed accents read as the letters they are, an
interrupted search said to be interrupted, bounds that agree, counts whose nouns agree, and
errors inside a board file named by that file and its line.

In-process (``main`` returns the exit code) where the message is the promise.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

import cpwords
from cpwords.cli import main
from cpwords.errors import InputError
from cpwords.results import Status


def nfd(text: str) -> str:
    """``text`` with its accents decomposed (``n`` + U+0303), as macOS keyboards type them."""
    out = unicodedata.normalize("NFD", text)
    assert out != text
    return out


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err.strip()


# ---------------------------------------------------------------- E5, N26: the option typed


@pytest.mark.parametrize(("argv", "option"), [
    (["ladder", "--generate", "0"], "--generate"),  # E5: was field 'count'
    (["ladder", "--generate", "10001"], "--generate"),
    (["board", "--generate", "1000000000"], "--generate"),  # N26: was field '--count'
    (["board", "--enumerate", "3", "--limit", "0"], "--limit"),
    (["grid", "--generate", "100000"], "--generate"),
    (["grid", "--puzzle", "0"], "--puzzle"),
    (["ruzzle", "abcd", "efgh", "ijkl", "mnop", "--min-length", "0"], "--min-length"),
])
def test_an_error_names_the_option_typed(argv: list[str], option: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert f"field '{option}'" in one_error_line(capsys)


# ---------------------------------------------------------------- E6: no option silently ignored


@pytest.mark.parametrize(("argv", "option"), [
    (["ladder", "cold", "--generate", "1", "--length", "5"], "--length"),  # made 4-letter puzzles
    (["ladder", "--generate", "2", "--par", "3", "--mode", "shortest"], "--mode"),  # accepted
    (["ladder", "--generate", "2", "--all"], "--all"),
    (["ladder", "--generate", "2", "--limit", "5"], "--limit"),
    (["ladder", "--generate", "2", "--pick", "random"], "--pick"),
    (["ladder", "--generate", "2", "--define"], "--define"),
])
def test_options_generate_would_ignore_are_refused(argv: list[str], option: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert f"field '{option}'" in one_error_line(capsys)


def test_the_ladder_spec_refuses_what_generate_would_ignore() -> None:
    for extra, field in (({"start": "cold", "length": 5}, "length"), ({"all_shortest": True}, "all_shortest"),
                         ({"shortest_pick": "random"}, "shortest_pick")):
        with pytest.raises(InputError) as caught:
            cpwords.solve({"kind": "ladder", "mode": "generate", **extra})
        assert caught.value.field == field
    spec = cpwords.solve({"kind": "ladder", "mode": "generate", "start": "cold", "length": 4, "par": 2, "seed": 1})
    assert spec.status is Status.OPTIMAL  # a length that agrees with the start word is fine


# ---------------------------------------------------------------- E3, E4: accents


def test_a_generated_ladder_starts_from_a_word_of_the_dictionary_named(capsys: pytest.CaptureFixture[str]) -> None:
    """E3: ``ladder niño --generate 1 --dict es`` was refused as "letters a-z only" (the spec was
    checked before --dict was applied)."""
    assert main(["ladder", "niño", "--generate", "1", "--dict", "es", "--par", "2", "--seed", "1"]) == 0
    assert "NIÑO ->" in capsys.readouterr().out


def test_decomposed_accents_are_the_letters_they_stand_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """E4: the command line (``ruzzle``, ``dict info``, ``ladder``) and every spec field take
    ``n`` + U+0303 as ``ñ`` (Ruzzle read the accent as a tile of its own, ``dict info`` as no word)."""
    assert main(["ruzzle", nfd("niño"), "gato", "casa", "pera", "--dict", "es"]) == 0
    assert "NIÑO" in capsys.readouterr().out.upper()
    assert main(["dict", "info", nfd("niño"), "--dict", "es"]) == 0
    assert "niña" in capsys.readouterr().out
    assert main(["ladder", nfd("niño"), nfd("niña"), "--dict", "es"]) == 0
    capsys.readouterr()
    words = ["niño", "gato", "casa", "pera", "niña"]
    ruzzle = cpwords.solve({"kind": "ruzzle", "grid": [nfd("niño"), "gato", "casa", "pera"],
                            "dictionary": {"words": [nfd(w) if "ñ" in w else w for w in words], "language": "es"}})
    assert "niño" in {s.word for s in ruzzle.solutions}
    listed = tmp_path / "nfd.txt"  # a word list saved decomposed
    listed.write_text("\n".join(nfd(w) if "ñ" in w else w for w in words) + "\n", encoding="utf-8")
    ladder = cpwords.solve({"kind": "ladder", "start": nfd("niño"), "target": "niña",
                            "dictionary": {"path": str(listed), "language": "spanish"}})
    assert ladder.status is Status.OPTIMAL and ladder.solutions[0].words == ["niño", "niña"]


def test_the_server_reads_decomposed_accents_as_the_command_line_does() -> None:
    from fastapi.testclient import TestClient

    from cpwords.server.app import create_app
    from cpwords.server.config import ServerConfig

    with TestClient(create_app(ServerConfig(workers=1))) as client:
        answer = client.post("/api/solve", json={"kind": "ruzzle", "grid": [nfd("niño"), "gato", "casa", "pera"],
                                                 "dictionary": {"words": ["niño", "gato"], "language": "es"}})
        assert answer.status_code == 200, answer.text
        assert {s["word"] for s in answer.json()["result"]["solutions"]} == {"niño", "gato"}


def test_a_file_named_as_typed_keeps_its_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The command line's words are composed, but a file that exists under the decomposed name
    (a Linux file system tells the two apart) is read as typed."""
    monkeypatch.chdir(tmp_path)
    name = nfd("cafés.txt")
    Path(name).write_text("cold\ncord\ncard\nward\nwarm\n", encoding="utf-8")
    assert main(["ladder", "cold", "warm", "--dict", name]) == 0, capsys.readouterr().err


# ---------------------------------------------------------------- E9: interrupted


def test_an_interrupted_best_board_says_it_was_interrupted() -> None:
    """E9: Ctrl-C or SIGTERM ended a best-board climb, and the message said "(it climbed until
    the time limit)"."""
    from pace import warm_cache

    from cpwords.engines.budget import Budget

    spec = cpwords.loads("kind: ruzzle\ngrid: [RATE, SONI, LEND, TRAP]\ntask: best_board\nseed: 1\ntime_limit: 30\n")
    warm_cache(spec)
    budget = Budget(30)
    budget.stop("interrupted")  # what the command line's signal handler does
    result = cpwords.solve(spec, budget=budget)
    assert result.status is Status.FEASIBLE and result.solutions
    assert "interrupted" in result.message and "until the time limit" not in result.message


# ---------------------------------------------------------------- E14: bounds that agree


def test_a_count_cut_short_reports_bounds_that_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """E14: "at least 8,606 grids, at least 3,440 modulo symmetry" with a group of order 2: 8,606
    grids make at least 4,303 classes. Cut short whatever it saw (here: grids that are none of
    them the first of their class), the count modulo symmetry is at least raw / |group|."""
    from cpwords.engines.budget import Budget, SearchTimeout
    from cpwords.puzzles.loading import parse_spec
    from cpwords.puzzles.word_grid import native_tasks
    from cpwords.puzzles.word_grid.count_base import TooLargeToContract
    from cpwords.puzzles.word_grid.solve import prepare

    shape = tmp_path / "three.yaml"
    shape.write_text('rows: ["...", "...", "..."]\n', encoding="utf-8")
    words = ["cat", "cot", "cog", "dog", "dot", "hot", "hat", "bat", "bag", "big", "dig", "dim", "him", "hip", "hop",
             "top", "tip", "tap", "cap", "cup", "pup", "pop", "mop", "map", "mat", "rat", "rot", "rod", "god", "nod",
             "ace", "ape", "ate", "awe", "pea", "tea", "sea", "oat", "tao", "ago", "ego", "ice", "ire", "ore", "toe"]
    spec = parse_spec({"kind": "word_grid", "task": "count", "shape": str(shape), "distinct_words": False,
                       "dictionary": {"words": words}})
    problem = prepare(spec).problem

    class CutShort(native_tasks.GridSearch):
        def solutions(self):  # type: ignore[no-untyped-def]
            for k, grid in enumerate(super().solutions()):
                if k == 7:
                    raise SearchTimeout("time_limit")
                yield grid

    def too_large(*args: object, **kwargs: object) -> None:
        raise TooLargeToContract("listed one by one here")

    monkeypatch.setattr(native_tasks, "GridSearch", CutShort)
    monkeypatch.setattr(native_tasks, "count_grids", too_large)
    monkeypatch.setattr(native_tasks, "is_lex_leader", lambda letters, group: False)
    found = native_tasks.count(problem, spec, Budget(None))
    order, raw = len(problem.group), found.stats["raw_count"]
    assert raw == 7 and order > 1 and not found.complete
    assert found.count == -(-raw // order)
    assert f"at least {raw:,} grids, at least {found.count:,} modulo symmetry" in found.message


# ---------------------------------------------------------------- E15: one word, two words


def test_counts_and_their_nouns_agree(capsys: pytest.CaptureFixture[str]) -> None:
    """E15: ``letter-boxed giy erc pol ahx`` printed "1 words"."""
    assert main(["letter-boxed", "giy", "erc", "pol", "ahx"]) == 0
    out = capsys.readouterr().out
    assert "1 word, " in out and "1 words" not in out
    result = cpwords.solve({"kind": "letter_boxed", "sides": ["paf", "uot", "mie", "xlr"], "max_words": 1})
    assert result.status is Status.INFEASIBLE and result.message.startswith("no answer of at most 1 word with")
    from cpwords.display import more_line

    assert more_line(1, "answer").plain.startswith("… and 1 more answer (")


# ---------------------------------------------------------------- M10: errors inside a board file


def test_a_bad_board_file_is_named_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """M10: a node kind ``prefux`` in a board file was blamed on the puzzle's field (``--board.nodes
    .p_w.kind``, ``m10b.yaml:2: field 'board.nodes.p_w.kind'``): now the board file and its line."""
    from cpwords.geometry import models_root

    shipped = (models_root() / "boards" / "okwddm.yaml").read_text(encoding="utf-8")
    board = tmp_path / "badboard.yaml"
    board.write_text(shipped.replace("p_w:  {kind: prefix", "p_w:  {kind: prefux"), encoding="utf-8")
    line = next(i for i, text in enumerate(board.read_text().splitlines(), 1) if "prefux" in text)
    expected = f"{board}:{line}: field 'nodes.p_w.kind', value 'prefux'"
    assert main(["board", "--board", str(board), "--count"]) == 2
    assert one_error_line(capsys).startswith(f"cpwords: error: {expected}")
    puzzle = tmp_path / "m10b.yaml"
    puzzle.write_text(f"kind: prefix_suffix_board\nboard: {board.name}\ntask: count_boards\n", encoding="utf-8")
    assert main(["solve", str(puzzle)]) == 2
    assert one_error_line(capsys).startswith(f"cpwords: error: {expected}")
