"""The Letter Boxed spec: the box (its sides), the dictionary, the task and the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from cpwords.specs import PLAYER_DICTIONARY, BaseSpec, DictionaryRef, letters

if TYPE_CHECKING:
    from cpwords.puzzles import PuzzleKind

Task = Literal["min_words", "enumerate", "count", "generate"]
Rank = Literal["letters", "common"]


class LetterBoxedSpec(BaseSpec):
    """Letters on the sides of a box; chain words that use every letter, in as few words as possible.

    A word is playable when all its letters are on the box and no two consecutive letters lie on
    the same side. Each word starts with the last letter of the word before it.

    Example (YAML)::

        kind: letter_boxed
        sides: [lme, iuf, wcb, oas]
        task: min_words
    """

    player_dictionary = PLAYER_DICTIONARY

    @classmethod
    def descriptor(cls) -> PuzzleKind:
        """This kind's entry in the registry: its engines and tasks."""
        from cpwords.puzzles.letter_boxed import KIND

        return KIND

    kind: Literal["letter_boxed"] = "letter_boxed"
    """The puzzle kind."""
    sides: list[str] | None = None
    """The sides of the box, each a string of its letters, e.g. ``[paf, uot, mie, xlr]``. At least
    3 sides, at least 2 letters a side, no letter twice on the box. Not used by ``task: generate``."""
    dictionary: DictionaryRef = Field(default_factory=lambda: DictionaryRef(name="scowl-70"))
    """The words that may be played (default ``scowl-70``; ``task: generate`` defaults to
    ``common-20k``, words players know, offensive words out)."""
    min_word_length: int = Field(default=3, ge=1)
    """Shortest word that may be played."""
    max_words: int = Field(default=5, ge=1, le=12)
    """Most words an answer may have: the search bound of ``min_words`` and the answers that
    ``enumerate`` lists and ``count`` counts (answers of 1 .. max_words words)."""
    task: Task = "min_words"
    """``min_words``: a best answer (fewest words, ties broken by ``rank``); ``enumerate``: list the
    answers of at most ``max_words`` words; ``count``: count them (per word count in stats);
    ``generate``: make new puzzles whose minimum is ``par`` words."""
    engine: Literal["native", "cpsat", "sat"] | None = None
    """``native`` (search over (last letter, covered letters) states, exact counting by inclusion-
    exclusion; the fastest, and the default), ``cpsat`` (OR-Tools CP-SAT) or ``sat`` (PySAT).
    ``generate`` is done by the native engine."""
    rank: Rank = "letters"
    """How equally short answers are ordered: ``letters`` (fewest letters in total) or ``common``
    (smallest total rareness: the most common words)."""
    limit: int | None = Field(default=1000, ge=1)
    """``enumerate``: list at most this many answers (None: all of them)."""
    par: int = Field(default=2, ge=1, le=6)
    """``generate``: the minimum number of words the generated puzzles must need."""
    puzzles: int = Field(default=5, ge=1, le=100)
    """``generate``: how many puzzles to produce."""
    side_count: int = Field(default=4, ge=3, le=8)
    """``generate``: number of sides of the generated boxes."""
    letters_per_side: int = Field(default=3, ge=2, le=6)
    """``generate``: letters on each side of the generated boxes."""
    attempts: int = Field(default=100, ge=1)
    """``generate``: random boxes tried before ranking the ones that reach ``par``."""
    max_memory_mb: int = Field(default=1024, ge=16)
    """Memory budget of the search tables, in MB: the native search over (last letter, covered
    letters) states and the tables that prune every engine grow with 2^letters; a box whose
    tables would pass the budget stops with status ``unknown`` (or the best so far) and a
    message instead of filling the memory."""

    @field_validator("sides")
    @classmethod
    def _sides_are_letters(cls, sides: list[str] | None) -> list[str] | None:
        if sides is None:
            return None
        try:
            clean = [letters(s, what=f"side {i + 1}") for i, s in enumerate(sides)]
        except ValueError as exc:
            raise _problem(str(exc)) from None
        if len(clean) < 3:
            raise _problem(f"a box needs at least 3 sides (got {len(clean)})")
        seen: dict[str, int] = {}
        for i, side in enumerate(clean):
            if len(side) < 2:
                raise _problem(
                    f"side {i + 1} {side!r} has {len(side)} letter(s); every side needs at least 2 "
                    "(a one-letter side makes its letter free to double up, which the game forbids)"
                )
            for ch in side:
                if ch in seen:
                    where = "twice on the same side" if seen[ch] == i else f"on sides {seen[ch] + 1} and {i + 1}"
                    raise _problem(f"letter {ch!r} appears {where}; every letter of the box must be distinct")
                seen[ch] = i
        return clean

    @model_validator(mode="after")
    def _sides_needed(self) -> LetterBoxedSpec:
        if self.task != "generate" and self.sides is None:
            raise _problem("field 'sides' is required (e.g. sides: [paf, uot, mie, xlr]) unless task is generate")
        alphabet = self.alphabet()
        if self.task == "generate" and self.side_count * self.letters_per_side > alphabet.size:
            raise _problem(f"side_count x letters_per_side is more than the {alphabet.size} letters "
                           f"{alphabet.describe()}")
        return self


def _problem(message: str) -> PydanticCustomError:
    """A validation error whose message is shown as is (no 'Value error,' prefix)."""
    return PydanticCustomError("letter_boxed", message)
