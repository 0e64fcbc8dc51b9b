"""Fast board scoring: BoardScorer equals the reference (``trie_words`` + ``annealing.board_value``)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.lexicon import Lexicon, load_lexicon
from cpwords.puzzles.ruzzle import scoring as scoring_module
from cpwords.puzzles.ruzzle.annealing import LETTER_FREQUENCIES, board_value
from cpwords.puzzles.ruzzle.board import RUZZLE_LETTER_VALUES, Board
from cpwords.puzzles.ruzzle.scoring import BoardScorer
from cpwords.puzzles.ruzzle.tables import load_trie_tables, trie_tables
from cpwords.puzzles.ruzzle.trie import build_trie, load_trie, trie_words

#: The 16 dice of classic (1976) Boggle; the Q face is a Qu tile.
CLASSIC_DICE = ["aaciot", "abilty", "abjmoq", "acdemp", "acelrs", "adenvz", "ahmors", "biforx",
                "denosw", "dknotu", "eefhiy", "egkluy", "egintv", "ehinps", "elpstu", "gilruw"]
LETTERS, WEIGHTS = list(LETTER_FREQUENCIES), list(LETTER_FREQUENCIES.values())
MULTI = ["qu", "th", "in", "er"]
SCORINGS = ["ruzzle", "boggle", "none"]
BONUS_NAMES = ["DL", "TL", "DW", "TW"]


def roll(rng: random.Random, kind: str, cells: int, alphabet: str = "") -> list[str]:
    """Tiles of a random board: Boggle dice, letters by frequency, with multi-letter tiles, or from ``alphabet``."""
    if kind == "dice":  # all 16 dice in random places (re-used on boards of more than 16 cells)
        dice = [CLASSIC_DICE[i % 16] for i in rng.sample(range(max(cells, 16)), cells)]
        return ["qu" if (face := rng.choice(die)) == "q" else face for die in dice]
    if kind == "letters":
        return rng.choices(LETTERS, WEIGHTS, k=cells)
    if kind == "alphabet":
        return rng.choices(list(alphabet) + MULTI, k=cells)
    tiles = rng.choices(LETTERS, WEIGHTS, k=cells)
    for i in rng.sample(range(cells), rng.randint(1, min(cells, 4))):
        tiles[i] = rng.choice(MULTI)
    return tiles


def random_bonuses(rng: random.Random, rows: int, cols: int) -> dict[tuple[int, int], str]:
    return {(rng.randint(1, rows), rng.randint(1, cols)): rng.choice(BONUS_NAMES) for _ in range(rng.randrange(6))}


def reference(tiles: list[str], rows: int, cols: int, bonuses, trie, min_letters: int, scoring: str) -> int:
    board = Board.from_tiles([tiles[r * cols:(r + 1) * cols] for r in range(rows)], bonuses)
    return board_value(board, trie_words(board, trie, min_letters=min_letters, scoring=scoring), scoring)


@pytest.fixture(scope="module")
def scowl35():
    lex = load_lexicon("scowl-35")
    return lex, load_trie(lex)[0]


# ---------------------------------------------------------------- equal to the reference


@settings(max_examples=200, deadline=None)
@given(
    words=st.lists(st.text(alphabet="aeinrsthqu", min_size=1, max_size=7), max_size=60),
    rows=st.integers(1, 5), cols=st.integers(1, 5), seed=st.integers(0, 10**6),
    scoring=st.sampled_from(SCORINGS), min_letters=st.integers(1, 4), bonuses=st.booleans(),
)
def test_small_random_dictionaries(words, rows, cols, seed, scoring, min_letters, bonuses):
    rng = random.Random(seed)
    trie = build_trie(set(words))
    layout = random_bonuses(rng, rows, cols) if bonuses else {}
    scorer = BoardScorer(trie, scoring=scoring, min_letters=min_letters, rows=rows, cols=cols, bonus_cells=layout)
    boards = [roll(rng, "alphabet", rows * cols, "aeinrsth") for _ in range(5)]
    expected = [reference(b, rows, cols, layout, trie, min_letters, scoring) for b in boards]
    assert [scorer.score(b) for b in boards] == expected
    assert scorer.score_many(boards) == expected


@settings(max_examples=100, deadline=None)
@given(
    rows=st.integers(2, 5), cols=st.integers(2, 5), seed=st.integers(0, 10**6),
    kind=st.sampled_from(["dice", "letters", "multi"]), scoring=st.sampled_from(SCORINGS),
    min_letters=st.integers(2, 4), bonuses=st.booleans(),
)
def test_scowl_35_boards(scowl35, rows, cols, seed, kind, scoring, min_letters, bonuses):
    lex, trie = scowl35
    rng = random.Random(seed)
    layout = random_bonuses(rng, rows, cols) if bonuses else {}
    scorer = BoardScorer(lex, scoring=scoring, min_letters=min_letters, rows=rows, cols=cols, bonus_cells=layout)
    boards = [roll(rng, kind, rows * cols) for _ in range(3)]
    expected = [reference(b, rows, cols, layout, trie, min_letters, scoring) for b in boards]
    assert scorer.score_many(boards) == expected
    assert scorer.score(boards[0]) == expected[0] == scorer.reference_score(boards[0])


@pytest.mark.parametrize("scoring", SCORINGS)
def test_boggle_dice_batches_across_chunks(scowl35, monkeypatch, scoring):
    """A batch split into chunks, mixing boards with and without Qu tiles, with the ruzzle-4x4 layout."""
    lex, trie = scowl35
    monkeypatch.setattr(scoring_module, "CHUNK", 7)
    layout = {(1, 1): "DL", (3, 2): "DL", (1, 4): "TL", (2, 2): "TL", (2, 4): "DW", (3, 3): "DW", (1, 2): "TW"}
    rng = random.Random(7)
    boards = [roll(rng, "dice", 16) for _ in range(40)] + [["qu"] * 16, list("abcdefghijklmnop")]
    assert any("qu" in b for b in boards) and not all("qu" in b for b in boards)
    for bonuses in ({}, layout):
        scorer = BoardScorer(lex, scoring=scoring, min_letters=3, bonus_cells=bonuses)
        expected = [reference(b, 4, 4, bonuses, trie, 3, scoring) for b in boards]
        assert scorer.score_many(boards) == expected
        assert scorer.score_many(reversed(boards)) == expected[::-1]
        assert sum(expected) > 0


def test_each_word_once_and_its_best_path():
    # "aa" is on the board by six paths; with bonuses its best path takes the TL and the TW.
    tiles = ["a", "a", "a", "b"]
    plain = BoardScorer(["aa", "aab", "ba"], scoring="none", min_letters=2, rows=2, cols=2)
    assert plain.score(tiles) == 3
    boggle = BoardScorer(["aa", "aab", "aaab"], scoring="boggle", min_letters=2, rows=2, cols=2)
    assert boggle.score(tiles) == 0 + 1 + 1
    layout = {(1, 1): "TL", (1, 2): "TW", (2, 1): "DW"}
    ruzzle = BoardScorer(["aa"], scoring="ruzzle", min_letters=2, rows=2, cols=2, bonus_cells=layout)
    assert ruzzle.score(tiles) == (3 + 1) * 3 == ruzzle.reference_score(tiles)
    assert RUZZLE_LETTER_VALUES["a"] == 1


# ---------------------------------------------------------------- fallbacks and edge cases


def test_large_board_and_huge_multipliers_use_the_reference():
    words = ["tea", "eat", "ate", "tee", "teat", "treat", "rate", "tear", "terra"]
    trie = build_trie(words)
    rng = random.Random(3)
    big = rng.choices("taer", k=64)  # 8x8: more cells than an int64 used-cells mask
    scorer = BoardScorer(trie, scoring="boggle", min_letters=3, rows=8, cols=8)
    assert scorer.score(big) == reference(big, 8, 8, {}, trie, 3, "boggle") > 0
    tiles = rng.choices("taer", k=63)  # 63 cells: the most the array search takes
    widest = BoardScorer(trie, scoring="none", min_letters=3, rows=7, cols=9)
    assert widest.score(tiles) == reference(tiles, 7, 9, {}, trie, 3, "none") > 0
    # 7x9 with a TW everywhere: 3**63 would overflow int64, so the reference scores it exactly.
    layout = {(r, c): "TW" for r in range(1, 8) for c in range(1, 10)}
    heavy = BoardScorer(trie, scoring="ruzzle", min_letters=3, rows=7, cols=9, bonus_cells=layout)
    assert heavy.score_many([tiles]) == [reference(tiles, 7, 9, layout, trie, 3, "ruzzle")]


def test_edge_cases():
    empty = BoardScorer(build_trie([]), scoring="none", min_letters=1, rows=2, cols=2)
    assert empty.score("abcd") == 0 and empty.score_many([]) == []
    one = BoardScorer(["a", "ab", "q", "qu"], scoring="none", min_letters=1, rows=1, cols=1)
    assert one.score(["a"]) == 1 and one.score(["qu"]) == 1 and one.score(["z"]) == 0  # a path takes whole tiles
    long_tiles = BoardScorer(["inter", "tine"], scoring="boggle", min_letters=3, rows=1, cols=3)
    assert long_tiles.score(["in", "ter", "x"]) == long_tiles.score(["x", "ter", "in"]) == 2
    assert long_tiles.score(["in", "x", "ter"]) == 0


def test_input_forms_and_errors():
    layout = {(1, 1): "DW"}
    scorer = BoardScorer(["cat", "cats", "act", "quit"], scoring="ruzzle", rows=2, cols=2, bonus_cells=layout)
    value = scorer.score(["c", "a", "t", "s"])
    board = Board.from_tiles([["c", "a"], ["t", "s"]], layout)
    assert scorer.score(board) == scorer.score([["c", "a"], ["t", "s"]]) == scorer.score(["ca", "ts"]) == value
    assert scorer.score("CATS") == scorer.score(("c", "a", "t", "s")) == value
    assert scorer.score("quitx") == scorer.score(["qu", "i", "t", "x"]) == scorer.reference_score("quitx") > 0
    assert scorer.min_letters == 2 and BoardScorer(["cat"], scoring="boggle").min_letters == 3
    with pytest.raises(ValueError, match="2x2 board"):
        scorer.score("catsx")
    with pytest.raises(ValueError, match="letters a-z"):
        scorer.score(["c", "a", "t", "é"])
    with pytest.raises(ValueError, match="letters a-z"):
        scorer.score(["c", "a", "t", "1"])
    with pytest.raises(ValueError, match="bonus squares differ"):
        scorer.score(Board.from_tiles([["c", "a"], ["t", "s"]]))
    with pytest.raises(ValueError, match="2x2 board"):
        scorer.score(Board.from_tiles([["c", "a", "t"]]))
    boggle = BoardScorer(["cat", "cats", "act"], scoring="boggle", rows=2, cols=2)  # bonuses do not matter
    assert boggle.score(board) == boggle.score("cats") == 3
    with pytest.raises(ValueError, match="bad bonus square"):
        BoardScorer(["cat"], rows=2, cols=2, bonus_cells={(3, 1): "DL"})
    with pytest.raises(ValueError, match="unknown scoring"):
        BoardScorer(["cat"], scoring="scrabble")


# ---------------------------------------------------------------- the tables


def test_tables_match_the_trie_and_come_back_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path))
    words = ["cat", "cats", "act", "quit", "quite", "at", "zebra", "a"]
    lex = Lexicon.from_words(words, name="t")
    trie = build_trie(lex)
    tables = trie_tables(trie)
    states = {0: ""}  # state -> prefix, walking the trie from the root
    queue = [0]
    while queue:
        s = queue.pop()
        mask = 0
        for letter in range(26):
            child = trie.child(s, letter)
            if child >= 0:
                mask |= 1 << letter
                states[child] = states[s] + chr(97 + letter)
                queue.append(child)
        assert tables.kids[s] == mask
    for s, prefix in states.items():
        assert tables.depth[s] == len(prefix)
        assert tables.letter_sum[s] == sum(RUZZLE_LETTER_VALUES[ch] for ch in prefix)
        assert bool(tables.is_word[s]) == (prefix in words)
    _, first = load_trie_tables(lex)
    _, again = load_trie_tables(lex)  # from the cache
    for name in ("base", "check", "kids", "is_word", "depth", "letter_sum"):
        assert np.array_equal(getattr(first, name), getattr(tables, name))
        assert np.array_equal(getattr(again, name), getattr(tables, name))
