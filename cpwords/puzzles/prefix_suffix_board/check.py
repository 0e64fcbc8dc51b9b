"""Independent checker of prefix/suffix boards: re-checks a board from the rules alone.

It reads the board file and the dictionary itself and does not use the token tables or any
engine: every slot holds a token of an allowed length, every edge spells a dictionary word that
is not a plural form, no word repeats, tokens differ when asked, and given suffixes are kept.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from cpwords.geometry import Board, load_board
from cpwords.results import Solution


def _board(ref: str | Path) -> Board:
    """The board of a spec, read once per file version (a listing checks thousands of boards)."""
    stamp = Path(ref).stat().st_mtime_ns if isinstance(ref, Path) else 0
    return _read_board(ref, stamp)


@lru_cache(maxsize=16)
def _read_board(ref: str | Path, stamp: int) -> Board:
    return load_board(ref)


def check(spec, solution: Solution) -> list[str]:
    """Rule violations of one board (empty when it is right)."""
    from cpwords.lexicon import load_lexicon

    problems: list[str] = []
    tokens = getattr(solution, "tokens", None)
    if not isinstance(tokens, dict):
        return ["the solution has no tokens"]
    board = _board(spec.board)
    missing = [n for n in board.nodes if n not in tokens]
    if missing:
        return [f"slots without a token: {', '.join(missing)}"]
    extra = [n for n in tokens if n not in board.nodes]
    if extra:
        problems.append(f"tokens for unknown slots: {', '.join(extra)}")
    for name, kind in zip(board.nodes, board.kinds, strict=True):
        lo, hi = spec.prefix_length if kind == "prefix" else spec.suffix_length
        token = tokens[name]
        if not (lo <= len(token) <= hi and token.isalpha()):
            problems.append(f"{kind} {token!r} at {name} is not {lo}-{hi} letters")
    lexicon = load_lexicon(spec.dictionary)
    words = []
    for a, b in board.edges:
        p, s = (a, b) if board.kinds[a] == "prefix" else (b, a)
        word = tokens[board.nodes[p]] + tokens[board.nodes[s]]
        words.append(word)
        if word not in lexicon:
            problems.append(f"{word!r} ({board.nodes[p]}+{board.nodes[s]}) is not in {spec.dictionary.label()}")
        elif (word.endswith("s") and word[:-1] in lexicon) or (word.endswith("es") and word[:-2] in lexicon):
            problems.append(f"{word!r} is a plural form, which boards do not use")
    repeated = sorted({w for w in words if words.count(w) > 1})
    if repeated:
        problems.append(f"words used more than once: {', '.join(repeated)}")
    if sorted(solution.words) != sorted(words):
        problems.append("the listed words are not the words of the board's edges")
    if spec.distinct_tokens:
        for kind in ("prefix", "suffix"):
            values = [tokens[n] for n, k in zip(board.nodes, board.kinds, strict=True) if k == kind]
            if len(set(values)) != len(values):
                problems.append(f"{kind} tokens repeat although distinct_tokens is on")
    if spec.task == "solve":
        for slot, token in (spec.suffixes or {}).items():
            if tokens.get(slot) != token:
                problems.append(f"slot {slot} holds {tokens.get(slot)!r}, not the given suffix {token!r}")
    return problems
