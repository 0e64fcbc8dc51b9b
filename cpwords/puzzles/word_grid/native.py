"""Native word-grid search: backtracking over slots with per-position letter bitsets.

For each slot length, position and letter, a Python int has bit k set when the k-th word (in
the search order) has that letter there. A slot's candidates are the AND of the masks of its
already-known letters; the slot with the fewest candidates is filled next (most constrained
first), and a slot with none ends the branch.

Example
-------
>>> from cpwords.puzzles.word_grid.problem import prepare
>>> from cpwords.puzzles.word_grid.spec import WordGridSpec
>>> problem = prepare(WordGridSpec(shape="ring-3x3", distinct_words=False,
...                                dictionary={"words": ["cat", "cot", "tot", "tat", "toe", "tee"]}))
>>> search = GridSearch(problem, {3: list(range(len(problem.words[3])))})
>>> problem.rows_of(problem.letters_of_words(next(search.solutions())))
['cat', 'a#o', 'toe']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from cpwords.alphabet import ENGLISH, Alphabet
from cpwords.engines.budget import Budget, SearchTimeout
from cpwords.puzzles.word_grid.problem import GridProblem


def letter_masks(words: list[str], order: list[int], alphabet: Alphabet = ENGLISH) -> list[list[int]]:
    """``masks[p][ch]``: bit k set when word ``order[k]`` has letter ``ch`` at position p.

    Built with numpy (bits packed into bytes, read as one integer): a restart of ``generate``
    builds them for a new random order, and a Python loop over every letter of a 15,000-word
    list took a fifth of a second.

    >>> letter_masks(["ab", "ba"], [1, 0])[0][1]  # "ba" is word 0 of the order: bit 0
    1
    """
    if not order:
        return []
    n = len(words[order[0]])
    codes = alphabet.codes("".join(words[w] for w in order))
    letters = np.frombuffer(codes, dtype=np.uint8).reshape(len(order), n)
    return [[_bits(letters[:, p] == ch) for ch in range(alphabet.size)] for p in range(n)]


def _bits(flags: np.ndarray) -> int:
    """The integer whose bit k is ``flags[k]``."""
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


class GridSearch:
    """Backtracking search over one :class:`GridProblem`.

    Parameters
    ----------
    problem:
        The prepared puzzle.
    orders:
        Per slot length, the word ids in the order the search tries them (random for
        ``generate``, by frequency for ``fill``, by rareness for the ``common`` objective).
    budget:
        The run's budget; the search raises :class:`~cpwords.engines.budget.SearchTimeout` once it is spent.
    """

    def __init__(self, problem: GridProblem, orders: dict[int, list[int]], budget: Budget | None = None) -> None:
        self.p = problem
        self.orders = orders
        self.budget = budget or Budget()
        self.masks = {n: letter_masks(problem.words[n], orders[n], problem.alphabet) for n in orders}
        self.rank = {n: {wid: k for k, wid in enumerate(order)} for n, order in orders.items()}
        self.base = []
        ranks: dict[int, np.ndarray] = {}
        for n, order in orders.items():
            ranks[n] = np.empty(len(problem.words[n]), dtype=np.int64)
            ranks[n][np.asarray(order, dtype=np.int64)] = np.arange(len(order))
        for s, slot in enumerate(problem.slots):
            flags = np.zeros(len(orders[len(slot)]), dtype=bool)
            flags[ranks[len(slot)][np.asarray(problem.candidates[s], dtype=np.int64)]] = True
            self.base.append(_bits(flags))
        self.letters = [-1] * len(problem.cells)
        self.nodes = 0
        self.slot_cells = [list(enumerate(slot)) for slot in problem.slots]

    def _check_time(self) -> None:
        self.nodes += 1
        if self.nodes % 256 == 0:
            self.budget.check()

    def _candidates(self, s: int, used: dict[int, int]) -> int:
        n = len(self.p.slots[s])
        m = self.base[s]
        masks = self.masks[n]
        letters = self.letters
        for p, c in self.slot_cells[s]:
            ch = letters[c]
            if ch >= 0:
                m &= masks[p][ch]
                if not m:
                    return 0
        if self.p.distinct:
            m &= ~used[n]
        return m

    def solutions(self) -> Iterator[list[int]]:
        """Every grid (one word id per slot), in search order. Raises SearchTimeout when the budget is spent."""
        chosen = [-1] * len(self.p.slots)
        used = dict.fromkeys(self.orders, 0)
        yield from self._extend(chosen, used)

    def _pick(self, chosen: list[int], used: dict[int, int]) -> tuple[int, int]:
        best_s, best_m, best_n = -1, 0, -1
        for s in range(len(chosen)):
            if chosen[s] >= 0:
                continue
            m = self._candidates(s, used)
            k = m.bit_count()
            if k == 0:
                return s, 0
            if best_n < 0 or k < best_n:
                best_s, best_m, best_n = s, m, k
        return best_s, best_m

    def _place(self, s: int, k: int) -> list[int]:
        word = self.p.words[len(self.p.slots[s])][self.orders[len(self.p.slots[s])][k]]
        newly = []
        for p, c in self.slot_cells[s]:
            if self.letters[c] < 0:
                self.letters[c] = self.p.alphabet.index[word[p]]
                newly.append(c)
        return newly

    def _extend(self, chosen: list[int], used: dict[int, int]) -> Iterator[list[int]]:
        self._check_time()
        s, m = self._pick(chosen, used)
        if s < 0:
            yield [self.orders[len(self.p.slots[t])][k] for t, k in enumerate(chosen)]
            return
        n = len(self.p.slots[s])
        while m:
            low = m & -m
            m ^= low
            k = low.bit_length() - 1
            newly = self._place(s, k)
            chosen[s] = k
            used[n] |= low
            yield from self._extend(chosen, used)
            used[n] &= ~low
            chosen[s] = -1
            for c in newly:
                self.letters[c] = -1

    def least_rare(
        self, costs: dict[int, list[int]], accept: Callable[[list[int]], bool]
    ) -> tuple[list[int] | None, int | None, bool]:
        """Branch and bound: the grid of least total cost among those ``accept(word_ids)`` allows.

        Returns (word ids per slot or None, its cost, whether the search finished within the budget).

        ``orders`` must list the words by increasing cost, so that a slot's cheapest candidate is
        its lowest set bit: the sum of those over the open slots bounds what is left.
        """
        best: list[list[int] | None] = [None]
        best_cost: list[int | None] = [None]
        rank_cost = {n: [costs[n][wid] for wid in order] for n, order in self.orders.items()}
        chosen = [-1] * len(self.p.slots)
        used = dict.fromkeys(self.orders, 0)

        def bound(cost: int) -> int | None:
            total = cost
            for t in range(len(chosen)):
                if chosen[t] < 0:
                    m = self._candidates(t, used)
                    if not m:
                        return None
                    total += rank_cost[len(self.p.slots[t])][(m & -m).bit_length() - 1]
            return total

        def extend(cost: int) -> None:
            self._check_time()
            b = bound(cost)
            if b is None or (best_cost[0] is not None and b >= best_cost[0]):
                return
            s, m = self._pick(chosen, used)
            if s < 0:
                ids = [self.orders[len(self.p.slots[t])][k] for t, k in enumerate(chosen)]
                if accept(ids):
                    best[0], best_cost[0] = ids, cost
                return
            n = len(self.p.slots[s])
            while m:
                low = m & -m
                m ^= low
                k = low.bit_length() - 1
                if best_cost[0] is not None and cost + rank_cost[n][k] >= best_cost[0]:
                    break  # candidates come by increasing cost
                newly = self._place(s, k)
                chosen[s] = k
                used[n] |= low
                extend(cost + rank_cost[n][k])
                used[n] &= ~low
                chosen[s] = -1
                for c in newly:
                    self.letters[c] = -1

        try:
            extend(0)
        except SearchTimeout:
            return best[0], best_cost[0], False
        return best[0], best_cost[0], True
