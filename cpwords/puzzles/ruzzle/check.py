"""Independent checker for ``kind: ruzzle``: re-checks each word from the rules alone.

For each word: the path stays on the board, moves one king step at a time, never reuses a
cell and spells the word (multi-letter tiles such as ``qu`` included); the word is in the
dictionary and long enough; its score is recomputed from the tables, and no other path
spelling the same word scores more (found by a small search of this module's own).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from operator import attrgetter
from typing import Any

from cpwords.lexicon import load_lexicon
from cpwords.puzzles.ruzzle.board import BONUS_MULTIPLIERS, RUZZLE_LETTER_VALUES, letter_values, parse_row
from cpwords.wording import counted


def _tiles(spec: Any, grid: Sequence[Any]) -> list[list[str]]:
    """Rows of tiles, folded onto the alphabet of the spec's dictionary (as the solver reads them)."""
    fold = spec.alphabet().fold
    return [[fold(t) for t in parse_row(row)] for row in grid]


def _values(spec: Any) -> dict[str, int]:
    return letter_values(spec.alphabet().language)


def _points(word_cells: list[tuple[int, int]], tiles: list[list[str]], bonus: dict, scoring: str,
            values: dict[str, int] = RUZZLE_LETTER_VALUES) -> int:
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
        total += sum(values[ch] for ch in tiles[r - 1][c - 1]) * letter_mult
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


def check(spec: Any, solution: Any) -> list[str]:
    """Rule violations of one found word (empty when it is right)."""
    problems: list[str] = []
    tiles = _tiles(spec, solution.grid or spec.grid)
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
        problems.append(f"{word}: shorter than {counted(spec.min_letters(), 'letter')}")
    if problems:
        return problems
    bonus = spec.bonus_cells() if spec.scoring == "ruzzle" else {}
    points = _points(cells, tiles, bonus, spec.scoring, _values(spec))
    if solution.score != points:
        problems.append(f"{word}: score {solution.score} should be {points}")
    best = max(_points(p, tiles, bonus, spec.scoring, _values(spec)) for p in _all_paths(word, tiles))
    if best > solution.score:
        problems.append(f"{word}: another path scores {best}, more than {solution.score}")
    return problems


def check_all(spec: Any, solutions: Sequence[Any]) -> dict[int, list[str]]:
    """Rule violations of every word of one result, by the index of its solution (only the
    solutions with problems are keys).

    The rules of :func:`check`, applied to all the words of a board at once with array operations
    (a board has hundreds of words; checking them one by one cost three times the search). Under
    Ruzzle scoring with bonus squares, the words whose score is below an upper bound of any of
    their paths' scores (each tile on its best square) have all their paths searched together.
    The words these tests flag go through :func:`check`, which says what is wrong; so do all the
    words of a board the arrays cannot hold (malformed paths, scores beyond 64 bits).
    """
    grids = [s.grid for s in solutions]
    boards: dict[tuple[str, ...] | None, list[int]] = {}
    if not any(grids):  # the spec's board (every task but best_board)
        boards[None] = list(range(len(solutions)))
    else:
        for i, grid in enumerate(grids):
            boards.setdefault(tuple(grid) if grid else None, []).append(i)
    problems: dict[int, list[str]] = {}
    for grid, indexes in boards.items():
        group = [solutions[i] for i in indexes]
        try:
            flagged = _flagged(spec, _tiles(spec, grid or spec.grid), group)
        except (TypeError, ValueError, IndexError, OverflowError):
            flagged = list(range(len(group)))  # malformed answers: the one-by-one check says what is wrong
        for k in flagged:
            found = check(spec, group[k])
            if found:
                problems[indexes[k]] = found
    return problems


