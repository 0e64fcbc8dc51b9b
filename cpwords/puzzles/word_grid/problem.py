"""A word-grid puzzle prepared for the engines: cells, slots, candidate words, symmetry.

Every engine works on the same :class:`GridProblem`: open cells numbered in reading order,
slots as tuples of cell numbers, per slot length the word list (with rareness), per slot the
candidate word ids (words that fit the given letters), and the symmetry group that keeps the
givens in place.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from cpwords.alphabet import ENGLISH, Alphabet
from cpwords.errors import InputError
from cpwords.geometry import GridShape, Symmetry, grid_word_symmetries, load_grid
from cpwords.puzzles.word_grid.spec import BLACK_MARK, WordGridSpec


@dataclass
class GridProblem:
    """The data every engine needs.

    Attributes
    ----------
    shape: the grid shape.
    cells: open cells, 0-based (row, col), in reading order; a cell's number is its index here.
    slots: each slot's cells (cell numbers), across slots first, then down.
    slot_names: ``across r,c`` / ``down r,c`` (1-based start cell), for messages.
    words: slot length -> words of that length (word id = index).
    rareness: slot length -> rareness of each word (same order).
    candidates: per slot, the ids of the words that fit its given letters (ascending).
    given: cell number -> given letter index (0-25 for a-z; the alphabet's index).
    group: the symmetries (permutations of cell numbers) that keep slots readable and givens in place.
    distinct: no word twice.
    costs: what the ``common`` objective minimises, when not ``rareness`` itself (see :func:`seeded_costs`).
    alphabet: the dictionary's letters; letter indices are indices into it.
    """

    shape: GridShape
    cells: list[tuple[int, int]]
    slots: list[tuple[int, ...]]
    slot_names: list[str]
    words: dict[int, list[str]]
    rareness: dict[int, list[int]]
    candidates: list[list[int]]
    given: dict[int, int]
    group: list[Symmetry]
    distinct: bool
    crossings: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    costs: dict[int, list[int]] | None = None
    alphabet: Alphabet = ENGLISH

    def objective_costs(self) -> dict[int, list[int]]:
        """Per slot length, each word's cost under the ``common`` objective."""
        return self.costs if self.costs is not None else self.rareness

    def slot_length(self, s: int) -> int:
        """Number of cells of slot ``s``."""
        return len(self.slots[s])

    def rows_of(self, letters: list[int] | list[str]) -> list[str]:
        """The grid as row strings (``#`` for black cells) from one letter per cell."""
        grid = [[BLACK_MARK] * self.shape.width for _ in range(self.shape.height)]
        for (r, c), ch in zip(self.cells, letters, strict=True):
            grid[r][c] = self.alphabet.letters[ch] if isinstance(ch, int) else str(ch)
        return ["".join(row) for row in grid]

    def words_of(self, letters: list[int]) -> list[str]:
        """The slot words (in slot order) of a grid given as one letter index per cell."""
        return ["".join(self.alphabet.letters[letters[c]] for c in slot) for slot in self.slots]

    def letters_of_words(self, word_ids: list[int]) -> list[int]:
        """One letter index per cell from one word id per slot."""
        letters = [0] * len(self.cells)
        index = self.alphabet.index
        for s, slot in enumerate(self.slots):
            word = self.words[len(slot)][word_ids[s]]
            for cell, ch in zip(slot, word, strict=True):
                letters[cell] = index[ch]
        return letters


def grid_shape(spec: WordGridSpec) -> GridShape:
    """The spec's shape (a shipped name, or a file already resolved at validation)."""
    return load_grid(spec.shape)


def parse_rows(rows: list[str], shape: GridShape, *, field_name: str,
               alphabet: Alphabet = ENGLISH) -> dict[tuple[int, int], str]:
    """Letters of ``rows`` (given or scrambled) by 0-based cell; checks they fit the shape.

    Raises
    ------
    InputError
        Wrong number or length of rows, a letter on a black cell, ``#`` on an open cell.
    """
    if len(rows) != shape.height or any(len(r) != shape.width for r in rows):
        raise InputError(f"must be {shape.height} rows of {shape.width} characters to match shape "
                         f"{shape.name!r}", field=field_name, value=rows)
    letters = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == BLACK_MARK:
                if shape.is_open(r, c):
                    raise InputError(f"'#' at [{r + 1}, {c + 1}] but that cell of {shape.name!r} is open",
                                     field=field_name, value=row)
            elif not shape.is_open(r, c):
                raise InputError(f"[{r + 1}, {c + 1}] is a black cell of {shape.name!r}; write '#' there",
                                 field=field_name, value=row)
            elif ch in alphabet.index:
                letters[(r, c)] = ch
    return letters


def word_lists(spec: WordGridSpec, lengths: set[int]) -> tuple[dict[int, list[str]], dict[int, list[int]]]:
    """Words of each needed length (most frequent first) and their rareness."""
    from cpwords.lexicon import lexicon_for

    lexicon = lexicon_for(spec)  # generate: no offensive words unless the spec says
    every = lexicon.rareness_array() if lengths else None  # one pass, not a look-up a word
    words, rareness = {}, {}
    for n in sorted(lengths):
        words[n] = lexicon.by_length(n)
        rareness[n] = every[lexicon.ids_of_length(n)].tolist() if every is not None else []
    return words, rareness


def prepare(spec: WordGridSpec, *, given_rows: list[str] | None = None) -> GridProblem:
    """Build the :class:`GridProblem` of a spec.

    Raises
    ------
    InputError
        A shape without slots, givens that do not fit the shape, a slot length the dictionary lacks.
    """
    shape = grid_shape(spec)
    cells = shape.open_cells()
    index = {cell: i for i, cell in enumerate(cells)}
    runs = shape.slots()
    if not runs:
        raise InputError("the shape has no slot (no run of two or more open cells)", field="shape", value=spec.shape)
    covered = {c for _, run in runs for c in run}
    lonely = [c for c in cells if c not in covered]
    if lonely:
        r, c = lonely[0]
        raise InputError(f"open cell [{r + 1}, {c + 1}] belongs to no slot; make it black or join it to a run",
                         field="shape", value=spec.shape)
    slots = [tuple(index[c] for c in run) for _, run in runs]
    names = [f"{d} {run[0][0] + 1},{run[0][1] + 1}" for d, run in runs]
    alphabet = spec.alphabet()
    rows = given_rows if given_rows is not None else spec.given
    letter = alphabet.index
    given = ({index[c]: letter[ch] for c, ch in parse_rows(rows, shape, field_name="given", alphabet=alphabet).items()}
             if rows else {})
    words, rareness = word_lists(spec, {len(s) for s in slots})
    for n, ws in words.items():
        if not ws:
            raise InputError(f"the dictionary has no {n}-letter words, which the shape needs",
                             field="dictionary", value=spec.dictionary.label())
    candidates = []
    for slot in slots:
        fixed = [(p, given[c]) for p, c in enumerate(slot) if c in given]
        ws = words[len(slot)]
        candidates.append([i for i, w in enumerate(ws) if all(letter[w[p]] == ch for p, ch in fixed)] if fixed
                          else list(range(len(ws))))
    group = [g for g in grid_word_symmetries(shape)
             if all(given.get(g.perm[c]) == ch for c, ch in given.items())]
    crossings: dict[int, list[tuple[int, int]]] = {}
    for s, slot in enumerate(slots):
        for p, c in enumerate(slot):
            crossings.setdefault(c, []).append((s, p))
    seeded = spec.task == "generate" and spec.objective == "common"
    costs = seeded_costs(rareness, spec.seed) if seeded and spec.seed is not None else None
    return GridProblem(shape, cells, slots, names, words, rareness, candidates, given, group,
                       spec.distinct_words, crossings, costs, alphabet)


#: ``generate`` with the ``common`` objective scales each word's rareness by a seeded factor in
#: [1, COST_SPREAD): different seeds give different grids, each within COST_SPREAD times the least
#: total rareness (the chosen grid G and the least rare O: 100 R(G) <= C(G) <= C(O) < 100 COST_SPREAD R(O)).
COST_SPREAD = 1.5


def seeded_costs(rareness: dict[int, list[int]], seed: int) -> dict[int, list[int]]:
    """Costs ``100 * rareness * u`` (rounded down, ``u`` uniform in [1, COST_SPREAD) by ``seed``):
    integers, so both engines optimise them exactly; the factor 100 lets words of rareness 1 (the
    commonest) differ too.

    >>> seeded_costs({3: [1, 1, 20]}, 7) == seeded_costs({3: [1, 1, 20]}, 7)
    True
    >>> all(100 * r <= c < 150 * r for r, c in zip([1, 1, 20], seeded_costs({3: [1, 1, 20]}, 7)[3]))
    True
    """
    rng = random.Random(seed)
    return {n: [int(100 * r * (1 + (COST_SPREAD - 1) * rng.random())) for r in rareness[n]]
            for n in sorted(rareness)}


def shuffled_order(n: int, rng: random.Random) -> list[int]:
    """A random permutation of range(n)."""
    order = list(range(n))
    rng.shuffle(order)
    return order


def arc_consistent(problem: GridProblem, candidates: list[list[int]]) -> list[list[int]] | None:
    """Drop candidate words whose letter at a crossing no candidate of the crossing slot shares.

    Repeats until nothing changes. Returns the pruned candidate lists, or None when a slot is
    left without candidates (no grid exists with these candidates).
    """
    cands = [list(c) for c in candidates]
    letter = problem.alphabet.index
    changed = True
    while changed:
        changed = False
        for users in problem.crossings.values():
            if len(users) < 2:
                continue
            allowed = set(range(problem.alphabet.size))
            for s, p in users:
                words = problem.words[len(problem.slots[s])]
                allowed &= {letter[words[w][p]] for w in cands[s]}
            for s, p in users:
                words = problem.words[len(problem.slots[s])]
                kept = [w for w in cands[s] if letter[words[w][p]] in allowed]
                if len(kept) != len(cands[s]):
                    if not kept:
                        return None
                    cands[s] = kept
                    changed = True
    return cands
