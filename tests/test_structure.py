"""The package's structure: imports run down the floors, no two modules import each other, and no
kind starts processes itself (the execution layer of ``cpwords.engines`` does).

The floors, top to bottom: the front ends (CLI, server), the public package, the API, the cluster
runner, the kinds, the shared machinery (engines, lexicon, geometry), the specs, and the plain data
at the bottom (results, errors, files, display). Every import, wherever it stands (inside a
function or under ``TYPE_CHECKING`` too), counts: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
import functools
import re
from collections import defaultdict
from pathlib import Path

import cpwords

PACKAGE = Path(cpwords.__file__).resolve().parent

#: (floor, module-name pattern): the first pattern that matches gives a module's floor.
FLOORS: list[tuple[int, str]] = [
    (9, r"cpwords\.__main__|cpwords\.cli|cpwords\.background|cpwords\.output|cpwords\.server(\..*)?|cpwords\.commands(\..*)?"),
    (8, r"cpwords"),
    (7, r"cpwords\.api|cpwords\.verify|cpwords\.options|cpwords\.route|cpwords\.checking|cpwords\.running"),
    (6, r"cpwords\.cluster(\..*)?"),
    (5, r"cpwords\.puzzles(\..*)?"),
    (4, r"cpwords\.engines(\..*)?|cpwords\.lexicon(\..*)?|cpwords\.geometry|cpwords\.symmetry|cpwords\.models(\..*)?"),
    (3, r"cpwords\.specs(\..*)?"),
    (2, r"cpwords\.results|cpwords\.files|cpwords\.writer(\..*)?|cpwords\.display|cpwords\.alphabet"),
    (1, r"cpwords\.errors|cpwords\.version|cpwords\.wording"),
]


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The cpwords modules that ``name`` imports (a ``from package import submodule`` names the submodule)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
    return {m for m in found if m in modules and m != name}


@functools.cache
def _graph() -> dict[str, set[str]]:
    """Module -> the cpwords modules it imports (read once a process: the tests only read it)."""
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def floor_of(module: str) -> int:
    for floor, pattern in FLOORS:
        if re.fullmatch(pattern, module):
            return floor
    raise AssertionError(f"{module} has no floor: add it to FLOORS")


def test_every_module_has_a_floor() -> None:
    for module in _graph():
        floor_of(module)


def test_no_import_runs_up_a_floor() -> None:
    up = [f"{a} (floor {floor_of(a)}) imports {b} (floor {floor_of(b)})"
          for a, targets in _graph().items() for b in sorted(targets) if floor_of(b) > floor_of(a)]
    assert not up, "imports running up:\n" + "\n".join(sorted(up))


def test_no_import_circles() -> None:
    graph = _graph()
    # Tarjan's strongly connected components: a component of two or more modules is a circle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not circles, "import circles:\n" + "\n".join(" <-> ".join(c) for c in circles)


def test_kinds_start_no_processes() -> None:
    """Parallel work goes through the execution layer: no kind forks or pools by itself."""
    pattern = re.compile(r"multiprocessing|ProcessPoolExecutor|os\.fork\(")
    found = [f"{path.relative_to(PACKAGE.parent)}:{i}"
             for path in (PACKAGE / "puzzles").rglob("*.py")
             for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert not found, "processes started outside the execution layer: " + ", ".join(found)


def test_the_graph_is_read() -> None:
    """The reader sees the imports it should (a broken reader would pass every test above)."""
    graph = _graph()
    assert "cpwords.engines.budget" in graph["cpwords.engines.parallel"]
    assert "cpwords.puzzles" in graph["cpwords.route"]
    reverse: dict[str, set[str]] = defaultdict(set)
    for a, targets in graph.items():
        for b in targets:
            reverse[b].add(a)
    assert len(reverse["cpwords.errors"]) > 20


def test_the_template_kind_sits_on_the_kinds_floor() -> None:
    """The fill-in template of a new kind (not in the user's registry) is read like every kind:
    its modules are on the kinds' floor, so the rules above hold for it and for every copy of it."""
    graph = _graph()
    template = sorted(m for m in graph if m.startswith("cpwords.puzzles._template"))
    assert {"cpwords.puzzles._template", "cpwords.puzzles._template.check", "cpwords.puzzles._template.native",
            "cpwords.puzzles._template.solve", "cpwords.puzzles._template.cases"} <= set(template)
    assert {floor_of(m) for m in template} == {floor_of("cpwords.puzzles.spelling_bee")}
    # its checker shares nothing with its solvers
    assert not {m for m in graph["cpwords.puzzles._template.check"] if m.startswith("cpwords.puzzles._template")}


#: Rooms a newcomer can read: at most this many modules over :data:`ROOM_LINES` lines, and at most
#: this many functions (nested ones too) over :data:`FUNCTION_LINES` lines.
ROOM_LINES, BIG_ROOMS = 400, 5
FUNCTION_LINES, LONG_FUNCTIONS = 60, 10


def _rooms() -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(lines, module) of the modules over ROOM_LINES and (lines, function) of the functions over
    FUNCTION_LINES, longest first."""
    big: list[tuple[int, str]] = []
    long: list[tuple[int, str]] = []
    for name, path in _modules().items():
        text = path.read_text(encoding="utf-8")
        if (lines := len(text.splitlines())) > ROOM_LINES:
            big.append((lines, name))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > FUNCTION_LINES:
                    long.append((length, f"{name}.{node.name}"))
    return sorted(big, reverse=True), sorted(long, reverse=True)


def test_rooms_stay_small() -> None:
    """A file that grows past ~400 lines is two files (DESIGN.md); a function past 60 lines is a
    public function that validates and private ones that do the work. A few may stay big."""
    big, long = _rooms()
    assert len(big) <= BIG_ROOMS, f"{len(big)} modules over {ROOM_LINES} lines: {big}"
    assert len(long) <= LONG_FUNCTIONS, f"{len(long)} functions over {FUNCTION_LINES} lines: {long}"
    cli_lines = len((PACKAGE / "cli.py").read_text(encoding="utf-8").splitlines())
    assert cli_lines < 400, f"cli.py has {cli_lines} lines: argument parsing and main only"


def test_the_rooms_reader_sees_every_module() -> None:
    """The measure above reads the whole package (a broken reader would pass it)."""
    modules = _modules()
    assert len(modules) > 150 and "cpwords.cli" in modules and "cpwords.puzzles.ruzzle.climb" in modules
