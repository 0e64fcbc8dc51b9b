"""Independent checker for ``kind: ruzzle``: re-checks each word from the rules alone.

For each word: the path stays on the board, moves one king step at a time, never reuses a
cell and spells the word (multi-letter tiles such as ``qu`` included); the word is in the
dictionary and long enough; its score is recomputed from the tables, and no other path
spelling the same word scores more (found by a small search of this module's own).
"""

from __future__ import annotations

from cpwords.puzzles.ruzzle.board import BONUS_MULTIPLIERS, RUZZLE_LETTER_VALUES, parse_row


def _points(word_cells: list[tuple[int, int]], tiles: list[list[str]], bonus: dict, scoring: str) -> int:
    """Points of the word on these 1-based cells, straight from the scoring tables."""
    if scoring == "none":
        return 0
    word = "".join(tiles[r - 1][c - 1] for r, c in word_cells)
    n = len(word)
    if scoring == "boggle":
        return 0 if n < 3 else 1 if n <= 4 else 2 if n == 5 else 3 if n == 6 else 5 if n == 7 else 11
    total, factor = 0, 1
    for r, c in word_cells:
        letter_mult, word_mult = BONUS_MULTIPLIERS.get(bonus.get((r, c), ""), (1, 1))
        total += sum(RUZZLE_LETTER_VALUES[ch] for ch in tiles[r - 1][c - 1]) * letter_mult
        factor *= word_mult
    return total * factor + (5 * (n - 4) if n > 4 else 0)


def _all_paths(word: str, tiles: list[list[str]]) -> list[list[tuple[int, int]]]:
    """Every path of 1-based cells that spells ``word``."""
    rows, cols = len(tiles), len(tiles[0])
    out: list[list[tuple[int, int]]] = []

    def grow(path: list[tuple[int, int]], at: int) -> None:
        if at == len(word):
            out.append(list(path))
            return
        r0, c0 = path[-1]
        for r in range(max(1, r0 - 1), min(rows, r0 + 1) + 1):
            for c in range(max(1, c0 - 1), min(cols, c0 + 1) + 1):
                tile = tiles[r - 1][c - 1]
                if (r, c) not in path and word.startswith(tile, at):
                    path.append((r, c))
                    grow(path, at + len(tile))
                    path.pop()

    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            if word.startswith(tiles[r - 1][c - 1]):
                grow([(r, c)], len(tiles[r - 1][c - 1]))
    return out


def check(spec, solution) -> list[str]:
    """Rule violations of one found word (empty when it is right)."""
    from cpwords.lexicon import load_lexicon

    problems: list[str] = []
    tiles = [parse_row(row) for row in (solution.grid or spec.grid)]
    rows, cols = len(tiles), len(tiles[0])
    word = solution.word
    if solution.words != [word]:
        problems.append(f"words {solution.words} should be [{word!r}]")
    cells = [tuple(p) for p in solution.path]
    if any(len(p) != 2 or not (1 <= p[0] <= rows and 1 <= p[1] <= cols) for p in cells):
        return problems + [f"{word}: path {solution.path} leaves the {rows}x{cols} board"]
    if len(set(cells)) != len(cells):
        problems.append(f"{word}: path reuses a cell")
    for (r0, c0), (r1, c1) in zip(cells, cells[1:], strict=False):
        if max(abs(r0 - r1), abs(c0 - c1)) != 1:
            problems.append(f"{word}: [{r0}, {c0}] to [{r1}, {c1}] is not a king move")
    spelled = "".join(tiles[r - 1][c - 1] for r, c in cells)
    if spelled != word:
        problems.append(f"{word}: the path spells {spelled!r}")
    if word not in load_lexicon(spec.dictionary):
        problems.append(f"{word}: not in the dictionary")
    if len(word) < spec.min_letters():
        problems.append(f"{word}: shorter than {spec.min_letters()} letters")
    if problems:
        return problems
    bonus = spec.bonus_cells() if spec.scoring == "ruzzle" else {}
    if solution.score != _points(cells, tiles, bonus, spec.scoring):
        problems.append(f"{word}: score {solution.score} should be {_points(cells, tiles, bonus, spec.scoring)}")
    best = max(_points(p, tiles, bonus, spec.scoring) for p in _all_paths(word, tiles))
    if best > solution.score:
        problems.append(f"{word}: another path scores {best}, more than {solution.score}")
    return problems
