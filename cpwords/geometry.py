"""Shapes read from ``models/`` and their symmetry.

Two kinds of shape:

- a **board** (``models/boards/*.yaml``): named nodes, each with a ``kind`` and a position
  ``at: [x, y]`` (x to the right, y up), and undirected ``edges`` between node names;
- a **grid** (``models/grids/*.yaml``): ``rows`` of ``.`` (open cell) and ``#`` (black cell),
  optionally ``fixed`` cells ([row, col], 1-based, row 1 on top). Cells shown to people are
  always ``[row, col]``, 1-based.

A shape's symmetry group is computed from its coordinates, never typed by hand: of the eight
transformations of the square (four rotations, four mirrors) about the centre of the shape's
bounding box, keep those that map the shape onto itself, preserving node kinds and edges.

Symmetry breaking uses one lex-leader per orbit: for every group element g, X ≤lex g·X where
X is the vector of values in node order and (g·X)[j] = X[g⁻¹(j)].

Example
-------
>>> b = load_board("okwddm")
>>> len(board_symmetries(b))
8
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from cpwords.errors import InputError, yaml_input_error
from cpwords.symmetry import (  # noqa: F401  (importable from here as before)
    SQUARE_TRANSFORMS,
    Symmetry,
    canonical_form,
    is_lex_leader,
    orbit_size,
    point_symmetries,
)

# ---------------------------------------------------------------- loading shapes


def models_root() -> Any:
    """The shipped ``models/`` folder: the ``cpwords.models`` package of an installed cpwords, or
    the checkout's top-level ``models/`` when cpwords is imported from a source checkout (the
    wheel maps that folder to ``cpwords.models``; see setup.py)."""
    try:
        return resources.files("cpwords.models")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / "models"


def shipped_shapes(folder: str) -> list[str]:
    """Names of the shapes shipped in ``models/<folder>/``."""
    base = models_root() / folder
    try:
        return sorted(p.name[:-5] for p in base.iterdir() if p.name.endswith(".yaml"))
    except (FileNotFoundError, NotADirectoryError):
        return []


def read_shape(folder: str, ref: str | Path, *, field_name: str, base_dir: Path | None = None) -> tuple[dict[str, Any], str]:
    """The YAML mapping of a shape named ``ref`` (shipped) or at path ``ref``, and its source name.

    A user's file is read through :func:`cpwords.files.read_text` (a byte cap; folders, FIFOs and
    devices refused; UTF-16 and binary files named) and parsed with the same guards as puzzle
    files (nesting depth, alias bombs); every error is an InputError naming the file.
    """
    noun = {"boards": "board", "grids": "grid shape", "ruzzle": "bonus layout", "dice": "dice set"}.get(folder, f"{folder} layout")
    if isinstance(ref, str) and "/" not in ref and not ref.endswith((".yaml", ".yml")):
        from cpwords.files import exists

        entry = models_root() / folder / f"{ref}.yaml"
        if not exists(entry) or not entry.is_file():
            known = ", ".join(shipped_shapes(folder)) or "none"
            raise InputError(f"unknown {noun}; shipped: {known}; or give a .yaml path",
                             field=field_name, value=ref)
        text = entry.read_text(encoding="utf-8")
        source = f"models/{folder}/{ref}.yaml"
    else:
        from cpwords.files import read_text

        path = Path(ref).expanduser()
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        source = str(path)
        text = read_text(path, what=f"{noun} file", field=field_name)
    data = load_yaml_text(text, source)
    if not isinstance(data, dict):
        raise InputError(f"a {noun} file must be a mapping of fields (it is "
                         + ("empty" if data is None else f"a {type(data).__name__}") + ")", source=source)
    return data, source


def shape_error(message: str, source: str, loc: Sequence[str | int], **fields: Any) -> InputError:
    """An error inside a shape file (a board, grid, bonus layout or dice set a spec names): the
    file, the line of ``loc`` in it and the field path within it, not the puzzle's field that
    names the file. A shipped shape's source is not a file here: no line."""
    from cpwords.specs.documents import _line_of, _Loader

    line = None
    try:
        line = _line_of(yaml.compose(Path(source).read_text(encoding="utf-8"), Loader=_Loader), loc)
    except (OSError, yaml.YAMLError, ValueError):
        pass
    field = ".".join(f"[{s}]" if isinstance(s, int) else str(s) for s in loc).replace(".[", "[") or None
    return InputError(message, source=source, line=line, field=field, **fields)


