"""Fair prefix/suffix boards (``generate`` with ``unique`` / ``max_completions``): the completions of
every board's view are re-counted by a brute-force enumeration that shares nothing with the
search (string concatenation against the word list, plain backtracking, canonical forms under the
board's symmetries) and by the other engines; answers pass ``cpwords.verify``."""

from __future__ import annotations

import json

import pytest

import cpwords
from cpwords import verify
from cpwords.cli import main
from cpwords.puzzles.prefix_suffix_board import native
from cpwords.puzzles.prefix_suffix_board.fair import completions
from cpwords.puzzles.prefix_suffix_board.problem import build_problem
from cpwords.puzzles.prefix_suffix_board.spec import FAIR_DICTIONARY, PrefixSuffixBoardSpec
from cpwords.results import Status


def brute_force_completions(problem, tokens: dict[str, str]) -> int:
    """Boards modulo symmetry with these suffixes: every choice of prefixes that makes a word on
    every edge, prefixes different, no word twice, counted by canonical form."""
    lay = problem.layout
    words = set(problem.tokens.words)
    names = lay.names
    suffix_at = {n: tokens[names[n]] for n in lay.suffix_nodes}
    slots = list(lay.prefix_nodes)
    options = [[p for p in problem.tokens.prefixes if all(p + suffix_at[s] in words for s in lay.suffixes_of(n))]
               for n in slots]
    forms = set()

    def fill(k: int, chosen: list[str]) -> None:
        if k == len(slots):
            text = dict(suffix_at) | dict(zip(slots, chosen, strict=True))
            edge_words = [text[p] + text[s] for p, s in lay.edges]
            if len(set(edge_words)) == len(edge_words):
                vector = [text[n] for n in range(problem.nodes)]
                forms.add(min(tuple(vector[g.perm[j]] for j in range(problem.nodes)) for g in lay.group))
            return
        for p in options[k]:
            if p not in chosen:
                fill(k + 1, [*chosen, p])

    fill(0, [])
    return len(forms)


def recheck(spec, result, most: int) -> None:
    assert verify.check(spec, result) == [], verify.check(spec, result)
    problem = build_problem(spec)
    search = native.BoardSearch(problem)
    for sol in result.solutions:
        brute = brute_force_completions(problem, sol.tokens)
        assert brute == sol.completions and 1 <= brute <= most, (brute, sol.completions)
        vector = tuple(problem.tokens.suffix_id[sol.tokens[problem.layout.names[n]]] for n in search.suffix_nodes)
        for engine in ("native", "cpsat", "sat"):
            assert completions(problem, vector, engine, search, cpwords.engines.budget.Budget()) == brute
        assert sol.difficulty is not None and sol.difficulty.figures["completions"] == brute


# every board's completions are re-counted by every engine (recheck): the generator's own engine
# beyond the native one runs under `sweep`
@pytest.mark.parametrize("engine", ["native", *(pytest.param(e, marks=pytest.mark.sweep) for e in ("cpsat", "sat"))])
def test_unique_boards(engine: str) -> None:
    spec = PrefixSuffixBoardSpec.model_validate({"kind": "prefix_suffix_board", "task": "generate", "unique": True,
                                                 "count": 2, "seed": 3, "engine": engine})
    assert spec.dictionary.label() == FAIR_DICTIONARY and spec.max_completions == 1
    result = cpwords.solve(spec)
    assert result.status is Status.OPTIMAL and len(result.solutions) == 2
    assert result.stats["completions_engine"] == engine
    recheck(spec, result, 1)


def test_at_most_k_completions_and_plain_generate() -> None:
    spec = PrefixSuffixBoardSpec.model_validate({"kind": "prefix_suffix_board", "task": "generate",
                                                 "max_completions": 3, "count": 2, "seed": 5,
                                                 "dictionary": "common-10k"})
    assert spec.dictionary.label() == "common-10k"  # a dictionary the spec names is kept
    result = cpwords.solve(spec)
    recheck(spec, result, 3)
    plain = PrefixSuffixBoardSpec.model_validate({"kind": "prefix_suffix_board", "task": "generate", "seed": 5,
                                                  "dictionary": "common-5k"})
    got = cpwords.solve(plain)
    problem = build_problem(plain)
    sol = got.solutions[0]
    assert sol.completions == brute_force_completions(problem, sol.tokens) >= 1


def test_bad_options(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    for extra, field in (({"task": "count_boards", "unique": True}, "unique"),
                         ({"unique": True, "max_completions": 3}, "max_completions"),
                         ({"max_completions": 0}, "max_completions")):
        path = tmp_path / "board.yaml"
        path.write_text(json.dumps({"kind": "prefix_suffix_board", "task": "generate", **extra}))
        assert main(["solve", str(path)]) == 2
        err = capsys.readouterr().err
        assert field in err and "Traceback" not in err, err
        assert len(err.strip().splitlines()) == 1
