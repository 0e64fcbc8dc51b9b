"""The ``ladder`` spec: change START into TARGET one letter at a time through dictionary words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from cpwords.specs import BaseSpec, DictionaryRef, field_error, letters, spec_alphabet
from cpwords.wording import counted

#: The dictionary of ``mode: generate`` when the spec names none: common words a player knows
#: (offensive words are left out).
GENERATE_DICTIONARY = "common-20k"

if TYPE_CHECKING:
    from cpwords.puzzles import PuzzleKind


class LadderSpec(BaseSpec):
    """A word ladder: every step changes exactly one letter and every word is in the dictionary.

    Example (YAML)::

        kind: ladder
        start: cold
        target: warm
        mode: both
    """

    @classmethod
    def descriptor(cls) -> PuzzleKind:
        """This kind's entry in the registry: its engines and tasks."""
        from cpwords.puzzles.ladder import KIND

        return KIND

    kind: Literal["ladder"] = "ladder"
    """The puzzle kind: ``ladder``."""
    start: str | None = None
    """The first word of the ladder (any case; it must be in the dictionary). ``generate``: optional,
    every puzzle then starts from it."""
    target: str | None = None
    """The last word of the ladder, as long as ``start`` (it must be in the dictionary); not for ``generate``."""
    dictionary: DictionaryRef = Field(default_factory=lambda: DictionaryRef(name="scowl-70"))
    """The words a ladder may use: a built-in name (``scowl-70``, ``common-20k`` ...), ``{path: FILE}`` or ``{words: [...]}``."""
    mode: Literal["shortest", "common", "both", "generate"] = "both"
    """``shortest``: fewest changes; ``common``: least total rareness of the words after the start; ``both``: one of
    each; ``generate``: ``count`` ladder puzzles (start, target and par) whose shortest ladder is exactly ``par`` steps."""
    par: int = Field(default=5, ge=1, le=50)
    """``generate``: the steps of each puzzle's shortest ladder (proven by breadth-first search)."""
    length: int = Field(default=4, ge=2, le=30)
    """``generate``: the length of the words (ignored when ``start`` is given: its length)."""
    count: int = Field(default=1, ge=1, le=10_000)
    """``generate``: how many puzzles (different start-target pairs)."""
    shortest_pick: Literal["least_rare", "random"] = "least_rare"
    """Which shortest ladder is shown: ``least_rare``, the least rare of the shortest ladders (by
    seed among equals); ``random``, any shortest ladder (by seed, each with a chance)."""
    all_shortest: bool = False
    """List every shortest ladder (up to ``limit``, in alphabetical order) and count them exactly."""
    limit: int = Field(default=100, ge=1, le=1_000_000)
    """At most this many ladders are listed when ``all_shortest`` is set (the count is exact regardless)."""
    define: bool = False
    """Show the definitions of the ladder's words (WordNet)."""
    engine: Literal["native"] | None = None
    """Engine: ``native`` (breadth-first search and Dijkstra over the precomputed links; no CP solver)."""

    @property
    def task(self) -> str:
        """The task is the ``mode``: ``shortest``, ``common`` or ``both``."""
        return self.mode

    @field_validator("start", "target")
    @classmethod
    def _one_word(cls, value: str | None) -> str | None:
        from cpwords.lexicon.core import MAX_WORD_LETTERS

        if value is None:
            return None
        if len(value) > MAX_WORD_LETTERS:  # no dictionary holds it; and it would cost memory to say so
            raise PydanticCustomError("ladder_word", "a word of {n} letters; dictionary words have at most {m}",
                                      {"n": f"{len(value):,}", "m": MAX_WORD_LETTERS})
        try:
            return letters(value)
        except ValueError:
            alphabet = spec_alphabet()
            raise PydanticCustomError(
                "ladder_word", f"a ladder word is letters {alphabet.describe()} only (one word, no spaces, digits"
                + (" or accents)" if alphabet.language == "english" else f"; {alphabet.language})")
            ) from None

    def _given(self, name: str) -> bool:
        """The spec sets ``name`` to a value of its own (a dumped spec holds the defaults too: those
        are not refused)."""
        return name in self.model_fields_set and getattr(self, name) != type(self).model_fields[name].default

    @model_validator(mode="after")
    def _same_length(self) -> LadderSpec:
        if self.mode == "generate":
            if self.target is not None:
                raise field_error("target", "mode 'generate' chooses the targets; leave 'target' out", self.target)
            for name in ("shortest_pick", "all_shortest", "limit", "define"):
                if self._given(name):  # a generated puzzle shows its least-rare shortest ladder, no more
                    raise field_error(name, "does not go with mode 'generate' (its puzzles show their least-rare "
                                            "shortest ladder)", getattr(self, name))
            if "dictionary" not in self.model_fields_set:
                object.__setattr__(self, "dictionary", DictionaryRef(name=GENERATE_DICTIONARY))
            if self.start is not None:
                if "length" in self.model_fields_set and self.length != len(self.start):
                    raise field_error("length", f"the start word {self.start!r} has {counted(len(self.start), 'letter')}: leave "
                                                f"the length out or make it {len(self.start)}", self.length)
                object.__setattr__(self, "length", len(self.start))
            return self
        for name in ("par", "length", "count"):
            if self._given(name):
                raise field_error(name, f"{name!r} is only for mode 'generate', not {self.mode!r}", getattr(self, name))
        if self.start is None or self.target is None:
            raise field_error("start" if self.start is None else "target",
                              f"mode {self.mode!r} needs both 'start' and 'target'", None)
        if len(self.start) != len(self.target):
            raise PydanticCustomError(
                "ladder_lengths",
                "start and target must have the same length: '{start}' has {n}, '{target}' has {m}",
                {"start": self.start, "n": counted(len(self.start), "letter"), "target": self.target,
                 "m": len(self.target)},
            )
        language = self.alphabet().language
        if self.define and language != "english":
            raise field_error("define", f"definitions come from WordNet, in English only; this dictionary is {language}",
                              self.define)
        return self
