"""The box and its playable words: letters, sides, bitmasks and the word table every engine uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from cpwords.engines.budget import build_checkpoint
from cpwords.lexicon import Lexicon, load_lexicon


@dataclass(frozen=True)
class Box:
    """The letters of a box, numbered side by side: letter ``i`` is bit ``1 << i`` of a mask.

    >>> box = Box.from_sides(["ab", "cd", "ef"])
    >>> box.letters, box.side_of["c"], box.full
    ('abcdef', 1, 63)
    """

    sides: tuple[str, ...]
    letters: str
    side_of: dict[str, int]

    @classmethod
    def from_sides(cls, sides: list[str] | tuple[str, ...]) -> Box:
        """The box with these sides (letters already validated distinct and lowercase)."""
        side_of = {ch: i for i, side in enumerate(sides) for ch in side}
        return cls(tuple(sides), "".join(sides), side_of)

    @property
    def n(self) -> int:
        """Number of letters on the box."""
        return len(self.letters)

    @property
    def full(self) -> int:
        """The mask of every letter."""
        return (1 << self.n) - 1

    @cached_property
    def index(self) -> dict[str, int]:
        """Letter -> its number (bit position)."""
        return {ch: i for i, ch in enumerate(self.letters)}

    def is_playable(self, word: str) -> bool:
        """All letters on the box and no two consecutive letters on the same side."""
        side_of = self.side_of
        prev = -1
        for ch in word:
            side = side_of.get(ch)
            if side is None or side == prev:
                return False
            prev = side
        return True

    def mask_of(self, word: str) -> int:
        """Bitmask of the box letters in ``word``."""
        m = 0
        for ch in word:
            m |= 1 << self.index[ch]
        return m


@dataclass
class WordTable:
    """Playable words with what the models need: first and last letter numbers, masks, costs.

    Lists are parallel; ``cost[i]`` is the ranking cost of word ``i`` (letters or rareness).
    """

    box: Box
    words: list[str]
    first: list[int]
    last: list[int]
    mask: list[int]
    cost: list[int]
    rank: str = "letters"
    _pos: dict[str, int] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.words)

    def position(self, word: str) -> int | None:
        """Index of ``word`` in the table, or None."""
        if not self._pos:
            self._pos = {w: i for i, w in enumerate(self.words)}
        return self._pos.get(word)

    def subset(self, keep: list[int]) -> WordTable:
        """The table of the words at indexes ``keep``."""
        return WordTable(self.box, [self.words[i] for i in keep], [self.first[i] for i in keep],
                         [self.last[i] for i in keep], [self.mask[i] for i in keep],
                         [self.cost[i] for i in keep], self.rank)


# Per-process index of a lexicon: letter masks (one bit per letter of its alphabet, at most 29)
# and lengths of every word (numpy, for a fast first cut: a box keeps only the words whose letters
# are all on it).
_LEXICON_INDEX: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def _lexicon_index(lexicon: Lexicon) -> tuple[np.ndarray, np.ndarray]:
    key = lexicon.content_hash
    if key not in _LEXICON_INDEX:
        build_checkpoint(f"the Letter Boxed word table of {lexicon.label}")
        _LEXICON_INDEX[key] = letter_masks(list(lexicon), lexicon.alphabet.index)
    return _LEXICON_INDEX[key]


def letter_masks(words: list[str], index: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """Letter masks (bit ``index[letter]`` for each letter of a word) and lengths of ``words``,
    with numpy (two million words in a fraction of a second, where a loop a word took seconds).

    >>> masks, lengths = letter_masks(["cab", "", "aa"], {"a": 0, "b": 1, "c": 2})
    >>> masks.tolist(), lengths.tolist()
    ([7, 0, 1], [3, 0, 2])
    """
    lengths = np.fromiter(map(len, words), dtype=np.int32, count=len(words))
    masks = np.zeros(len(words), dtype=np.uint32)
    points = np.frombuffer("".join(words).encode("utf-32-le"), dtype=np.uint32)
    if points.size:
        bit = np.zeros(max(map(ord, index)) + 1, dtype=np.uint32)
        bit[[ord(ch) for ch in index]] = [1 << i for i in index.values()]
        starts = (np.cumsum(lengths, dtype=np.int64) - lengths)[lengths > 0]
        masks[lengths > 0] = np.bitwise_or.reduceat(bit[points], starts)
    return masks, lengths


def word_cost(lexicon: Lexicon, word: str, rank: str) -> int:
    """Ranking cost of one word: its length (``letters``) or its rareness (``common``)."""
    return len(word) if rank == "letters" else lexicon.rareness(word)


def playable_words(box: Box, lexicon: Lexicon, *, min_length: int = 3, rank: str = "letters") -> WordTable:
    """Every word of ``lexicon`` that can be played on ``box``, most common first.

    Parameters
    ----------
    box: the box.
    lexicon: the dictionary.
    min_length: shortest word kept.
    rank: ``letters`` or ``common``: what ``WordTable.cost`` holds.

    Returns
    -------
    WordTable of the playable words.

    Example
    -------
    >>> lex = Lexicon.from_words(["ace", "bad", "abe", "fed", "eca"])
    >>> sorted(playable_words(Box.from_sides(["ab", "cd", "ef"]), lex).words)
    ['ace', 'eca']
    """
    masks, lengths = _lexicon_index(lexicon)
    alphabet = lexicon.alphabet
    box_bits = 0
    for ch in box.letters:
        if ch in alphabet.index:  # a letter the dictionary's alphabet lacks is on no word
            box_bits |= 1 << alphabet.index[ch]
    outside = np.uint32(~box_bits & ((1 << alphabet.size) - 1))
    candidates = np.flatnonzero(((masks & outside) == 0) & (lengths >= min_length))
    all_words = lexicon.words if len(candidates) > 2000 else None
    words, first, last, mask, cost = [], [], [], [], []
    index = box.index
    for i in candidates.tolist():
        w = all_words[i] if all_words is not None else _word_at(lexicon, i)
        if not box.is_playable(w):
            continue
        words.append(w)
        first.append(index[w[0]])
        last.append(index[w[-1]])
        mask.append(box.mask_of(w))
        cost.append(word_cost(lexicon, w, rank))
    return WordTable(box, words, first, last, mask, cost, rank)


def _word_at(lexicon: Lexicon, i: int) -> str:
    return lexicon._words[i]


def drop_dominated(table: WordTable) -> WordTable:
    """The words that no other word makes useless for a fewest-words answer.

    Word ``u`` is dominated by ``v`` when both start and end with the same letters, ``v`` uses
    every letter of ``u`` (and maybe more) and ``v`` costs no more. Replacing ``u`` by ``v`` keeps
    an answer valid, as short and no worse ranked, so ``min_words`` may drop ``u``. Never used for
    enumeration or counting, where every answer matters.

    >>> box = Box.from_sides(["ab", "cd", "ef"])
    >>> t = WordTable(box, ["ace", "ade"], [0, 0], [4, 4], [21, 25], [3, 3])
    >>> drop_dominated(t).words
    ['ace', 'ade']
    """
    groups: dict[tuple[int, int], list[int]] = {}
    for i in range(len(table)):
        groups.setdefault((table.first[i], table.last[i]), []).append(i)
    keep: list[int] = []
    for members in groups.values():
        members.sort(key=lambda i: (table.cost[i], -bin(table.mask[i]).count("1"), table.words[i]))
        kept_masks: list[int] = []
        for i in members:
            m = table.mask[i]
            if any(m | k == k for k in kept_masks):
                continue
            kept_masks.append(m)
            keep.append(i)
    keep.sort()
    return table.subset(keep)


def load_table(sides: list[str], dictionary: object, *, min_length: int, rank: str) -> WordTable:
    """Box and playable words of a spec's fields; InputError when the box has no playable word."""
    box = Box.from_sides(sides)
    lexicon = load_lexicon(dictionary)  # type: ignore[arg-type]
    table = playable_words(box, lexicon, min_length=min_length, rank=rank)
    return table


def check_letters_reachable(table: WordTable) -> str | None:
    """Why no answer can exist (a letter no playable word uses), or None."""
    used = 0
    for m in table.mask:
        used |= m
    missing = [ch for i, ch in enumerate(table.box.letters) if not used >> i & 1]
    if not table.words:
        return "no word of the dictionary can be played on this box"
    if missing:
        return f"no playable word uses the letter(s) {', '.join(missing)}"
    return None


@dataclass
class BoxProblem:
    """What every engine task works on: the dictionary and, for a given box, its playable words."""

    lexicon: Lexicon
    table: WordTable | None = None

    @cached_property
    def candidates(self) -> WordTable:
        """The playable words a fewest-words answer needs (dominated words dropped)."""
        assert self.table is not None
        return drop_dominated(self.table)

    def words_of(self, table: WordTable, indexes: list[int]) -> list[str]:
        """The words at ``indexes`` of ``table``."""
        return [table.words[i] for i in indexes]
