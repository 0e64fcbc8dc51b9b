"""JSON on the wire: every body the server sends is strict JSON, written here.

``json.dumps`` writes ``NaN`` and ``Infinity`` by default, which no browser's ``JSON.parse``
reads; Starlette's own response refuses them with an exception (a 500) and cannot encode a
lone surrogate. Every answer, job state, event and error body goes through :func:`dumps`
(``allow_nan=False``, ASCII with ``\\u`` escapes), and a value a refusal shows goes through
:func:`shown` first, so that no request can make the server send anything but JSON. Input is
checked at the gate (:func:`cpwords.specs.gate`): NaN, infinity and lone surrogates never reach
a result; should a result hold one anyway (a bug), its job fails with a JSON error body.

>>> dumps({"value": shown(float("nan")), "text": shown("\\ud800")})
b'{"value":"nan","text":"\\\\\\\\ud800"}'
"""

from __future__ import annotations

import json
import math
from pathlib import PurePath
from typing import Any


def dumps(data: Any, **options: Any) -> bytes:
    """``data`` as strict JSON bytes (no ``NaN``/``Infinity``: a ValueError instead)."""
    return json.dumps(data, separators=(",", ":"), allow_nan=False, **options).encode("ascii")


def shown(value: Any) -> Any:
    """A value a user sent, made fit for a JSON body: a number that is not finite as its text
    (``"nan"``, ``"inf"``), text with a lone surrogate with it escaped (``"\\\\ud800"``), a path
    as its text, anything else that JSON has no word for as its ``repr``.

    >>> shown([1e400, "ok", PurePath("/etc/passwd")])
    ['inf', 'ok', '/etc/passwd']
    """
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, PurePath):
        return shown(str(value))
    if isinstance(value, (list, tuple)):
        return [shown(v) for v in value]
    if isinstance(value, dict):
        return {str(shown(k)): shown(v) for k, v in value.items()}
    return shown(repr(value))

