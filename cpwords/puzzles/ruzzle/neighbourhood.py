"""Scores of every board one tile away from a board, from one search (the hill climber's neighbours).

Scoring the ``cells × 25`` boards that differ from a board in one cell one by one repeats almost all
of the work: the words away from the changed cell are the same on all of them. Here one breadth-first
trie search (the array search of :mod:`cpwords.puzzles.ruzzle.scoring`) walks the board's own paths
and, in the same frontier, the paths that read *one* cell as any other tile of the alphabet (a
*wildcard* step, tagged with the cell and the tile). Then for a change of cell ``i`` to tile ``t``:

* the words kept are those with a path of the board's own letters that avoids ``i`` (the union of
  the unused-cell masks of a word's paths says which cells it can avoid);
* the words gained are those with a path through ``i`` read as ``t`` that were not kept.

So one search of a few times the cost of scoring one board gives every one-cell change's exact
score, as :meth:`BoardScorer.score` would (the tests compare them). With Ruzzle bonus squares a word
scores its best path: the best kept path (per word and avoided cell) against the best gained one.

A tile is replaced by the alphabet's tile of another first letter (``qu`` stands for ``q``, the
Boggle rule): change scores are indexed by cell and first letter (its index in the dictionary's
alphabet: 26 letters in English, 27 in Spanish, 29 in German), -1 where there is no change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cpwords.puzzles.ruzzle.board import letter_values, tile_value
from cpwords.puzzles.ruzzle.scoring import _SENTINEL, MAX_CELLS, BoardScorer


class Neighbourhood:
    """One-cell changes of boards scored together (see the module).

    Parameters
    ----------
    scorer:
        The board scorer whose dictionary, scoring rule, shape and bonus squares apply.
    alphabet:
        The tiles a cell may take, of distinct first letters (``["a", ..., "qu", ...]``).

    Raises
    ------
    ValueError
        Two tiles of the alphabet with the same first letter, or a board of more than 63 cells.

    Example
    -------
    >>> s = BoardScorer(["cat", "cot", "cats"], scoring="boggle", min_letters=3, rows=2, cols=2)
    >>> hood = Neighbourhood(s, list("acost"))
    >>> base, change = hood.scores([("c", "a", "t", "s")])
    >>> int(base[0]), int(change[0, 1, ord("o") - 97]), int(change[0, 1, 0])
    (2, 1, -1)
    """

    def __init__(self, scorer: BoardScorer, alphabet: Sequence[str]) -> None:
        if scorer.size > MAX_CELLS:
            raise ValueError(f"boards of more than {MAX_CELLS} cells are not supported")
        firsts = [t[0] for t in alphabet]
        if len(set(firsts)) != len(firsts):
            raise ValueError(f"the alphabet's tiles need distinct first letters: {list(alphabet)}")
        self.scorer = scorer
        self.alphabet = list(alphabet)
        index = scorer.alphabet.index
        #: Letters of the dictionary's alphabet: the last axis of the change scores.
        self.width = scorer.alphabet.size
        self._bits = np.arange(self.width, dtype=np.int64)
        self.values = letter_values(scorer.alphabet.language)  # as the scorer's (bonus squares)
        self.tile_of: dict[int, str] = {index[t[0]]: t for t in alphabet}
        self._mask = sum(1 << c for c in self.tile_of)
        # Later letters of multi-letter tiles (``qu``: u), by first letter.
        self._rest = {c: [index[ch] for ch in t[1:]] for c, t in self.tile_of.items() if len(t) > 1}
        self._tile_points = np.zeros(self.width, dtype=np.int64)
        for c, t in self.tile_of.items():
            self._tile_points[c] = tile_value(t, self.values)

    # ------------------------------------------------------------------ public

    def scores(self, boards: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
        """The value of each board and of each of its one-cell changes.

        Returns
        -------
        ``(base, change)``: ``base[b]`` the value of board ``b``; ``change[b, i, c]`` the value of
        board ``b`` with cell ``i`` set to the alphabet's tile of first letter number ``c``, or -1
        where that is no change (no such tile, or the cell already starts with that letter).
        """
        s = self.scorer
        n, width = s.size, s.size + 1
        flat_boards = [list(b) for b in boards]
        codes = [s._codes(t) for b in flat_boards for t in b]
        letters = np.full((len(boards), width), _SENTINEL, dtype=np.int64)
        letters[:, :n] = np.array([c[0] for c in codes], dtype=np.int64).reshape(len(boards), n)
        longest = max(len(c) for c in codes)
        extra = None
        if longest > 1:
            padded = np.full((len(boards), width, longest), -1, dtype=np.int64)
            for k, c in enumerate(codes):
                padded[k // n, k % n, :len(c)] = c
            extra = padded.reshape(-1, longest)
        gain = None
        if s._bonus:
            values = np.array([tile_value(t, self.values) for b in flat_boards for t in b], dtype=np.int64)
            gain = np.zeros((len(boards), width), dtype=np.int64)
            gain[:, :n] = values.reshape(len(boards), n) * s._letter_mult[:n]
        found = self._search(letters, extra, gain)
        return self._totals(len(boards), letters, *found)

    # ------------------------------------------------------------------ search

    def _follow(self, state: np.ndarray, rest: np.ndarray) -> np.ndarray:
        """Indices of the paths that go on through their tile's later letters (``rest``: -1 padded
        columns of letter codes), ``state`` advanced in place."""
        base, check = self.scorer.tables.base, self.scorer.tables.check
        alive = np.ones(len(state), dtype=bool)
        for j in range(rest.shape[1]):
            going = np.flatnonzero(alive & (rest[:, j] >= 0))
            if not going.size:
                continue
            s = state[going]
            nxt = base[s] + rest[going, j]
            hit = check[nxt] == s
            alive[going[~hit]] = False
            state[going[hit]] = nxt[hit]
        return np.flatnonzero(alive)

    def _wild_rest(self, letter: np.ndarray) -> np.ndarray | None:
        """The later letters of the alphabet's tile for each first letter, or None (single letters)."""
        if not self._rest:
            return None
        longest = max(len(r) for r in self._rest.values())
        table = np.full((self.width, longest), -1, dtype=np.int64)
        for c, r in self._rest.items():
            table[c, :len(r)] = r
        return table[letter]

    def _search(self, letters: np.ndarray, extra: np.ndarray | None,
                gain: np.ndarray | None) -> tuple[list[np.ndarray], ...]:
        """Every trie path of the boards with at most one wildcard cell: per level, the paths'
        trie states, boards, wildcard tags (cell * width + letter, -1 for none), unused-cell masks
        and, with bonus squares, path scores."""
        s = self.scorer
        base, kids, neighbours, clear, word_mult = s.tables.base, s.tables.kids, s._neighbours, s._clear, s._word_mult
        width, flat = letters.shape[1], letters.ravel()
        n = width - 1
        bonus = gain is not None
        gain_flat: Any = gain.ravel() if gain is not None else None
        cell, board, state, wild, total, factor = self._starts(letters, extra, gain_flat)
        free = clear[cell]
        seen: tuple[list[np.ndarray], ...] = ([], [], [], [], [])

        def record() -> None:
            ok = s._accept[state]
            for store, values in zip(seen, (state, board, wild, free, total * factor if bonus else None),
                                     strict=True):
                if values is not None:
                    store.append(values[ok])

        record()
        while state.size:
            k = kids[state]
            nb = neighbours[cell]  # (paths, 8)
            row = board * width
            lt = flat[row[:, None] + nb]
            usable = (free[:, None] >> nb) & 1  # the sentinel cell's letter never matches a kid
            ok = ((k[:, None] >> lt) & usable).ravel().nonzero()[0]
            parent, e_cell = ok >> 3, nb.ravel()[ok]
            e_state = base[state[parent]] + lt.ravel()[ok]
            # Wildcard steps: paths without one yet, onto an unused cell, by another letter.
            tame = wild < 0
            other = (k & self._mask)[:, None] & ~(np.int64(1) << lt) & -usable & -(nb < n).astype(np.int64) & -tame[:, None].astype(np.int64)
            pairs = other.ravel().nonzero()[0]
            bits = ((other.ravel()[pairs][:, None] >> self._bits) & 1).nonzero()
            pair, w_letter = pairs[bits[0]], bits[1].astype(np.int64)
            w_parent, w_cell = pair >> 3, nb.ravel()[pair]
            w_state = base[state[w_parent]] + w_letter
            if extra is not None:
                keep = self._follow(e_state, extra[board[parent] * width + e_cell, 1:])
                parent, e_cell, e_state = parent[keep], e_cell[keep], e_state[keep]
            rest = self._wild_rest(w_letter)
            if rest is not None:
                keep = self._follow(w_state, rest)
                w_parent, w_cell, w_letter, w_state = w_parent[keep], w_cell[keep], w_letter[keep], w_state[keep]
            parents = np.concatenate((parent, w_parent))
            cell = np.concatenate((e_cell, w_cell))
            state = np.concatenate((e_state, w_state))
            wild = np.concatenate((wild[parent], w_cell * self.width + w_letter))
            if bonus:
                step = np.concatenate((gain_flat[board[parent] * width + e_cell],
                                       self._tile_points[w_letter] * s._letter_mult[w_cell]))
                total = total[parents] + step
                factor = factor[parents] * word_mult[cell]
            board = board[parents]
            free = free[parents] & clear[cell]
            record()
        return seen

    def _starts(self, letters: np.ndarray, extra: np.ndarray | None, gain_flat: Any) -> tuple[Any, ...]:
        """The one-tile paths: every cell of every board as its own tile and as each other first
        letter the dictionary starts a word with, as ``(cell, board, state, wild, total, factor)``
        (the last two None without bonus squares)."""
        s = self.scorer
        base, check, kids = s.tables.base, s.tables.check, s.tables.kids
        boards, width = letters.shape
        n = width - 1
        flat = letters.ravel()
        bonus = gain_flat is not None
        # Exact starts: every cell of every board.
        cell = np.tile(np.arange(n, dtype=np.int64), boards)
        board = np.repeat(np.arange(boards, dtype=np.int64), n)
        state = base[0] + flat[board * width + cell]
        keep = np.flatnonzero(check[state] == 0)
        cell, board, state = cell[keep], board[keep], state[keep]
        if extra is not None:
            keep = self._follow(state, extra[board * width + cell, 1:])
            cell, board, state = cell[keep], board[keep], state[keep]
        wild = np.full(len(state), -1, dtype=np.int64)
        total: Any = gain_flat[board * width + cell] if bonus else None
        factor: Any = s._word_mult[cell] if bonus else None
        # Wildcard starts: every cell read as every other first letter the dictionary starts with.
        firsts = np.array([c for c in range(self.width) if (int(kids[0]) & self._mask) >> c & 1], dtype=np.int64)
        w_cell = np.repeat(np.tile(np.arange(n, dtype=np.int64), boards), len(firsts))
        w_board = np.repeat(np.arange(boards, dtype=np.int64), n * len(firsts))
        w_letter = np.tile(firsts, boards * n)
        other = np.flatnonzero(w_letter != flat[w_board * width + w_cell])
        w_cell, w_board, w_letter = w_cell[other], w_board[other], w_letter[other]
        w_state = base[0] + w_letter
        rest = self._wild_rest(w_letter)
        if rest is not None:
            keep = self._follow(w_state, rest)
            w_cell, w_board, w_letter, w_state = w_cell[keep], w_board[keep], w_letter[keep], w_state[keep]
        cell = np.concatenate((cell, w_cell))
        board = np.concatenate((board, w_board))
        state = np.concatenate((state, w_state))
        wild = np.concatenate((wild, w_cell * self.width + w_letter))
        if bonus:
            total = np.concatenate((total, self._tile_points[w_letter] * s._letter_mult[w_cell]))
            factor = np.concatenate((factor, s._word_mult[w_cell]))
        return cell, board, state, wild, total, factor

    # ------------------------------------------------------------------ totals

    def _totals(self, boards: int, letters: np.ndarray, states: list[np.ndarray], owners: list[np.ndarray],
                wilds: list[np.ndarray], frees: list[np.ndarray],
                scores: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """``(base, change)`` of :meth:`scores` from the paths :meth:`_search` found."""
        n, w = self.scorer.size, self.width
        state, owner, wild, free = (np.concatenate(a) for a in (states, owners, wilds, frees))
        score: Any = np.concatenate(scores) if scores else None
        exact = wild < 0
        words, avoid, best_kept, base_value, kept_value = self._kept(boards, state[exact], owner[exact], free[exact],
                                                                     score[exact] if score is not None else None)
        gain_value = self._gained(boards, state[~exact], owner[~exact], wild[~exact],
                                  score[~exact] if score is not None else None, words, avoid, best_kept)
        change = kept_value[:, :, None] + gain_value.reshape(boards, n, w)
        # No change: letters outside the alphabet, and a cell's own first letter.
        change[:, :, [c for c in range(w) if not self._mask >> c & 1]] = -1
        own = letters[:, :n]
        b_idx, c_idx = np.nonzero(own < w)
        change[b_idx, c_idx, own[b_idx, c_idx]] = -1
        return base_value.astype(np.int64), change

    def _kept(self, boards: int, state: np.ndarray, owner: np.ndarray, free: np.ndarray,
              score: np.ndarray | None) -> tuple[Any, ...]:
        """The words of the boards' own paths (``state``, ``owner``, ``free``, ``score`` of each):
        ``(words, avoid, best_kept, base_value, kept_value)``: per (board, word) key, the cells some
        path avoids (0/1 per cell) and (bonus) its best score over the paths avoiding each cell
        (else None); per board its value, and per board and cell the value of the words kept when
        that cell changes."""
        s = self.scorer
        n, n_states = s.size, s.tables.states
        cells = np.arange(n, dtype=np.int64)
        key = owner * n_states + state
        order = np.argsort(key, kind="stable")
        key, e_free = key[order], free[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        words = key[starts]
        word_value = s._value[words % n_states]
        avoid = (np.bitwise_or.reduceat(e_free, starts) if len(key) else e_free)[:, None] >> cells & 1
        if score is None:
            kept = avoid * word_value[:, None]  # (words, cells)
            best_all = word_value
            best_kept: Any = None
        else:
            e_score = score[order]
            e_avoid = e_free[:, None] >> cells & 1
            best_kept = np.maximum.reduceat(np.where(e_avoid == 1, e_score[:, None], -1), starts, axis=0) \
                if len(key) else np.zeros((0, n), dtype=np.int64)
            kept = np.where(best_kept >= 0, best_kept + word_value[:, None], 0)
            best_all = np.maximum.reduceat(e_score, starts) + word_value if len(key) else word_value
        word_board = words // n_states
        bounds = np.searchsorted(word_board, np.arange(boards + 1))
        cum = np.concatenate(([0], np.cumsum(best_all)))
        base_value = cum[bounds[1:]] - cum[bounds[:-1]]
        cum_kept = np.concatenate((np.zeros((1, n), dtype=np.int64), np.cumsum(kept, axis=0)))
        kept_value = cum_kept[bounds[1:]] - cum_kept[bounds[:-1]]  # (boards, cells)
        return words, avoid, best_kept, base_value, kept_value

    def _gained(self, boards: int, state: np.ndarray, owner: np.ndarray, wild: np.ndarray, score: np.ndarray | None,
                words: np.ndarray, avoid: np.ndarray, best_kept: Any) -> np.ndarray:
        """Per (board, cell, letter), flat, the points the wildcard paths (``state``, ``owner``,
        ``wild``, ``score`` of each) gain: their words not kept for that cell (or kept lower), as
        :meth:`_kept` found them."""
        s = self.scorer
        n, n_states, w = s.size, s.tables.states, self.width
        w_key = owner * n_states + state
        combined = w_key * (n * w) + wild
        if score is None:
            combined = np.unique(combined)
            w_best = None
        else:
            order = np.lexsort((score, combined))
            combined, w_sorted = combined[order], score[order]
            last = np.flatnonzero(np.r_[combined[1:] != combined[:-1], True])
            combined, w_best = combined[last], w_sorted[last]
        w_key, w_tag = combined // (n * w), combined % (n * w)
        w_cell = w_tag // w
        at = np.minimum(np.searchsorted(words, w_key), max(len(words) - 1, 0))
        present = (words[at] == w_key) if len(words) else np.zeros(len(w_key), dtype=bool)
        value = s._value[w_key % n_states]
        if w_best is None:
            covered = present & (avoid[at, w_cell] == 1) if len(words) else present
            gained = np.where(covered, 0, value)
        else:
            before = np.where(present, best_kept[at, w_cell], -1) if len(words) else np.full(len(w_key), -1)
            gained = np.where(before < 0, w_best + value, np.maximum(0, w_best - before))
        slot = (w_key // n_states) * (n * w) + w_tag
        return np.bincount(slot, weights=gained, minlength=boards * n * w).astype(np.int64)
