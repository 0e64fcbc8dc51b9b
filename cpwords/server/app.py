"""The FastAPI application of ``cpwords serve``: the guard in front, the API and the pages.

:func:`create_app` builds one app from a :class:`~cpwords.server.config.ServerConfig`; its
lifespan starts and stops the worker pool. In front of every route sits :class:`Guard`, a
plain ASGI middleware that refuses oversized bodies by their declared length, asks for the
token when one is set, and adds the security headers (a Content-Security-Policy that allows
only the server's own scripts, so no text a user typed can ever run as code).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cpwords.server import config as limits
from cpwords.server.config import WORKER_MEMORY_ENV, ServerConfig, size_text
from cpwords.server.intake import RequestError
from cpwords.server.pool import WorkerPool
from cpwords.server.wire import dumps

STATIC_DIR = Path(__file__).resolve().parent / "static"
#: The cookie a page link with ``?token=`` sets, so that pages, their scripts and SSE need no header.
TOKEN_COOKIE = "cpwords_token"
#: Only the server's own files: scripts, styles and fetches; pictures may be blob: URLs.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
#: Paths that need no token: the static files (the same for everyone) and the health check.
OPEN_PREFIXES = ("/static/", "/healthz")


class StrictJSONResponse(JSONResponse):
    """Starlette's JSON response, written as every body of the server is (:func:`wire.dumps`:
    strict JSON, never ``NaN`` or a lone surrogate)."""

    def render(self, content: Any) -> bytes:
        return dumps(content)


class Guard:
    """ASGI middleware: body cap by ``Content-Length``, the token, the security headers."""

    def __init__(self, app: ASGIApp, config: ServerConfig) -> None:
        self.app = app
        self.config = config

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        declared = headers.get("content-length", "")
        if declared and (not declared.isdigit() or int(declared) > limits.MAX_BODY_BYTES):
            body = RequestError.of(413, f"the request body is larger than {size_text(limits.MAX_BODY_BYTES)}").body
            await StrictJSONResponse(body, status_code=413)(scope, receive, send)
            return
        path: str = scope["path"]
        if self.config.token and not path.startswith(OPEN_PREFIXES):
            refusal = self.check_token(scope, headers)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        docs = path in ("/docs", "/redoc")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                         (b"x-frame-options", b"DENY")]
                if not docs:  # Swagger UI's page has an inline script of its own
                    extra.append((b"content-security-policy", CSP.encode()))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def check_token(self, scope: Scope, headers: Headers) -> Response | None:
        """None when the request carries the token, else the answer to send: a redirect that sets
        the cookie (a page opened with ``?token=``), or 401."""
        token = self.config.token
        assert token is not None
        given = headers.get("authorization", "")
        candidates = [given[7:].strip()] if given.lower().startswith("bearer ") else []
        for part in headers.get("cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == TOKEN_COOKIE:
                candidates.append(value)
        if any(secrets.compare_digest(c.encode(), token.encode()) for c in candidates):
            return None
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"))
        from_link = [v for k, v in query if k == "token"]
        if from_link and secrets.compare_digest(from_link[0].encode(), token.encode()) and scope["method"] == "GET":
            # The token leaves the address bar (and the history) at once; the cookie keeps it.
            rest = urlencode([(k, v) for k, v in query if k != "token"])
            response = RedirectResponse(scope["path"] + (f"?{rest}" if rest else ""), status_code=303)
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict",
                                secure=scope.get("scheme") == "https")
            return response
        if scope["path"].startswith("/api/") or scope["path"] == "/openapi.json":
            body = RequestError.of(401, "this server needs a token: send 'Authorization: Bearer TOKEN'").body
            return StrictJSONResponse(body, status_code=401, headers={"WWW-Authenticate": "Bearer"})
        page = ("<!doctype html><meta charset=utf-8><title>cpwords: token needed</title>"
                "<h1>This cpwords server needs a token</h1>"
                "<p>Open the link you were given, with <code>?token=…</code> at its end.</p>")
        return HTMLResponse(page, status_code=401)


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The web application: JSON API under ``/api``, one page per kind, static assets.

    Parameters
    ----------
    config:
        The server's settings (default: ``ServerConfig()``, 127.0.0.1, one worker a core).

    Returns
    -------
    FastAPI
        An ASGI app; its lifespan starts the worker processes and stops them.
    """
    from cpwords.server import api, pages

    config = config or ServerConfig()
    pool = WorkerPool(config)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Worker processes inherit the environment: this is how each learns its memory cap.
        os.environ[WORKER_MEMORY_ENV] = str(config.max_memory)
        pool.start()
        try:
            yield
        finally:
            pool.close()

    app = FastAPI(title="cpwords", version=_version(), lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Solve word puzzles: every kind of the cpwords registry, as JSON and as pages. "
                              "Specs are the YAML specs of `cpwords solve`, as JSON or YAML text.")
    app.state.config = config
    app.state.pool = pool
    app.add_middleware(Guard, config=config)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    _add_docs(app)
    _add_error_handlers(app)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


