"""Independent checker of the template kind: the puzzle's rules alone, no solver code.

Fill in: ``check(spec, solution) -> problems`` (empty when the answer is right), written from the
rules, sharing nothing with ``native.py`` or ``solve.py`` (a test reads the imports): a bug in a
solver is then caught rather than repeated. ``cpwords.solve`` runs it on every answer before
returning; an answer that fails becomes a result with status ``error``. Kinds whose results hold
thousands of answers may add ``check_all(spec, solutions)`` and name it ``checker_all``.
"""

from __future__ import annotations

from typing import Any

from cpwords.lexicon import lexicon_for


def _spare(word: str, letters: str) -> str | None:
    """The letters ``word`` leaves, crossing each of its letters off ``letters`` in turn; None when
    one is missing.

    >>> _spare("silent", "listen"), _spare("tennis", "listen")
    ('', None)
    """
    rest = list(letters)
    for ch in word:
        if ch not in rest:
            return None
        rest.remove(ch)
    return "".join(sorted(rest))


def check(spec: Any, solution: Any) -> list[str]:
    """Rule violations of one answer: one word, in the dictionary, long enough, made of the
    letters, and the letters it leaves said right."""
    if len(solution.words) != 1:
        return [f"an answer is one word, not {len(solution.words)}"]
    word = solution.words[0]
    problems = []
    if word not in lexicon_for(spec):
        problems.append(f"{word!r} is not in the dictionary")
    if len(word) < spec.min_length:
        problems.append(f"{word!r} is shorter than {spec.min_length} letters")
    left = _spare(word, spec.letters)
    if left is None:
        problems.append(f"{word!r} is not made of the letters {spec.letters!r}")
    elif solution.left != left:
        problems.append(f"{word!r} leaves {left!r}, not {solution.left!r}")
    return problems
