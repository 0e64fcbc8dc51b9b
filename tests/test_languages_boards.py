"""Ruzzle best boards beyond a-z: the one-cell neighbourhood search (numpy and compiled) on the
Spanish (27 letters) and German (29) alphabets and with each language's letter values.

Every change score is compared with :class:`BoardScorer` on the changed board, as the English tests
of ``tests/test_ruzzle_climb.py`` do; best boards are re-checked by ``cpwords.verify``.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from cpwords import api, verify
from cpwords.alphabet import GERMAN, ITALIAN, SPANISH, Alphabet
from cpwords.cli import main
from cpwords.puzzles.loading import parse_spec
from cpwords.puzzles.ruzzle.climb import alphabet_of
from cpwords.puzzles.ruzzle.compiled import CompiledNeighbourhood, available
from cpwords.puzzles.ruzzle.neighbourhood import Neighbourhood
from cpwords.puzzles.ruzzle.scoring import BoardScorer

neighbourhoods = [Neighbourhood] + ([CompiledNeighbourhood] if available() else [])
LAYOUTS = [{}, {(1, 1): "TW", (2, 2): "DL"}, {(1, 2): "DW", (2, 1): "TL", (2, 3): "DL"}]
# Letters of each case: the extra ones of the alphabet and the rare, high-value ones (j, z, q ...),
# so that a wrong letter index or a wrong letter value changes the scores.
LETTERS = {"spanish": (SPANISH, "añoejz"), "german": (GERMAN, "äöüezy"), "italian": (ITALIAN, "aeozqu")}


@pytest.mark.parametrize("hood_class", neighbourhoods)
@pytest.mark.parametrize(("language", "case"), list(itertools.product(LETTERS, range(4))))
def test_neighbourhood_equals_scoring_each_changed_board(hood_class: type, language: str, case: int) -> None:
    alphabet_, letters = LETTERS[language]
    rng = random.Random(case)
    rows, cols = rng.choice([(2, 2), (2, 3), (3, 3)])
    words = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(2, 5))) for _ in range(300)})
    layout = {k: v for k, v in LAYOUTS[case % 3].items() if k[0] <= rows and k[1] <= cols}
    scorer = BoardScorer(words, scoring="ruzzle" if case % 4 else "boggle", min_letters=2, rows=rows, cols=cols,
                         bonus_cells=layout, alphabet=alphabet_)
    tiles = alphabet_of(words)
    hood = hood_class(scorer, tiles)
    assert hood.width == alphabet_.size
    boards = [tuple(rng.choice(tiles) for _ in range(rows * cols)) for _ in range(3)]
    base, change = hood.scores(boards)
    assert change.shape == (3, rows * cols, alphabet_.size)
    if hasattr(hood, "score_many"):  # the compiled class's lean walk of whole boards
        assert hood.score_many(boards) == [scorer.score(list(b)) for b in boards]
    for b, board in enumerate(boards):
        assert base[b] == scorer.score(list(board))
        for cell, c in itertools.product(range(rows * cols), range(alphabet_.size)):
            tile = hood.tile_of.get(c)
            if tile is None or board[cell][0] == tile[0]:
                assert change[b, cell, c] == -1
                continue
            assert alphabet_.index[tile[0]] == c
            changed = list(board)
            changed[cell] = tile
            assert change[b, cell, c] == scorer.score(changed), (board, cell, tile)


def _brute_force(scorer: BoardScorer, tiles: list[str], size: int) -> int:
    return max(scorer.score_many(list(itertools.product(tiles, repeat=size))))


@pytest.mark.parametrize("alphabet_", [SPANISH, GERMAN], ids=["spanish", "german"])
def test_best_board_reaches_the_brute_force_optimum(alphabet_: Alphabet) -> None:
    """A 2×2 best board over three letters (one beyond z) is the best of all 81 boards."""
    extra = alphabet_.letters[-1]
    words = ["a" + extra, extra + "a", "e" + extra + "a", "a" + extra + "e", "ea", extra * 2 + "e", "ae" + extra]
    scorer = BoardScorer(words, scoring="ruzzle", rows=2, cols=2, alphabet=alphabet_)
    best = _brute_force(scorer, ["a", "e", extra], 4)
    spec = parse_spec({"kind": "ruzzle", "task": "best_board", "grid": ["ae", "ea"], "iterations": 400, "seed": 1,
                       "dictionary": {"words": words, "language": alphabet_.language}})
    result = api.solve(spec)
    verify.verify(spec, result)
    assert result.objective == best > 0


@pytest.mark.parametrize(("language", "rows"), [("es", ["niño", "gato", "casa", "pera"]),
                                               ("de", ["über", "haus", "baum", "kind"])])
def test_cli_best_board_in_spanish_and_german(language: str, rows: list[str],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The command (before the fix, the climb stopped with a KeyError on ñ / ä), through
    ``cpwords.cli.main``: tests/test_ruzzle_climb.py runs a best board in a fresh interpreter."""
    code = main(["ruzzle", "--dict", language, "--task", "best_board", "--iterations", "150", "--seed", "2", "--json",
                 *rows])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert result["objective"] > 0 and len(result["stats"]["grid"]) == 4


# ---------------------------------------------------------------- prefix/suffix boards in German

GERMAN_SHORT = ["".join(t) for n in (3, 4) for t in itertools.product("aäü", repeat=n)]


@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.sweep) for s in (1, 2))])
def test_prefix_suffix_board_engines_agree_in_german(seed: int) -> None:
    """Words over ä, ü and a: every engine counts the boards and suffix sets alike, and counts what
    it lists (the brute force: CP-SAT enumeration without symmetry breaking, canonicalised)."""
    from cpwords.engines import cpsat as engine
    from cpwords.engines.budget import Budget
    from cpwords.geometry import canonical_form
    from cpwords.puzzles.prefix_suffix_board.cpsat import build_model
    from cpwords.puzzles.prefix_suffix_board.problem import build_problem

    words = random.Random(seed).sample(GERMAN_SHORT, 40)  # 40 of 108: 19 to 126 boards

    def spec(task: str) -> object:
        return parse_spec({"kind": "prefix_suffix_board", "board": "square9", "task": task, "seed": 1,
                           "dictionary": {"words": words, "language": "german"},
                           "prefix_length": [1, 2], "suffix_length": [2, 3]}
                          | ({"limit": None} if task == "enumerate" else {}))

    problem = build_problem(spec("count_boards"))
    model, xs = build_model(problem, None)
    every = engine.enumerate_solutions(model, xs, Budget())
    assert every.complete
    orbits = len({canonical_form(x, problem.layout.group) for x in every.solutions})
    assert orbits > 0
    for name in ("native", "cpsat", "sat"):
        counted = api.solve(spec("count_boards"), engine=name)
        assert (counted.count, counted.stats["raw_count"]) == (orbits, every.count), name
    suffix_sets = {name: api.solve(spec("count_suffix_sets"), engine=name).count for name in ("native", "cpsat", "sat")}
    assert len(set(suffix_sets.values())) == 1, suffix_sets
    listed = api.solve(spec("enumerate"), engine="native")
    verify.verify(spec("enumerate"), listed)
    assert listed.count == orbits and any(ch in "äü" for s in listed.solutions for t in s.tokens.values() for ch in t)
