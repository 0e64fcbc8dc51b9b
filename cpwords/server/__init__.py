"""``cpwords serve``: a web page and a JSON API for every puzzle kind, safe to expose.

The server is a front end over the registry (:mod:`cpwords.puzzles`) and the API
(:func:`cpwords.solve`), like the CLI: it holds no per-kind code. Its parts:

* :mod:`.app` — :func:`create_app`, the guard (body cap, token, security headers), error bodies;
* :mod:`.api` — the JSON API: kinds, schemas, solves, jobs with server-sent events, word facts;
* :mod:`.pages` — the server-rendered pages; each kind's form and script are its page description
  in ``pages/<kind>.html`` and ``pages/<kind>.js`` (a kind without one gets the generic page);
* :mod:`.jobs`, :mod:`.pool` and :mod:`.worker` — jobs, and the worker processes that run them
  outside the event loop;
* :mod:`.intake` — what a request may bring (files refused, sizes capped);
* :mod:`.cli` — the ``serve`` sub-command.

Example
-------
>>> from cpwords.server.config import ServerConfig
>>> ServerConfig().host
'127.0.0.1'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpwords.server.config import ServerConfig

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["ServerConfig", "create_app"]


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The web application (see :func:`cpwords.server.app.create_app`); imports FastAPI on first use."""
    from cpwords.server.app import create_app as build

    return build(config)
