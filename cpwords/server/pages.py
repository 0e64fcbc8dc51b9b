"""The server-rendered pages: an index of the kinds and one page per kind.

Pages are :class:`string.Template` files (``templates/``) filled with registry data, every value
escaped. A kind's page is driven by its page description in ``pages/<kind>.html`` (the form) and
``pages/<kind>.js`` (what the form sends and how the answer is shown); a kind without one gets
the generic page: a YAML spec in, the answer as a list and its pictures out. Nothing here names
a kind.
"""

from __future__ import annotations

import json
import re
import textwrap
from functools import cache
from html import escape
from pathlib import Path
from string import Template
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

from cpwords import puzzles
from cpwords.server.intake import RequestError

router = APIRouter(include_in_schema=False)

TEMPLATES = Path(__file__).resolve().parent / "templates"
_KIND_NAME = re.compile(r"[a-z_]{1,40}")


@cache
def _template(name: str) -> Template:
    return Template((TEMPLATES / name).read_text(encoding="utf-8"))


def _nav(current: str | None) -> str:
    items = []
    for kind in puzzles.kinds().values():
        here = ' aria-current="page"' if kind.name == current else ""
        items.append(f'<li><a href="/kind/{escape(kind.name)}"{here}>{escape(kind.title)}</a></li>')
    return "\n".join(items)


def _layout(title: str, main: str, *, kind: str = "", scripts: list[str] | None = None) -> str:
    tags = "\n".join(f'<script src="{escape(src)}" defer></script>' for src in scripts or [])
    return _template("layout.html").substitute(title=escape(title), kind=escape(kind), nav=_nav(kind or None),
                                               main=main, scripts=tags)


def _page_files(request: Request, kind: str) -> tuple[Path, Path] | None:
    """The kind's page description (form and script), or None for the generic page."""
    folder: Path = request.app.state.config.pages_dir
    form, script = folder / f"{kind}.html", folder / f"{kind}.js"
    return (form, script) if form.is_file() and script.is_file() else None


@router.api_route("/", methods=["GET", "HEAD"], response_class=HTMLResponse)
async def index() -> HTMLResponse:
    """Every kind, with what it does and its engines."""
    cards = []
    for kind in puzzles.kinds().values():
        tasks = ", ".join(kind.tasks)
        engines = ", ".join(kind.engines)
        cards.append(f'<li><a class="card" href="/kind/{escape(kind.name)}"><h2>{escape(kind.title)}</h2>'
                     f'<p>{escape(kind.summary)}</p><p class="meta">tasks: {escape(tasks)} · engines: '
                     f'{escape(engines)}</p></a></li>')
    main = _template("index.html").substitute(cards="\n".join(cards))
    return HTMLResponse(_layout("Word puzzles", main, scripts=[]))


@router.api_route("/kind/{name}", methods=["GET", "HEAD"], response_class=HTMLResponse)
async def kind_page(request: Request, name: str) -> HTMLResponse:
    """The page of one kind: its form (or the generic YAML form), the answer, downloads."""
    if not _KIND_NAME.fullmatch(name) or name not in puzzles.kinds():
        return HTMLResponse(not_found_page(), status_code=404)
    kind = puzzles.get(name)
    files = _page_files(request, kind.name)
    if files is not None:
        form = files[0].read_text(encoding="utf-8")
        scripts = ["/static/cpwords.js", f"/pages/{kind.name}.js"]
    else:
        form = _template("generic.html").substitute(title=escape(kind.title))
        scripts = ["/static/cpwords.js"]
    main = _template("kind.html").substitute(
        title=escape(kind.title), summary=escape(kind.summary), form=form, yaml=escape(starter_yaml(kind.name)),
        fields=_fields(kind.name), open="" if files is not None else " open",
        table=escape(json.dumps(kind.table()), quote=True))
    return HTMLResponse(_layout(kind.title, main, kind=kind.name, scripts=scripts))


@router.get("/pages/{name}.js")
async def page_script(request: Request, name: str) -> FileResponse:
    """A kind's page script (only for registered kinds that have one)."""
    kind = _registered(name)
    files = _page_files(request, kind.name)
    if files is None:
        raise RequestError.of(404, "this kind has no page script", field="kind", value=name[:60])
    return FileResponse(files[1], media_type="text/javascript", headers={"Cache-Control": "no-cache"})


def _registered(name: str) -> puzzles.PuzzleKind:
    if not _KIND_NAME.fullmatch(name) or name not in puzzles.kinds():
        raise RequestError.of(404, "unknown puzzle kind; known kinds: " + ", ".join(puzzles.kinds()),
                              field="kind", value=name[:60])
    return puzzles.get(name)


@cache
def _fields(kind: str) -> str:
    """The kind's spec fields with their descriptions (from the JSON Schema), as a ``<dl>``."""
    from cpwords.puzzles.loading import json_schema

    schema: dict[str, Any] = json_schema(kind)
    rows = []
    for name, prop in schema.get("properties", {}).items():
        default = prop.get("default")
        shown = "" if default is None else f' <span class="default">default: {escape(json.dumps(default))}</span>'
        rows.append(f"<dt><code>{escape(name)}</code>{shown}</dt><dd>{escape(prop.get('description', ''))}</dd>")
    return "\n".join(rows)


@cache
def starter_yaml(kind: str) -> str:
    """The YAML a page's spec box starts with: the kind, then each field the spec requires as a
    comment saying what it holds (read from the schema, so a new kind needs nothing here).

    >>> print(starter_yaml("ruzzle").splitlines()[0])
    kind: ruzzle
    """
    from cpwords.puzzles.loading import json_schema

    schema: dict[str, Any] = json_schema(kind)
    lines = [f"kind: {kind}"]
    for name in schema.get("required", []):
        if name == "kind":
            continue
        about = str(schema.get("properties", {}).get(name, {}).get("description", ""))
        lines.append(f"# {name}: (required) {textwrap.shorten(about, 100, placeholder=' …')}".rstrip())
    return "\n".join(lines) + "\n"


def not_found_page() -> str:
    """The 404 page."""
    return _layout("Not found", '<h1>Not found</h1><p>No such page. <a href="/">All puzzle kinds</a>.</p>')