def _version() -> str:
    from cpwords.version import __version__

    return __version__


def _add_error_handlers(app: FastAPI) -> None:
    """Every error is a JSON body with ``error`` (one line), ``field`` and ``value``; never a traceback."""

    @app.exception_handler(RequestError)
    async def refused(request: Request, exc: RequestError) -> Response:
        return StrictJSONResponse(exc.body, status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0]
        field = ".".join(str(s) for s in first.get("loc", ())[1:]) or None
        value = first.get("input")
        body = RequestError.of(422, str(first.get("msg", "invalid parameter")), field=field,
                               value=value if isinstance(value, str | int | float | bool) else None).body
        return StrictJSONResponse(body, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if request.url.path.startswith("/api/") or exc.status_code != 404:
            message = exc.detail if isinstance(exc.detail, str) else "error"
            return StrictJSONResponse(RequestError.of(exc.status_code, message).body, status_code=exc.status_code,
                                headers=getattr(exc, "headers", None))
        from cpwords.server.pages import not_found_page

        return HTMLResponse(not_found_page(), status_code=404)

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> Response:
        import sys
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
        return StrictJSONResponse(RequestError.of(500, "internal error; the server log has the details").body,
                            status_code=500)


def _add_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI from the assets of ``fastapi-offline`` when it is installed (no CDN);
    without it, FastAPI's own page, which loads Swagger UI from a CDN."""
    from fastapi.openapi.docs import get_swagger_ui_html

    try:
        import fastapi_offline

        assets = Path(fastapi_offline.__file__).resolve().parent / "static"
    except ImportError:
        assets = None
    kwargs: dict[str, Any] = {}
    if assets is not None and (assets / "swagger-ui-bundle.js").is_file():
        app.mount("/docs/assets", StaticFiles(directory=assets), name="docs-assets")
        kwargs = {"swagger_js_url": "/docs/assets/swagger-ui-bundle.js",
                  "swagger_css_url": "/docs/assets/swagger-ui.css", "swagger_favicon_url": "/static/favicon.svg"}

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url="/openapi.json", title="cpwords API", **kwargs)


def _openapi(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, with the puzzle specs of every kind as the request body schema of
    ``/api/solve`` and ``/api/jobs`` (read from the registry's pydantic specs)."""
    if app.openapi_schema:
        return app.openapi_schema
    from cpwords.puzzles.loading import json_schema

    schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    spec_schema = json_schema(ref_template="#/components/schemas/{model}")  # what `cpwords schema` prints
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.update(spec_schema.pop("$defs", {}))
    components["PuzzleSpec"] = spec_schema
    body = {"required": True, "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/PuzzleSpec"}},
        "application/yaml": {"schema": {"type": "string", "description": "the spec as YAML text"}}}}
    for path in ("/api/solve", "/api/jobs"):
        operation = schema.get("paths", {}).get(path, {}).get("post")
        if operation is not None:
            operation["requestBody"] = body
    app.openapi_schema = schema
    return schema