def load_yaml_text(text: str, source: str) -> Any:
    """The data of a user's YAML file (a shape, a grid file), parsed with the puzzle files' guards
    (nesting depth, alias bombs, dates read as text); errors are InputErrors naming ``source``."""
    from cpwords.specs.documents import MAX_YAML_NODES, _expanded_size, _Loader

    try:
        node = yaml.compose(text.removeprefix("\ufeff"), Loader=_Loader)
        if node is not None and _expanded_size(node, {}) > MAX_YAML_NODES:
            raise InputError(f"the YAML document expands to more than {MAX_YAML_NODES:,} values (alias bomb?)",
                             source=source)
        return None if node is None else _Loader(text).construct_document(node)
    except InputError as exc:
        raise exc.located(source=source) from None
    except RecursionError:
        raise InputError("the YAML document is nested too deeply", source=source) from None
    except yaml.YAMLError as exc:
        raise yaml_input_error(exc, source) from None


@dataclass(frozen=True)
class Board:
    """A board graph: named nodes with kinds and positions, and edges between them."""

    name: str
    nodes: tuple[str, ...]
    kinds: tuple[str, ...]
    positions: tuple[tuple[int, int], ...]
    edges: tuple[tuple[int, int], ...]
    meta: dict[str, Any] = field(default_factory=dict, compare=False)
    source: str | None = field(default=None, compare=False)
    """The file it was read from (``models/boards/NAME.yaml`` for a shipped one), for errors."""

    def error(self, message: str, loc: Sequence[str | int], **fields: Any) -> InputError:
        """An error in this board's file at ``loc`` (see :func:`shape_error`)."""
        if self.source is None:
            return InputError(message, field=".".join(map(str, loc)), **fields)
        return shape_error(message, self.source, loc, **fields)

    def index(self, node: str) -> int:
        """Index of a node name."""
        return self.nodes.index(node)

    def nodes_of(self, kind: str) -> list[int]:
        """Indices of the nodes of one kind."""
        return [i for i, k in enumerate(self.kinds) if k == kind]

    def degree(self, i: int) -> int:
        """Number of edges at node i."""
        return sum(1 for a, b in self.edges if i in (a, b))

    def neighbours(self, i: int) -> list[int]:
        """Nodes joined to node i."""
        return [b if a == i else a for a, b in self.edges if i in (a, b)]


def parse_board(data: dict[str, Any], *, name: str, source: str) -> Board:
    """A :class:`Board` from its YAML mapping (``nodes: {name: {kind, at}}``, ``edges: [[a, b]]``)."""
    nodes_data = data.get("nodes")
    if not isinstance(nodes_data, dict) or not nodes_data:
        raise shape_error("a board needs a non-empty 'nodes' mapping", source, ["nodes"])
    names, kinds, positions = [], [], []
    for node, info in nodes_data.items():
        if not isinstance(info, dict) or "kind" not in info or "at" not in info:
            raise shape_error("each node needs 'kind' and 'at: [x, y]'", source, ["nodes", node])
        at = info["at"]
        if not (isinstance(at, list) and len(at) == 2 and all(isinstance(v, int) for v in at)):
            raise shape_error("'at' must be two integers [x, y]", source, ["nodes", node, "at"], value=at)
        names.append(str(node))
        kinds.append(str(info["kind"]))
        positions.append((at[0], at[1]))
    edges = []
    seen = set()
    for k, edge in enumerate(data.get("edges") or []):
        if not (isinstance(edge, list) and len(edge) == 2) or not all(e in names for e in edge):
            raise shape_error("an edge is a pair of node names", source, ["edges", k], value=edge)
        a, b = names.index(edge[0]), names.index(edge[1])
        if a == b or frozenset((a, b)) in seen:
            raise shape_error("self-loop or repeated edge", source, ["edges", k], value=edge)
        seen.add(frozenset((a, b)))
        edges.append((a, b))
    if not edges:
        raise shape_error("a board needs at least one edge", source, ["edges"])
    meta = {k: v for k, v in data.items() if k not in ("nodes", "edges")}
    return Board(name, tuple(names), tuple(kinds), tuple(positions), tuple(edges), meta, source=source)


def load_board(ref: str | Path, *, base_dir: Path | None = None) -> Board:
    """A shipped board by name (``okwddm``) or a board YAML file."""
    data, source = read_shape("boards", ref, field_name="board", base_dir=base_dir)
    name = str(ref) if isinstance(ref, str) and "/" not in ref else Path(ref).stem
    return parse_board(data, name=name, source=source)


def board_symmetries(board: Board) -> list[Symmetry]:
    """Transformations of the square mapping the board onto itself (kinds and edges kept)."""
    candidates = point_symmetries(board.positions, board.kinds)
    edge_set = {frozenset(e) for e in board.edges}
    return [g for g in candidates if {frozenset((g.perm[a], g.perm[b])) for a, b in board.edges} == edge_set]


