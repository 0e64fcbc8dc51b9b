"""Shards of Letter Boxed ``count`` for the cluster runner: many boxes counted at once.

Each box is one shard, run by the spec's own engine; its partial is the count by number of
words. A box takes milliseconds, so the shards are marked small and travel in bundles: the
runner sends every box of a batch at once, and a census of thousands of boxes keeps every
worker busy. :func:`census` makes such a batch: random boxes drawn as ``generate`` draws them,
reproducible from a seed, to write into a YAML batch file (:func:`cpwords.specs.dump_spec`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cpwords.engines.budget import Budget
from cpwords.engines.found import Found
from cpwords.engines.shards import Shard, Sharding, ShardStopped
from cpwords.lexicon import Lexicon, load_lexicon
from cpwords.puzzles.letter_boxed.generate import random_box
from cpwords.puzzles.letter_boxed.spec import LetterBoxedSpec
from cpwords.puzzles.letter_boxed.words import Box, BoxProblem, check_letters_reachable, playable_words
from cpwords.results import Result
from cpwords.wording import counted


class LetterBoxedSharding(Sharding):
    """One small shard per box of ``count`` (see the module)."""

    version = "1"

    def supports(self, spec: Any) -> bool:
        """The count, with any engine."""
        return bool(spec.task == "count")

    def prepare(self, spec: Any) -> Lexicon:
        """The dictionary (loaded once per process, whichever box asks first)."""
        return load_lexicon(spec.dictionary)

    def plan(self, spec: Any, context: Lexicon, budget: Budget | None = None) -> list[Shard]:
        """The box."""
        return [Shard("box", None, small=True)]

    def run(self, spec: Any, context: Lexicon, shard: Shard, budget: Budget) -> dict[str, Any]:
        """The box's answers by number of words, counted by the spec's engine.

        Raises
        ------
        ShardStopped
            When the budget ran out (with the counts so far).
        """
        from cpwords import puzzles

        table = playable_words(Box.from_sides(spec.sides), context, min_length=spec.min_word_length, rank=spec.rank)
        partial: dict[str, Any] = {"by_words": {str(k): 0 for k in range(1, spec.max_words + 1)},
                                   "playable_words": len(table), "letters_on_box": table.box.n}
        reason = check_letters_reachable(table)
        if reason is not None:
            return partial | {"message": reason}
        found = puzzles.get(spec.kind).run(BoxProblem(context, table), spec, budget)
        partial["by_words"] = {str(k): v for k, v in sorted(found.stats.get("count_by_words", {}).items())}
        partial["method"] = found.stats.get("method")
        if not found.complete:
            raise ShardStopped(partial)
        return partial

    def combine(self, spec: Any, context: Lexicon, partials: Sequence[tuple[Shard, Any]],
                complete: bool) -> Found:
        """Counts by number of words, summed."""
        by_words = {str(k): 0 for k in range(1, spec.max_words + 1)}
        stats: dict[str, Any] = {"count_by_words": by_words}
        message = None
        for _, partial in partials:
            for k, v in partial["by_words"].items():
                by_words[k] = by_words.get(k, 0) + v
            stats |= {k: partial[k] for k in ("playable_words", "letters_on_box", "method") if partial.get(k)}
            message = message or partial.get("message")
        return Found(count=sum(by_words.values()), complete=complete, stats=stats, message=message)

    def result(self, spec: Any, context: Lexicon, found: Found) -> Result:
        """The Result, as the kind's own solve builds it."""
        infeasible = found.message or f"no answer of at most {counted(spec.max_words, 'word')} with this dictionary"
        return Result.from_search(spec, found, [], infeasible=infeasible,
                                  stats={"dictionary": spec.dictionary.label()})


def census(boxes: int, *, seed: int, side_count: int = 4, letters_per_side: int = 3,
           dictionary: Any = "scowl-70", max_words: int = 3, min_word_length: int = 3) -> list[LetterBoxedSpec]:
    """``boxes`` random boxes with ``task: count``, drawn as ``generate`` draws them (same seed, same
    boxes): a batch for the cluster runner.

    >>> [s.sides for s in census(2, seed=1)]
    [['ptc', 'nhl', 'oia', 'rfe'], ['orf', 'nes', 'lah', 'dut']]
    """
    rng = random.Random(seed)
    return [LetterBoxedSpec.model_validate({
        "title": f"census box {i + 1}", "sides": random_box(rng, side_count, letters_per_side), "task": "count",
        "dictionary": dictionary, "max_words": max_words, "min_word_length": min_word_length})
        for i in range(boxes)]


SHARDING = LetterBoxedSharding()
