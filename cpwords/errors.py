"""Exceptions that separate the user's mistakes from ours.

An :class:`InputError` is bad input: the CLI prints its one-line message and exits with
code 2, never a traceback. Anything else escaping the API is a bug in cpwords.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

_MISSING = object()


class CpwordsError(Exception):
    """Base class of every error cpwords raises on purpose."""


class InputError(CpwordsError):
    """Input a user can fix: a spec field, a file, a word, a dictionary name.

    Parameters
    ----------
    message:
        What is wrong, in words a user can act on.
    source:
        The file (or ``<string>``) the input came from, when known.
    field:
        Dotted path of the offending field, e.g. ``dictionary.path``.
    value:
        The offending value, shown with ``repr`` (cut to 60 characters).
    line:
        1-based line in ``source``, when known.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        field: str | None = None,
        value: Any = _MISSING,
        line: int | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.field = field
        self.value = value
        self.line = line
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """The error as the single line the CLI prints."""
        where = ""
        if self.source:
            where = self.source + (f":{self.line}" if self.line else "")
        parts = []
        if self.field:
            parts.append(f"field '{self.field}'")
        if self.value is not _MISSING:
            shown = repr(str(self.value) if isinstance(self.value, PurePath) else self.value)
            parts.append("value " + (shown if len(shown) <= 60 else shown[:57] + "..."))
        head = ": ".join(p for p in (where, ", ".join(parts)) if p)
        text = f"{head}: {self.message}" if head else self.message
        return " ".join(text.split())

    def located(self, *, source: str | None = None, line: int | None = None) -> InputError:
        """A copy of this error that also names where it happened."""
        return InputError(
            self.message,
            source=self.source or source,
            field=self.field,
            value=self.value,
            line=self.line or line,
        )


def yaml_input_error(exc: Exception, source: str | None) -> InputError:
    """The one line for a YAML text that does not parse: the parser's problem and its line.

    >>> import yaml
    >>> try:
    ...     yaml.safe_load("a: [1, 2")
    ... except yaml.YAMLError as exc:
    ...     print(yaml_input_error(exc, "x.yaml").one_line())
    x.yaml:1: not valid YAML: expected ',' or ']', but got '<stream end>'
    """
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return InputError(f"not valid YAML: {problem}", source=source, line=mark.line + 1 if mark else None)
