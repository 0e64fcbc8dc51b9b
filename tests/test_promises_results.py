"""Issue 23, "nothing lost": a batch with a bad document, damaged cache files, a time limit that
comes early, answers found before a limit, generators that contradict themselves, inputs that
would exhaust memory. Each case runs the command as a user does (a subprocess).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from pace import HANG_S, contention
from test_promises_files import cpwords, one_error

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# ---------------------------------------------------------------- 4. a batch with one bad document

BATCH = """\
kind: letter_boxed
sides: [abc, def, ghi, jkl]
---
kind: ladder
start: cold
target: xyzq
---
kind: ladder
start: cold
target: warm
mode: shortest
---
kind: ladder
start: cold
targett: warm
"""


def _line_of(text: str) -> int:
    """The line of BATCH where ``text`` stands (errors name the line of the field at fault)."""
    return next(i for i, line in enumerate(BATCH.splitlines(), 1) if line.startswith(text))


def test_a_batch_solves_every_good_document_and_names_each_bad_one(tmp_path: Path) -> None:
    path = tmp_path / "batch.yaml"
    path.write_text(BATCH)
    run = cpwords("solve", str(path))
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    errors = run.stderr.splitlines()
    assert errors == [f"cpwords: error: {path}:{_line_of('target: xyzq')}: field 'target', value 'xyzq': "
                      "not a word of scowl-70",
                      f"cpwords: error: {path}:{_line_of('targett')}: field 'targett', value 'warm': unknown field; "
                      "allowed fields: "
                      + errors[1].split("allowed fields: ")[-1]], errors
    assert run.stdout.count("engine native") == 2  # the first and the third are solved and shown
    assert "cold" in run.stdout and "warm" in run.stdout


def test_a_batch_in_json_has_an_entry_with_its_error_for_each_bad_document(tmp_path: Path) -> None:
    path = tmp_path / "batch.yaml"
    path.write_text(BATCH)
    run = cpwords("solve", str(path), "--json")
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    entries = json.loads(run.stdout)
    assert [e["status"] for e in entries] == ["optimal", "error", "optimal", "error"]
    assert entries[1]["line"] == _line_of("target: xyzq") and entries[1]["field"] == "target"
    assert "xyzq" in entries[1]["error"]
    assert entries[3]["line"] == _line_of("targett") and entries[3]["source"] == str(path)
    assert entries[3]["field"] == "targett"
    assert entries[2]["solutions"][0]["words"][0] == "cold"


def test_a_single_bad_document_is_still_one_line(tmp_path: Path) -> None:
    path = tmp_path / "one.yaml"
    path.write_text("kind: ladder\nstart: cold\ntarget: xyzq\n")
    one_error(cpwords("solve", str(path)), naming="xyzq")


# ---------------------------------------------------------------- 10. a damaged cache file


def test_damaged_cache_files_are_rebuilt_with_a_warning(tmp_path: Path) -> None:
    env = {**os.environ, "CPWORDS_CACHE_DIR": str(tmp_path)}
    first = cpwords("ladder", "cold", "warm", "--seed", "1", "--json", env=env)
    assert first.returncode == 0, first.stderr
    cached = [p for p in tmp_path.iterdir() if not p.name.endswith(".lock")]
    assert any(p.name.startswith("ladder-alias-") for p in cached)
    for path in cached:
        path.write_bytes(os.urandom(200))
    damaged = cpwords("ladder", "cold", "warm", "--seed", "1", "--json", env=env)
    assert damaged.returncode == 0 and "Traceback" not in damaged.stderr, damaged.stderr
    assert "damaged cache file" in damaged.stderr
    assert json.loads(damaged.stdout)["solutions"] == json.loads(first.stdout)["solutions"]
    again = cpwords("ladder", "cold", "warm", "--seed", "1", "--json", env=env)  # rebuilt: no warning any more
    assert again.returncode == 0 and again.stderr == "", again.stderr


# ---------------------------------------------------------------- 11. a limit before anything is found


@pytest.mark.parametrize("limit", ["0.05", "0.2"])
def test_a_board_solve_with_a_tiny_time_limit_is_a_clean_result(limit: str, tmp_path: Path) -> None:
    env = {**os.environ, "CPWORDS_CACHE_DIR": str(tmp_path)}  # an empty cache: the limit comes early
    run = cpwords("solve", str(EXAMPLES / "prefix_suffix_board_solve.yaml"), "--engine", "native",
                  "--time-limit", limit, "--json", env=env)
    assert "Traceback" not in run.stderr and "SearchTimeout" not in run.stderr, run.stderr
    result = json.loads(run.stdout)
    assert run.returncode in (0, 1)
    assert result["status"] in ("unknown", "optimal", "feasible")


# ---------------------------------------------------------------- 6. generators that contradict themselves


def test_a_board_generator_never_uses_the_plural_of_a_word_it_left_out() -> None:
    """'pasties' survived the plural rule once 'pastie' (offensive) was left out; the checker,
    judging plurals by the whole dictionary, then refused the board."""
    run = cpwords("board", "--dict", "scowl-80", "--generate", "16", "--seed", "1695442809", "--json",
                  timeout=HANG_S)
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout)
    assert result["status"] in ("optimal", "feasible") and len(result["solutions"]) == 16, result.get("message")
    assert not any(w == "pasties" for s in result["solutions"] for w in s["words"])


def test_plurals_are_judged_before_offensive_words_go() -> None:
    from cpwords.lexicon import Lexicon

    lex = Lexicon.from_words(["pastie", "pasties", "cat", "cats", "dog"])
    kept = lex.filtered(drop_plurals=True, exclude={"pastie"})
    assert sorted(kept) == ["cat", "dog"]


@pytest.mark.parametrize("argv", [
    ["grid", "--generate", "0"], ["board", "--generate", "0"], ["grid", "--enumerate", "0"],
    ["board", "--enumerate", "0"], ["spelling-bee", "--task", "generate", "--puzzles", "0"],
    ["letter-boxed", "--puzzles", "0"], ["grid", "--generate", "-3"],
])
def test_asking_for_zero_puzzles_is_refused_everywhere(argv: list[str]) -> None:
    run = cpwords(*argv)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "must be at least 1" in run.stderr and len(run.stderr.splitlines()) == 1, run.stderr


# ---------------------------------------------------------------- 12. memory


def _limit_memory(megabytes: int) -> object:
    def apply() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (megabytes * 1024**2, megabytes * 1024**2))
    return apply


def test_a_ladder_of_20000_letter_words_is_refused_at_once() -> None:
    long_a, long_b = "a" * 20_000, "b" * 20_000
    run = cpwords("ladder", long_a, long_b, timeout=HANG_S, preexec_fn=_limit_memory(1500))
    one_error(run, naming="20,000 letters")


def test_a_word_longer_than_the_dictionary_s_longest_gets_no_suggestion_search() -> None:
    run = cpwords("ladder", "a" * 40, "b" * 40, "--dict", "scowl-10")
    one_error(run, naming="the dictionary's longest word")


@pytest.mark.parametrize("rows", [5, pytest.param(8, marks=pytest.mark.sweep)])
def test_an_open_grid_count_under_a_memory_limit_is_a_result(rows: int, tmp_path: Path) -> None:
    """5×5: the sum-product's plans are refused before their arrays are made (once 6 GB: issue 24,
    item 5), and grids are listed to the limit; 8×8: the partitions of sixteen slots of one length
    (10**10) are refused before they are listed, and the count runs to its limit."""
    shape = tmp_path / f"open{rows}.yaml"
    shape.write_text("rows:\n" + "".join(f'  - "{"." * rows}"\n' for _ in range(rows)))
    run = cpwords("grid", "--shape", str(shape), "--count", "--time-limit", "3", timeout=HANG_S,
                  preexec_fn=_limit_memory(1500))
    assert "Traceback" not in run.stderr and "Fatal Python error" not in run.stderr, run.stderr[-3000:]
    assert run.returncode in (0, 1), run.stderr[-3000:]


# ---------------------------------------------------------------- 5. answers found before a limit are kept


def _checked_all(spec_path: Path, stdout: str) -> dict[str, object]:
    """The JSON result, after every answer in it (checked by cpwords or not) is re-checked here."""
    import cpwords
    from cpwords import puzzles
    from cpwords.results import Result

    data = json.loads(stdout)
    spec = cpwords.load(spec_path)[0]
    kind = puzzles.get(spec.kind)
    solutions = Result.model_validate(data).solutions
    assert kind.checker_all is not None  # the all-at-once checker: tens of thousands of words in seconds
    assert kind.load(kind.checker_all)(spec, solutions) == {}
    return data


def test_a_ladder_that_starts_after_its_limit_lists_what_it_finds(tmp_path: Path) -> None:
    """The first use of a list (loading it, the engines' first imports, the index build) can take
    the whole limit, within the builds' grace: the ladders the search then finds are listed, not
    dropped. Here the search always starts after the limit, whatever the machine: the index is in
    the cache and the limit is a millisecond. (A build too big for the grace stops and says so:
    tests/test_first_use_builds.py.)"""
    words = tmp_path / "words.txt"
    words.write_text("cold\ncord\ncard\nward\nwarm\nword\nworm\ncorm\nwold\nwild\nmild\n")
    env = {**os.environ, "CPWORDS_CACHE_DIR": str(tmp_path / "cache")}
    argv = ("ladder", "cold", "warm", "--dict", str(words), "--all", "--json")
    assert cpwords(*argv, env=env).returncode == 0  # the first use: the index into the cache
    run = cpwords(*argv, "--time-limit", "0.001", env=env)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    ladders = {tuple(s["words"]) for s in result["solutions"]}
    assert ladders == {("cold", "cord", "card", "ward", "warm"), ("cold", "cord", "corm", "worm", "warm"),
                       ("cold", "cord", "word", "ward", "warm"), ("cold", "cord", "word", "worm", "warm"),
                       ("cold", "wold", "word", "ward", "warm"), ("cold", "wold", "word", "worm", "warm")}


def test_a_huge_ruzzle_board_keeps_every_word_found_and_marks_the_unchecked(tmp_path: Path) -> None:
    import random

    small = tmp_path / "small.yaml"
    small.write_text("kind: ruzzle\ngrid: [cats, dogs]\n")
    assert cpwords("solve", str(small)).returncode == 0  # the dictionary's trie in the cache: a warm start
    rng = random.Random(1)
    path = tmp_path / "big.yaml"
    path.write_text("kind: ruzzle\ngrid:\n" + "".join(
        "  - " + "".join(rng.choice("etaoinsrhldcum") for _ in range(200)) + "\n" for _ in range(200)))
    # A second of search as on an idle machine (11,000 words found on one; 25,000 in three seconds):
    # more than 2,048 words (the old cap) are found however busy the machine is.
    limit = 1 * contention()
    run = cpwords("solve", str(path), "--time-limit", f"{limit:.2f}", "--json", timeout=HANG_S)
    assert run.returncode == 0, run.stderr
    result = _checked_all(path, run.stdout)
    solutions = result["solutions"]
    assert isinstance(solutions, list) and len(solutions) == result["count"] and len(solutions) > 2048
    stats = result["stats"]
    assert isinstance(stats, dict)
    if "unchecked" in stats:  # the check was cut short: the rest is kept, after the checked ones
        assert stats["unchecked_from"] + stats["unchecked"] == len(solutions)
        assert "shown unchecked" in str(result["message"])


def test_an_enumeration_cut_by_its_limit_keeps_the_unchecked_rest(tmp_path: Path) -> None:
    path = tmp_path / "box.yaml"
    path.write_text("kind: letter_boxed\nsides: [paf, uot, mie, xlr]\ntask: enumerate\nmax_words: 4\nlimit: null\n")
    # a second: 62,000 answers of millions (216,000 in three seconds, the same promises, 4 s longer)
    run = cpwords("solve", str(path), "--time-limit", "1", "--json", timeout=HANG_S)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["status"] == "feasible" and len(result["solutions"]) > 1
    # Every answer found is listed (issue 34, G5: "N more answers were found but not listed" is gone).
    assert len(result["solutions"]) == result["count"] and "not listed" not in result["message"]
    stats = result["stats"]
    checked = stats.get("unchecked_from", len(result["solutions"]))
    assert checked + stats.get("unchecked", 0) == len(result["solutions"])
    # On a busy machine the listing can end past the check's half second: nothing is checked
    # then, and the message says so (every answer is still there, shown unchecked).
    assert checked >= 1 or "no time for the check" in result["message"], result["message"]
