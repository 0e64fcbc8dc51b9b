"""The player's board of a word-grid puzzle: scrambles with a chosen par, colours, the
trivial-first-move rule and the difficulty. Plain functions over letter vectors (one letter
index per open cell of a :class:`~cpwords.puzzles.word_grid.problem.GridProblem`); no solver here.

Colours (Waffle's): a cell is green when it holds its answer letter. Otherwise each slot through
it has a pool: the answer letters of the slot's non-green cells. The slot's non-green cells are
read in order (left to right, top to bottom) and a cell whose letter is still in the pool takes it
out; such a cell is yellow (its letter belongs elsewhere in a word through it), the others grey.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache

from cpwords.puzzles.word_grid.problem import GridProblem
from cpwords.results import Difficulty, difficulty_level

GREEN, YELLOW, GREY, BLACK = "g", "y", "-", "#"

#: Difficulty bands of a board's score (see :func:`difficulty`): medium from 78, hard from 86, about a
#: third each of 5x5 par-10 puzzles (measured on 20 seeded ones: scores 65 to 92); 7x7 par-20
#: boards score 91 to 96, all hard.
DIFFICULTY_BANDS = (78.0, 86.0)


def movable_cells(problem: GridProblem) -> list[int]:
    """The cells a scramble may move: every open cell but the shape's fixed ones."""
    fixed = set(problem.shape.fixed)
    return [i for i, (r, c) in enumerate(problem.cells) if (r + 1, c + 1) not in fixed]


def scramble_with_cycles(answer: Sequence[int], cells: Sequence[int], par: int, rng: random.Random,
                         tries: int = 20) -> list[int] | None:
    """A scramble of ``answer`` that moves some of ``cells`` along cycles (a permutation with
    ``par`` = moved cells − cycles), every moved cell getting a letter other than its own.

    The other cells keep their letters (they will be green). With repeated letters the fewest
    swaps may be fewer than ``par`` (the letters allow more cycles); the caller proves it.
    Returns None when no such scramble was found in ``tries`` random draws.
    """
    most_cycles = min(par, len(cells) - par)
    if most_cycles < 1:
        return None
    for _ in range(tries):
        cycles = rng.randint(1, most_cycles)
        moved = rng.sample(list(cells), par + cycles)
        # cut the moved cells into `cycles` runs of two or more
        cuts = sorted(rng.sample(range(1, par), cycles - 1)) if cycles > 1 else []
        lengths = [b - a + 1 for a, b in zip([0, *cuts], [*cuts, par], strict=True)]
        scrambled = list(answer)
        start = 0
        for length in lengths:
            cycle = moved[start:start + length]
            start += length
            for k, cell in enumerate(cycle):
                scrambled[cell] = answer[cycle[(k + 1) % length]]
        if all(scrambled[c] != answer[c] for c in moved):
            return scrambled
    return None


def fewest_swaps_by_cycles(moves: Sequence[tuple[int, int]]) -> int:
    """Fewest swaps for letter moves (scrambled letter → answer letter, one per wrong cell): the
    moves minus the most cycles they split into, searched exhaustively over simple cycles of
    letters (memoised on the moves left). A fast exact filter before the CP-SAT proof.

    >>> fewest_swaps_by_cycles([(0, 1), (1, 0), (1, 2), (2, 1)])  # two 2-cycles
    2
    >>> fewest_swaps_by_cycles([(0, 1), (1, 2), (2, 0)])
    2
    """

    @cache
    def most_cycles(state: tuple[tuple[tuple[int, int], int], ...]) -> int:
        left = Counter(dict(state))
        if not left:
            return 0
        a, b = min(left)
        best = 0
        stack = [(b, [(a, b)])]
        while stack:  # every simple cycle of letters through the edge (a, b)
            at, path = stack.pop()
            if at == a:
                rest = left.copy()
                rest.subtract(path)
                best = max(best, 1 + most_cycles(tuple(sorted((e, k) for e, k in rest.items() if k))))
                continue
            seen = {x for x, _ in path}
            for (x, y), k in left.items():
                if x == at and k and (y == a or y not in seen) and Counter(path)[(x, y)] < k:
                    stack.append((y, [*path, (x, y)]))
        return best

    return len(moves) - most_cycles(tuple(sorted(Counter(moves).items())))