def _flagged(spec: Any, tiles: list[list[str]], solutions: list[Any]) -> list[int]:
    """Indexes of the solutions that may break a rule (a superset of those that do)."""
    import numpy as np

    rows, cols = len(tiles), len(tiles[0])
    if any(len(row) != cols for row in tiles):
        raise ValueError("the grid is not rectangular")
    size = rows * cols
    flat_tiles = [t for row in tiles for t in row]
    words, paths, scores, lists = zip(*map(_FIELDS, solutions), strict=True)
    n = len(words)
    bad, cell, starts, lengths = _path_flags(words, paths, lists, rows, cols)
    word_len = np.fromiter(map(len, words), dtype=np.int64, count=n)
    bad |= _misspelled(words, word_len, cell, starts, flat_tiles)
    bad |= word_len < spec.min_letters()
    lexicon = load_lexicon(spec.dictionary)
    if not all(map(lexicon.__contains__, words)):
        bad |= np.fromiter((w not in lexicon for w in words), dtype=bool, count=n)
    score = np.fromiter(scores, dtype=np.int64, count=n)
    bonus = spec.bonus_cells() if spec.scoring == "ruzzle" else {}
    if spec.scoring == "ruzzle":
        gain, factor = _cell_points(flat_tiles, bonus, cols, _values(spec))
        longest = int(lengths.max())
        if int(factor.max()) ** longest * int(gain.max()) * longest >= 2**62:
            raise OverflowError("path scores (or their bounds) may not fit in 64 bits")
        letters = np.add.reduceat(gain[cell], starts)
        product = np.multiply.reduceat(factor[cell], starts)
        expected = letters * product + 5 * np.maximum(0, word_len - 4)
    elif spec.scoring == "boggle":
        expected = np.array([_points_of_length(k) for k in range(int(word_len.max()) + 1)])[word_len]
    else:
        expected = np.zeros(n, dtype=np.int64)
    bad |= score != expected
    if bonus:
        # No other path scores more. Each tile of a word is on some square holding that tile, so
        # no path beats the best letter points and the best word multiplier of each tile's
        # squares: a word at that bound needs no search. The others are searched all together,
        # one tile of every word a step. (When one tile is a prefix of another, as "q" and "qu",
        # a word may split into tiles in several ways: then the one-word search of ``check``.)
        if _prefix_free(flat_tiles) and size < 63:
            best_gain, best_factor = _best_of_same_tile(flat_tiles, gain, factor)
            bound = (np.add.reduceat(best_gain[cell], starts) * np.multiply.reduceat(best_factor[cell], starts)
                     + 5 * np.maximum(0, word_len - 4))
            search = np.flatnonzero(~bad & (bound > score))
            if search.size:
                best = _best_path_points(search, cell, starts, lengths, flat_tiles, gain, factor, rows, cols)
                bad[search[best + 5 * np.maximum(0, word_len[search] - 4) > score[search]]] = True
        else:
            for i in np.flatnonzero(~bad).tolist():
                if max(_points(p, tiles, bonus, "ruzzle", _values(spec)) for p in _all_paths(words[i], tiles)) > scores[i]:
                    bad[i] = True
    return np.flatnonzero(bad).tolist()


