"""The Spelling Bee spec: the hive (seven letters and a centre), the dictionary, the task, the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from cpwords.specs import PLAYER_DICTIONARY, BaseSpec, DictionaryRef, field_error, letters
from cpwords.wording import counted

if TYPE_CHECKING:
    from cpwords.puzzles import PuzzleKind

Task = Literal["words", "generate"]

#: Letters in a hive.
HIVE_LETTERS = 7


class SpellingBeeSpec(BaseSpec):
    """Seven letters, one of them the centre: find every word of 4 or more letters that uses only
    those letters (any letter as often as it likes) and always the centre one.

    Scoring, as in the New York Times game: a 4-letter word is worth 1 point, a longer word 1 point
    a letter, and a *pangram* (a word using all seven letters) 7 points more.

    Example (YAML)::

        kind: spelling_bee
        letters: ocanlpt
        center: o
    """

    player_dictionary = PLAYER_DICTIONARY

    @classmethod
    def descriptor(cls) -> PuzzleKind:
        """This kind's entry in the registry: its engines and tasks."""
        from cpwords.puzzles.spelling_bee import KIND

        return KIND

    kind: Literal["spelling_bee"] = "spelling_bee"
    """The puzzle kind."""
    letters: str | None = None
    """The seven letters of the hive, as one string (``ocanlpt``); all different. Not used by
    ``task: generate``."""
    center: str | None = None
    """The centre letter, one of ``letters``: every word must use it. Default: the first of
    ``letters``."""
    dictionary: DictionaryRef = Field(default_factory=lambda: DictionaryRef(name="scowl-50"))
    """The words that count (default ``scowl-50``: common words, closer to the game's list than the
    larger dictionaries; ``task: generate`` defaults to ``common-20k``, words players know,
    offensive words out)."""
    min_word_length: int = Field(default=4, ge=1, le=15)
    """Shortest word that counts (the game: 4). Scores do not change with it: a word of 4 letters
    or fewer is worth 1 point, a longer one 1 point a letter."""
    task: Task = "words"
    """``words``: every word of the hive with its score, the pangrams and the ranks;
    ``generate``: find hives with at least one pangram and a word and point count in range."""
    engine: Literal["native", "cpsat"] | None = None
    """``native`` (letter sets as bit masks, words grouped by their set of letters; the default,
    fastest and exact) or ``cpsat`` (OR-Tools CP-SAT: one Boolean a letter, a centre choice, one
    Boolean a pangram letter set, one reified Boolean a set of letters used by words, and the
    number of words or points as a linear sum, bounded or maximised). Both do both tasks."""
    puzzles: int = Field(default=5, ge=1, le=100)
    """``generate``: how many hives to produce."""
    min_words: int | None = Field(default=None, ge=0)
    """``generate``: fewest words a hive may have (None: no bound)."""
    max_words: int | None = Field(default=None, ge=0)
    """``generate``: most words a hive may have (None: no bound)."""
    min_points: int | None = Field(default=None, ge=0)
    """``generate``: fewest points a hive may have (None: no bound)."""
    max_points: int | None = Field(default=None, ge=0)
    """``generate``: most points a hive may have (None: no bound)."""
    maximize: Literal["words", "points"] | None = None
    """``generate``: give the hives with the most words (or points) within the bounds first; None
    (the default) picks hives at random (by ``seed``) among all that meet the bounds."""
    avoid: str = "s"
    """``generate``: letters no generated hive uses (the game never uses ``s``; ``""`` allows all)."""

    @field_validator("letters")
    @classmethod
    def _seven_letters(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            text = letters(value, what="letters")
        except ValueError as exc:
            raise _problem(str(exc)) from None
        if len(text) != HIVE_LETTERS:
            raise _problem(f"a hive has {HIVE_LETTERS} letters; {text!r} has {len(text)}")
        repeated = sorted({ch for ch in text if text.count(ch) > 1})
        if repeated:
            raise _problem(f"the hive's letters must all differ; {text!r} repeats {', '.join(map(repr, repeated))}")
        return text

    @field_validator("center")
    @classmethod
    def _one_letter(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            text = letters(value, what="center")
        except ValueError as exc:
            raise _problem(str(exc)) from None
        if len(text) != 1:
            raise _problem(f"the centre is one letter, not {text!r}")
        return text

    @field_validator("avoid")
    @classmethod
    def _avoid_letters(cls, value: str) -> str:
        try:
            return "".join(sorted(set(letters(value, what="avoid"))))
        except ValueError as exc:
            raise _problem(str(exc)) from None

    @model_validator(mode="after")
    def _hive_given(self) -> SpellingBeeSpec:
        if self.task == "words":
            if self.letters is None:
                raise _problem("field 'letters' is required (the seven letters, e.g. letters: ocanlpt)")
            if self.center is None:
                self.center = self.letters[0]
            elif self.center not in self.letters:
                raise field_error("center", f"the centre must be one of the letters {self.letters!r}", self.center)
        else:
            size = self.alphabet().size
            if len(self.avoid) > size - HIVE_LETTERS:
                raise field_error("avoid", f"it leaves {counted(size - len(self.avoid), 'letter')}; a hive needs {HIVE_LETTERS}",
                                  self.avoid)
            for low, high in (("min_words", "max_words"), ("min_points", "max_points")):
                lo, hi = getattr(self, low), getattr(self, high)
                if lo is not None and hi is not None and lo > hi:
                    raise field_error(high, f"it is less than {low}={lo}", hi)
        return self

    def hive(self) -> str:
        """The letters with the centre first (``words`` task)."""
        assert self.letters is not None and self.center is not None
        return self.center + self.letters.replace(self.center, "")


def _problem(message: str) -> PydanticCustomError:
    """A validation error whose message is shown as is (no 'Value error,' prefix)."""
    return PydanticCustomError("spelling_bee", message)