def colours(problem: GridProblem, answer: Sequence[int], scrambled: Sequence[int]) -> list[str]:
    """One colour per cell (``g``, ``y`` or ``-``) by the rule of the module docstring."""
    out = [GREEN if a == s else GREY for a, s in zip(answer, scrambled, strict=True)]
    for slot in problem.slots:
        pool = Counter(answer[c] for c in slot if out[c] != GREEN)
        for c in slot:
            if out[c] != GREEN and pool[scrambled[c]] > 0:
                pool[scrambled[c]] -= 1
                out[c] = YELLOW
    return out


def colour_rows(problem: GridProblem, cell_colours: Sequence[str]) -> list[str]:
    """The colours as row strings, ``#`` on black cells."""
    grid = [[BLACK] * problem.shape.width for _ in range(problem.shape.height)]
    for (r, c), colour in zip(problem.cells, cell_colours, strict=True):
        grid[r][c] = colour
    return ["".join(row) for row in grid]


def yellow_places(problem: GridProblem, scrambled: Sequence[int], cell_colours: Sequence[str]) -> dict[int, list[int]]:
    """For each yellow cell, the cells its letter may go to by the colours alone.

    A place is a non-green cell, other than the yellow cell, of a slot through it, that does
    not hold the same letter (that cell's letter is not its own), and no slot through which
    rules the letter out: a slot rules a letter out when one of its cells shows that letter grey
    and none shows it yellow (its pool has no such letter left).
    """
    through: dict[int, list[int]] = {}
    for s, slot in enumerate(problem.slots):
        for c in slot:
            through.setdefault(c, []).append(s)

    def rules_out(s: int, letter: int) -> bool:
        shown = {cell_colours[c] for c in problem.slots[s] if scrambled[c] == letter and cell_colours[c] != GREEN}
        return GREY in shown and YELLOW not in shown

    places: dict[int, list[int]] = {}
    for y, colour in enumerate(cell_colours):
        if colour != YELLOW:
            continue
        letter = scrambled[y]
        options = {c for s in through[y] for c in problem.slots[s]
                   if c != y and cell_colours[c] != GREEN and scrambled[c] != letter}
        places[y] = sorted(c for c in options if not any(rules_out(s, letter) for s in through[c]))
    return places


def has_trivial_first_move(places: dict[int, list[int]]) -> bool:
    """hellpig's rule: a yellow letter with only one place it can go, by the colours alone, is a
    first move the player need not think about; a published board has none."""
    return any(len(options) == 1 for options in places.values())


def cycle_lengths(scrambled: Sequence[int], answer: Sequence[int], swaps: Sequence[Sequence[Sequence[int]]],
                  problem: GridProblem) -> list[int]:
    """The lengths of the cycles an optimal swap sequence closes (a k-cycle takes k − 1 swaps),
    longest first: the swaps are grouped into chains that share cells."""
    index = {(r + 1, c + 1): i for i, (r, c) in enumerate(problem.cells)}
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in swaps:
        parent[root(index[(a[0], a[1])])] = root(index[(b[0], b[1])])
    sizes = Counter(root(x) for x in list(parent))
    return sorted(sizes.values(), reverse=True)


def difficulty(problem: GridProblem, answer: Sequence[int], scrambled: Sequence[int], cell_colours: Sequence[str],
               places: dict[int, list[int]], cycles: list[int]) -> Difficulty:
    """How hard the board is, once par is fixed: how little the colours tell.

    Score = 100 × (greys + yellows × (1 − 1/average places)) / movable cells: a grey cell's
    letter could go anywhere, a yellow one to one of its places, a green one is done. The
    figures: movable cells, greens among them, yellows, greys, average places of a yellow
    letter, cycles of the swap problem and the longest one (fewer, longer cycles: fewer
    swaps that put two letters right at once).
    """
    movable = movable_cells(problem)
    greens = sum(1 for c in movable if cell_colours[c] == GREEN)
    yellows = sum(1 for c in movable if cell_colours[c] == YELLOW)
    greys = sum(1 for c in movable if cell_colours[c] == GREY)
    average = sum(len(p) for p in places.values()) / len(places) if places else 0.0
    vague = greys + (yellows * (1 - 1 / average) if average else 0.0)
    score = round(100 * vague / max(1, len(movable)), 1)
    figures: dict[str, int | float] = {
        "movable": len(movable), "greens": greens, "yellows": yellows, "greys": greys,
        "yellow_places": round(average, 2), "cycles": len(cycles), "longest_cycle": max(cycles, default=0)}
    return Difficulty(level=difficulty_level(score, *DIFFICULTY_BANDS), score=score, figures=figures)