@dataclass(frozen=True)
class GridShape:
    """A grid of open (``.``) and black (``#``) cells; optional fixed cells (1-based [row, col])."""

    name: str
    rows: tuple[str, ...]
    fixed: tuple[tuple[int, int], ...] = ()
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def height(self) -> int:
        """Number of rows."""
        return len(self.rows)

    @property
    def width(self) -> int:
        """Number of columns."""
        return len(self.rows[0])

    def is_open(self, r: int, c: int) -> bool:
        """Whether 0-based cell (r, c) is open."""
        return self.rows[r][c] != "#"

    def open_cells(self) -> list[tuple[int, int]]:
        """Open cells, 0-based (row, col), in reading order."""
        return [(r, c) for r in range(self.height) for c in range(self.width) if self.is_open(r, c)]

    def slots(self) -> list[tuple[str, tuple[tuple[int, int], ...]]]:
        """Maximal runs of ≥ 2 open cells: ('across' | 'down', 0-based cells in reading order)."""
        out: list[tuple[str, tuple[tuple[int, int], ...]]] = []
        for r in range(self.height):
            run: list[tuple[int, int]] = []
            for c in range(self.width + 1):
                if c < self.width and self.is_open(r, c):
                    run.append((r, c))
                else:
                    if len(run) >= 2:
                        out.append(("across", tuple(run)))
                    run = []
        for c in range(self.width):
            run = []
            for r in range(self.height + 1):
                if r < self.height and self.is_open(r, c):
                    run.append((r, c))
                else:
                    if len(run) >= 2:
                        out.append(("down", tuple(run)))
                    run = []
        return out


def parse_grid(data: dict[str, Any], *, name: str, source: str) -> GridShape:
    """A :class:`GridShape` from its YAML mapping (``rows``, optional ``fixed``)."""
    rows = data.get("rows")
    if isinstance(rows, str):
        rows = rows.split()
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise shape_error("a grid needs 'rows': a list of strings of '.' and '#'", source, ["rows"])
    rows = [r.strip() for r in rows]
    if len({len(r) for r in rows}) != 1:
        raise shape_error("all rows must have the same length", source, ["rows"], value=rows)
    for i, r in enumerate(rows):
        if set(r) - {".", "#"}:
            raise shape_error("rows use only '.' (open) and '#' (black)", source, ["rows", i], value=r)
    fixed = []
    for k, cell in enumerate(data.get("fixed") or []):
        if not (isinstance(cell, list) and len(cell) == 2 and all(isinstance(v, int) for v in cell)):
            raise shape_error("a fixed cell is [row, col], 1-based", source, ["fixed", k], value=cell)
        r, c = cell
        if not (1 <= r <= len(rows) and 1 <= c <= len(rows[0])) or rows[r - 1][c - 1] == "#":
            raise shape_error("fixed cell is outside the grid or black", source, ["fixed", k], value=cell)
        fixed.append((r, c))
    meta = {k: v for k, v in data.items() if k not in ("rows", "fixed")}
    return GridShape(name, tuple(rows), tuple(fixed), meta)


def load_grid(ref: str | Path, *, base_dir: Path | None = None) -> GridShape:
    """A shipped grid by name (``gridle-5x5``) or a grid YAML file."""
    data, source = read_shape("grids", ref, field_name="shape", base_dir=base_dir)
    name = str(ref) if isinstance(ref, str) and "/" not in ref else Path(ref).stem
    return parse_grid(data, name=name, source=source)


def grid_cell_symmetries(shape: GridShape) -> list[Symmetry]:
    """Symmetries of the open/black pattern, as permutations of ``shape.open_cells()``.

    Cells sit at x = col, y = −row, so "transpose" is the main diagonal.
    """
    cells = shape.open_cells()
    return point_symmetries([(c, -r) for r, c in cells])


def grid_word_symmetries(shape: GridShape) -> list[Symmetry]:
    """The cell symmetries that keep every slot readable forwards.

    A word grid's answer is read left to right and top to bottom. A map belongs to the group
    of the *puzzle* only when it carries each slot, in reading order, onto a slot in reading
    order: then every valid grid maps onto a valid grid. For a square grid that is the
    identity and the transpose (rows become columns). A 180° turn maps the shape onto
    itself but reverses every word (CRANE would have to be read ENARC), so it is not a
    symmetry of the puzzle unless the dictionary were closed under reversal.
    """
    cells = shape.open_cells()
    index = {cell: i for i, cell in enumerate(cells)}
    slot_set = {tuple(index[c] for c in run) for _, run in shape.slots()}
    keep = []
    for g in grid_cell_symmetries(shape):
        if all(tuple(g.perm[i] for i in slot) in slot_set for slot in slot_set):
            keep.append(g)
    return keep
