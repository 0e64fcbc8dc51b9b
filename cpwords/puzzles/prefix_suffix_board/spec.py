"""The spec of a prefix/suffix board (``kind: prefix_suffix_board``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, field_validator, model_validator

from cpwords.specs import BaseSpec, DictionaryRef, ShapeRef, field_error, letters

#: The dictionary of ``generate`` with ``unique`` or ``max_completions`` when the spec names none:
#: on the contest board, common-10k gave no view with one completion in 43,000 suffix placements,
#: common-20k one in about every 200.
FAIR_DICTIONARY = "common-20k"

if TYPE_CHECKING:
    from cpwords.puzzles import PuzzleKind


class PrefixSuffixBoardSpec(BaseSpec):
    """A board of prefix and suffix slots where every edge joins a prefix and a suffix into a word.

    Example (YAML)::

        kind: prefix_suffix_board
        dictionary: common-2k
        task: count_boards
    """

    @classmethod
    def descriptor(cls) -> PuzzleKind:
        """This kind's entry in the registry: its engines and tasks."""
        from cpwords.puzzles.prefix_suffix_board import KIND

        return KIND

    kind: Literal["prefix_suffix_board"] = "prefix_suffix_board"
    """The puzzle kind."""
    engine: Literal["native", "cpsat", "sat"] | None = None
    """Engine: ``native`` (propagation search with exact counting, the fastest; the default), ``cpsat`` or ``sat``."""
    task: Literal["count_boards", "count_suffix_sets", "solve", "generate", "enumerate"] = "generate"
    """``count_boards`` (boards modulo symmetry), ``count_suffix_sets`` (suffix placements modulo symmetry
    that admit a board), ``solve`` (fill the prefixes for the given ``suffixes``), ``generate`` (random
    boards by seed) or ``enumerate`` (list boards modulo symmetry)."""
    board: ShapeRef = "okwddm"
    """A shipped board name (``okwddm``) or a board YAML file (relative to the puzzle file's folder)."""
    dictionary: DictionaryRef = Field(default_factory=lambda: DictionaryRef(name="common-10k"))
    """Where the words come from; plural forms (another word plus s/es) are always dropped. Default
    ``common-10k`` for every task (so generated boards use words players know); ``common-20k`` for
    ``generate`` with ``unique`` or ``max_completions``."""
    prefix_length: tuple[int, int] = (2, 4)
    """Allowed prefix token lengths ``[min, max]`` (a single number means exactly that length)."""
    suffix_length: tuple[int, int] = (2, 3)
    """Allowed suffix token lengths ``[min, max]`` (a single number means exactly that length)."""
    distinct_tokens: bool = True
    """All prefix tokens of a board differ, and all suffix tokens differ."""
    suffixes: dict[str, str] | None = None
    """For ``solve``: the player's view, suffix slot name -> suffix token (every suffix slot)."""
    count: int = Field(default=1, ge=1, le=10_000)
    """For ``generate``: how many different boards (modulo symmetry) to draw."""
    unique: bool = False
    """For ``generate``: only boards whose player's view (the suffixes) has exactly one completion
    modulo symmetry, proven by counting."""
    max_completions: int | None = Field(default=None, ge=1)
    """For ``generate``: only boards whose view has at most this many completions modulo symmetry
    (``unique`` is ``max_completions: 1``)."""
    limit: int | None = Field(default=10, ge=1)
    """For ``solve`` and ``enumerate``: the most answers to list (null: all). Counting is not limited."""

    @field_validator("prefix_length", "suffix_length", mode="before")
    @classmethod
    def _length_range(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return (value, value)
        if isinstance(value, str) and "-" in value:
            lo, _, hi = value.partition("-")
            try:
                return (int(lo), int(hi))
            except ValueError:
                raise ValueError("a length range is [min, max], 'min-max' or one number") from None
        return value

    @field_validator("prefix_length", "suffix_length")
    @classmethod
    def _length_order(cls, value: tuple[int, int]) -> tuple[int, int]:
        lo, hi = value
        if lo < 1 or hi > 20:
            raise ValueError("token lengths must lie between 1 and 20 letters")
        if lo > hi:
            raise ValueError(f"the range [{lo}, {hi}] is empty: min is larger than max")
        return value

    @field_validator("suffixes")
    @classmethod
    def _lower_suffixes(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        if value is None:
            return None
        out = {}
        for slot, token in value.items():
            out[str(slot)] = letters(str(token).strip().lstrip("-"), what=f"the suffix of slot {slot!r}")
        return out

    @model_validator(mode="after")
    def _suffixes_for_solve(self) -> PrefixSuffixBoardSpec:
        if self.task == "solve" and not self.suffixes:
            raise ValueError("task 'solve' needs 'suffixes': a mapping of every suffix slot to its token")
        for name in ("unique", "max_completions"):
            if getattr(self, name) not in (None, False) and self.task != "generate":
                raise field_error(name, f"{name!r} is only for task 'generate', not {self.task!r}", getattr(self, name))
        if self.unique and self.max_completions not in (None, 1):
            raise field_error("max_completions", "'unique: true' means one completion; drop one of the two",
                              self.max_completions)
        if self.unique:
            object.__setattr__(self, "max_completions", 1)
        if self.max_completions and "dictionary" not in self.model_fields_set:
            object.__setattr__(self, "dictionary", DictionaryRef(name=FAIR_DICTIONARY))
        return self