def _path_flags(words: tuple[str, ...], paths: tuple[Any, ...], lists: tuple[Any, ...], rows: int,
                cols: int) -> tuple[Any, Any, Any, Any]:
    """The paths as arrays, and which break a rule of their own: ``(bad, cell, starts, lengths)``,
    per solution whether its path is empty, leaves the board, reuses a cell or makes a step that
    is no king move (or its word list is not its word); every step's row-major cell (0 off the
    board); where each path starts among them and its length (an empty path given one dummy cell).

    Raises ValueError when a step is not a [row, col] pair."""
    import numpy as np

    n, size = len(words), rows * cols
    bad = np.zeros(n, dtype=bool)
    lengths = np.fromiter(map(len, paths), dtype=np.int64, count=n)
    if not lengths.all():  # an empty path: flagged, and given one dummy cell for the arrays
        bad[lengths == 0] = True
        paths = tuple(p if p else [[1, 1]] for p in paths)
        lengths[lengths == 0] = 1
    if [[w] for w in words] != list(lists):
        bad |= np.fromiter((ws != [w] for ws, w in zip(lists, words, strict=True)), dtype=bool, count=n)
    pairs = list(chain.from_iterable(paths))
    if set(map(len, pairs)) != {2}:
        raise ValueError("a path step is not a [row, col] pair")
    rc = np.fromiter(chain.from_iterable(pairs), dtype=np.int64, count=2 * len(pairs))
    r, c = rc[0::2], rc[1::2]
    seg = np.repeat(np.arange(n), lengths)
    starts = np.zeros(n, dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    off_board = (r < 1) | (r > rows) | (c < 1) | (c > cols)
    bad[seg[off_board]] = True
    cell = np.where(off_board, 0, (r - 1) * cols + (c - 1))
    # A cell used twice in one path.
    key = np.sort(seg * size + cell)
    bad[key[1:][key[1:] == key[:-1]] // size] = True
    # A step that is not one king move.
    same = seg[1:] == seg[:-1]
    step = np.maximum(np.abs(np.diff(r)), np.abs(np.diff(c)))
    bad[seg[1:][same & (step != 1)]] = True
    return bad, cell, starts, lengths


def _misspelled(words: tuple[str, ...], word_len: Any, cell: Any, starts: Any, flat_tiles: list[str]) -> Any:
    """Per solution, whether the letters of its path fail to spell its word: one comparison of both
    texts put end to end, then of each word's share where they differ."""
    import numpy as np

    n = len(words)
    spelled = "".join(map(flat_tiles.__getitem__, cell.tolist()))
    joined = "".join(words)
    if spelled == joined:
        return np.zeros(n, dtype=bool)
    tile_len = np.array([len(t) for t in flat_tiles], dtype=np.int64)
    spelled_end = np.cumsum(np.add.reduceat(tile_len[cell], starts)).tolist()
    word_end = np.cumsum(word_len).tolist()
    return np.fromiter((spelled[a:b] != joined[x:y] for a, b, x, y in zip(
        [0, *spelled_end[:-1]], spelled_end, [0, *word_end[:-1]], word_end, strict=True)), dtype=bool, count=n)


_FIELDS = attrgetter("word", "path", "score", "words")


def _points_of_length(n: int) -> int:
    """Boggle points of a word of ``n`` letters (the same table as :func:`_points`)."""
    return 0 if n < 3 else 1 if n <= 4 else 2 if n == 5 else 3 if n == 6 else 5 if n == 7 else 11


def _cell_points(flat_tiles: list[str], bonus: dict, cols: int,
                 values: dict[str, int] = RUZZLE_LETTER_VALUES) -> tuple[Any, Any]:
    """Per cell (row-major): its tile's letter points times its letter bonus; its word multiplier."""
    import numpy as np

    gain, factor = [], []
    for i, tile in enumerate(flat_tiles):
        letter_mult, word_mult = BONUS_MULTIPLIERS.get(bonus.get((i // cols + 1, i % cols + 1), ""), (1, 1))
        gain.append(sum(values[ch] for ch in tile) * letter_mult)
        factor.append(word_mult)
    return np.array(gain, dtype=np.int64), np.array(factor, dtype=np.int64)


def _best_of_same_tile(flat_tiles: list[str], gain: Any, factor: Any) -> tuple[Any, Any]:
    """Per cell: the most letter points and the largest word multiplier among the cells holding its tile."""
    import numpy as np

    best: dict[str, tuple[int, int]] = {}
    for tile, g, f in zip(flat_tiles, gain.tolist(), factor.tolist(), strict=True):
        g0, f0 = best.get(tile, (0, 0))
        best[tile] = (max(g0, g), max(f0, f))
    return (np.array([best[t][0] for t in flat_tiles], dtype=np.int64),
            np.array([best[t][1] for t in flat_tiles], dtype=np.int64))


def _prefix_free(flat_tiles: list[str]) -> bool:
    """True when no tile on the board is a proper prefix of another (a word splits into tiles one way)."""
    distinct = set(flat_tiles)
    return not any(t[:k] in distinct for t in distinct for k in range(1, len(t)))


def _best_path_points(search: Any, cell: Any, starts: Any, lengths: Any, flat_tiles: list[str], gain: Any,
                      factor: Any, rows: int, cols: int) -> Any:
    """For the words ``search`` (indexes into the path arrays), the most points (before the length
    bonus) of any path with their tiles in their order: a breadth-first search of all of them at
    once, each live path a row of arrays (word, last cell, used cells, letter points, multiplier).

    Only for boards of at most 62 cells (the used cells are an int64 mask) whose tiles split a
    word one way only, so the tiles of the word's own path are the tiles of every path of it.
    """
    import numpy as np

    size = rows * cols
    tile_ids = {t: k for k, t in enumerate(dict.fromkeys(flat_tiles))}
    tile_of = np.array([tile_ids[t] for t in flat_tiles] + [-1], dtype=np.int64)  # last: the padding cell
    near = _king_moves(rows, cols)
    gain_of, factor_of = np.append(gain, 0), np.append(factor, 1)
    # Shortest words first: the live paths stay in word order, so the paths of the words that
    # end at a step are a prefix of the arrays.
    order = np.argsort(lengths[search], kind="stable")
    search = search[order]
    length = lengths[search]
    longest = int(length[-1])
    ends = np.searchsorted(length, np.arange(longest + 1), side="right")  # words of at most k tiles
    position = np.minimum(starts[search][:, None] + np.arange(longest), len(cell) - 1)
    sequence = tile_of[cell[position]]  # each word's tiles in order (junk past its end: never read)
    word, at = np.nonzero(tile_of[None, :size] == sequence[:, :1])
    used = np.left_shift(1, at)
    points, product = gain_of[at], factor_of[at]
    finished_words, finished_points = [], []
    for k in range(1, longest + 1):
        cut = int(np.searchsorted(word, ends[k]))
        finished_words.append(word[:cut])
        finished_points.append(points[:cut] * product[:cut])
        word, at, used, points, product = word[cut:], at[cut:], used[cut:], points[cut:], product[cut:]
        if not word.size:
            break
        nb = near[at]
        row, col = np.nonzero((tile_of[nb] == sequence[word, k][:, None]) & ((used[:, None] >> nb) & 1 == 0))
        at = nb[row, col]
        word, used = word[row], used[row] | np.left_shift(1, at)
        points, product = points[row] + gain_of[at], product[row] * factor_of[at]
    best = np.zeros(len(search), dtype=np.int64)
    np.maximum.at(best, np.concatenate(finished_words), np.concatenate(finished_points))
    out = np.empty_like(best)
    out[order] = best  # back in the order of ``search`` as given
    return out


@lru_cache(maxsize=16)
def _king_moves(rows: int, cols: int) -> Any:
    """Per cell (row-major) its king-move neighbours, padded to 8 with the cell ``rows * cols``."""
    import numpy as np

    size = rows * cols
    near = np.full((size + 1, 8), size, dtype=np.int64)
    for i in range(size):
        r, c = divmod(i, cols)
        cells = [rr * cols + cc for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                 if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < cols]
        near[i, :len(cells)] = cells
    return near
