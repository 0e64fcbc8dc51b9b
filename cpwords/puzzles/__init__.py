"""The puzzle kinds and the one registry that every front end reads.

Each kind is a package ``cpwords.puzzles.<kind>`` whose ``__init__.py`` holds nothing but its
:class:`PuzzleKind` descriptor, ``KIND``: names, where its spec, solution, checker, renderer and
shortcut command live, and its capability table (which engine does which task, and the default
engine of each task). The descriptor names modules by string and loads them on first use, so
reading the registry is cheap and a ladder never loads OR-Tools.

The CLI, the API, the verifier, the web server and the cluster runner all go through
:func:`get` and :func:`kinds`; none of them holds per-kind code.

>>> get("letter_boxed").engines_for("generate")
('native',)
>>> get("word_grid").default_engine("unscramble")
'cpsat'
"""

from __future__ import annotations

import builtins
import importlib
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from cpwords.errors import CpwordsError

if TYPE_CHECKING:
    from cpwords.engines.budget import Budget
    from cpwords.engines.found import Found
    from cpwords.engines.task import TaskFunction
    from cpwords.results import Result, Solution
    from cpwords.specs import BaseSpec, DictionaryRef

@dataclass
class Prepared:
    """What a kind's ``prepare`` hook returns.

    Attributes
    ----------
    problem: what the kind's engines take (a table of words, a board, a grid problem …).
    stats: figures of the preparation (``dictionary``, sizes); ``prepare_s`` is added.
    outcome: an engine's outcome when nothing is left to search (a letter no word reaches, words
        in different groups, a limit reached while preparing): the engine is not run.
    """

    problem: Any = None
    stats: dict[str, Any] = field(default_factory=dict)
    outcome: Found | None = None


class UnsupportedTask(CpwordsError, KeyError):
    """A kind asked for a task it does not have, or an engine for a task it does not perform."""


#: The registry: one line per kind (its package under ``cpwords.puzzles``), in display order.
KIND_PACKAGES: tuple[str, ...] = (
    "ladder",
    "letter_boxed",
    "word_grid",
    "prefix_suffix_board",
    "ruzzle",
    "spelling_bee",
)


#: Kind packages added to the registry for one process and its children: full module names,
#: separated by commas. The test suite sets it to ``cpwords.puzzles._template`` (tests/conftest.py),
#: so that the fill-in template every new kind starts from is solved, checked and swept as a
#: seventh kind, and so cannot go stale, while cpwords' users never see it. It is an environment
#: variable, not a call, because the sweeps also run ``python -m cpwords`` in child processes.
EXTRA_KINDS = "CPWORDS_EXTRA_KINDS"


def kind_packages() -> tuple[str, ...]:
    """The full module names of every registered kind: :data:`KIND_PACKAGES`, then those of
    :data:`EXTRA_KINDS` (none unless it is set).

    >>> kind_packages()[:2]
    ('cpwords.puzzles.ladder', 'cpwords.puzzles.letter_boxed')
    """
    extra = [name.strip() for name in os.environ.get(EXTRA_KINDS, "").split(",") if name.strip()]
    return tuple(f"{__name__}.{p}" for p in KIND_PACKAGES) + tuple(extra)


_BUILTIN_NAMES = frozenset(dir(builtins))


@cache
def _ref(package: str, ref: str) -> Any:
    """``"module:attribute"`` (relative to ``package``) or ``"module"`` -> the object (looked up
    once per process: every solve dispatches through here)."""
    module_name, _, attribute = ref.partition(":")
    module = importlib.import_module(f"{package}.{module_name}")
    return getattr(module, attribute) if attribute else module


@dataclass(frozen=True)
class PuzzleKind:
    """How one puzzle kind joins cpwords.

    Attributes
    ----------
    name: the YAML ``kind:`` value (``letter_boxed``).
    command: the CLI shortcut (``cpwords letter-boxed …``).
    title: the human name (``Letter Boxed``).
    command_help: the shortcut command's line in ``cpwords --help`` (read without loading the
        kind's CLI module, so that the overview of the commands starts fast).
    summary: one line saying what cpwords does with it.
    package: the kind's package (``cpwords.puzzles.letter_boxed``).
    capabilities: engine -> the tasks it performs, in the order shown to users.
    defaults: task -> its default engine (when the spec names none); tasks missing here default
        to the first engine that performs them.
    engine_modules: engine -> module of the package holding one function per task (default: the
        engine's own name, e.g. ``cpsat`` -> ``cpsat.py``); ``"engine:task"`` -> the module of one
        task of an engine, where it lives apart (word grids' ``cpsat:unscramble``).
    spec, solution, checker, renderer, cli, word_facts, shards: ``"module:attribute"``
        references inside the package, loaded on first use. ``renderer`` is a module with
        ``render(spec, result)`` and,
        when ``draws``, ``svg(spec, result)``; ``cli`` adds the shortcut command; ``word_facts``
        (optional) gives rows about one word of a dictionary for ``cpwords dict info``;
        ``shards`` (optional) splits big tasks for the cluster runner.
    pipeline: the module of the kind's two hooks, which :meth:`solve` runs:
        ``prepare(spec, budget) -> Prepared`` and ``result(spec, problem, found, stats, budget) ->
        Result``; optionally ``search(problem, spec, budget, run) -> Found`` around the engine's
        task function (``run``).
    checker_all: optional ``"module:attribute"``: the checker of every solution of one result at
        once, ``fn(spec, solutions) -> {index: problems}`` (only the solutions with problems),
        which ``cpwords.solve`` uses instead of calling ``checker`` once per solution (for kinds
        whose results hold hundreds of answers). It applies the rules of ``checker``.
    batch: optional ``"module:attribute"``: solves many specs of the kind together for
        ``cpwords.solve_many``, ``fn(specs, budget, *, scores_only) -> [Result | None]`` (None for
        each spec it leaves to ``cpwords.solve``); its results equal ``cpwords.solve``'s.
    draws: whether the renderer can draw SVG pictures.
    cases: the module of the kind's test cases (``cases.py``: plain data the shared sweeps of
        ``tests/`` read through :meth:`test_cases`, so that a new kind touches no shared test file).
    """

    name: str
    command: str
    title: str
    summary: str
    package: str
    capabilities: Mapping[str, tuple[str, ...]]
    command_help: str = ""
    defaults: Mapping[str, str] = field(default_factory=dict)
    engine_modules: Mapping[str, str] = field(default_factory=dict)
    spec: str = "spec:SPEC"
    solution: str = "solution:SOLUTION"
    checker: str = "check:check"
    pipeline: str = "solve"
    renderer: str = "render"
    cli: str | None = "cli:add_parser"
    word_facts: str | None = None
    shards: str | None = None
    checker_all: str | None = None
    batch: str | None = None
    draws: bool = True
    cases: str = "cases"

    # -- the capability table

    @property
    def engines(self) -> tuple[str, ...]:
        """Every engine of the kind."""
        return tuple(self.capabilities)

    @property
    def tasks(self) -> tuple[str, ...]:
        """Every task of the kind, in first-seen order."""
        out: list[str] = []
        for tasks in self.capabilities.values():
            out += [t for t in tasks if t not in out]
        return tuple(out)

    def engines_for(self, task: str) -> tuple[str, ...]:
        """The engines that perform ``task``."""
        return tuple(e for e, tasks in self.capabilities.items() if task in tasks)

    def default_engine(self, task: str) -> str:
        """The engine used for ``task`` when the spec names none."""
        if task in self.defaults:
            return self.defaults[task]
        engines = self.engines_for(task)
        if not engines:
            raise UnsupportedTask(f"{self.name} has no task {task!r}; its tasks: {', '.join(self.tasks)}")
        return engines[0]

    def supports(self, engine: str, task: str) -> bool:
        """Whether ``engine`` performs ``task``."""
        return task in self.capabilities.get(engine, ())

    def table(self) -> dict[str, Any]:
        """The capability table as plain data (for ``/api/kinds`` and the docs)."""
        return {
            "kind": self.name, "command": self.command, "title": self.title, "summary": self.summary,
            "engines": {e: list(t) for e, t in self.capabilities.items()},
            "defaults": {t: self.default_engine(t) for t in self.tasks},
            "draws": self.draws,
        }

    # -- lazy parts

    def load(self, ref: str) -> Any:
        """The object a ``"module:attribute"`` reference of this kind names."""
        return _ref(self.package, ref)

    def spec_class(self) -> type[BaseSpec]:
        """The kind's pydantic spec class."""
        return self.load(self.spec)  # type: ignore[no-any-return]

    def solution_class(self) -> type[Solution]:
        """The kind's Solution class."""
        return self.load(self.solution)  # type: ignore[no-any-return]

    def check(self, spec: BaseSpec, solution: Solution) -> list[str]:
        """The independent checker: the rules this solution breaks (empty when it is right)."""
        return self.load(self.checker)(spec, solution)  # type: ignore[no-any-return]

    def prepare(self, spec: BaseSpec, budget: Budget | None = None) -> Prepared:
        """The kind's first hook: the problem its engines take (and the stats of building it), or
        an outcome when there is nothing to search."""
        return self.load(self.pipeline).prepare(spec, budget)  # type: ignore[no-any-return]

    def result(self, spec: BaseSpec, prepared: Prepared, found: Found, budget: Budget | None = None) -> Result:
        """The kind's second hook: the Result of what an engine (or a sharded run) found."""
        from cpwords.engines.budget import Budget

        hooks = self.load(self.pipeline)
        return hooks.result(spec, prepared.problem, found, dict(prepared.stats),  # type: ignore[no-any-return]
                            budget or Budget(None))

    def solve(self, spec: BaseSpec, budget: Budget) -> Result:
        """Every kind's pipeline (the API adds seed, timing and the check): the kind's
        ``prepare`` hook, the spec's engine on the task (read from the capability table; a kind's
        ``search`` hook may wrap it), then the kind's ``result`` hook turns what the engine found
        into the Result. A search that stops on a limit of its own (time, memory) still ends in a
        Result, saying why."""
        from cpwords.engines.budget import builds_within

        with builds_within(budget):  # a dictionary's first use builds its index within the limit
            return self._solve(spec, budget)

    def _solve(self, spec: BaseSpec, budget: Budget) -> Result:
        from cpwords.engines.budget import BuildStopped, MemoryBudgetExceeded, SearchTimeout
        from cpwords.engines.found import MEMORY, Found

        hooks = self.load(self.pipeline)
        t0 = time.perf_counter()
        prepared: Prepared = hooks.prepare(spec, budget)
        stats = {**prepared.stats, "prepare_s": round(time.perf_counter() - t0, 6)}
        found = prepared.outcome
        if found is None:
            t1 = time.perf_counter()
            search = getattr(hooks, "search", None)
            try:
                found = (search(prepared.problem, spec, budget, self.run) if search is not None
                         else self.run(prepared.problem, spec, budget))
            except SearchTimeout as exc:  # a build's says what it was building
                found = Found(message=getattr(exc, "message", None)).stop(exc.args[0] if exc.args else budget.reason)
                if isinstance(exc, BuildStopped):  # its reason, even when the budget's own is unset
                    found.stats["stopped"] = exc.reason
                    if exc.to_finish:
                        found.stats["build_stopped"] = exc.what
            except MemoryBudgetExceeded as exc:
                found = Found(message=str(exc)).stop(MEMORY)
            found.stats.setdefault("search_s", round(time.perf_counter() - t1, 6))
        return hooks.result(spec, prepared.problem, found, stats, budget)  # type: ignore[no-any-return]

    def test_cases(self) -> ModuleType:
        """The kind's test cases module (``cases.py``; only the tests load it)."""
        return self.load(self.cases)  # type: ignore[no-any-return]

    def render_module(self) -> ModuleType:
        """The kind's renderer module."""
        return self.load(self.renderer)  # type: ignore[no-any-return]

    def run(self, problem: Any, spec: BaseSpec, budget: Budget) -> Found:
        """Run the spec's task with the spec's engine on a prepared ``problem``: the dispatch
        every kind's ``solve`` uses, read from the capability table."""
        assert spec.engine is not None, "the engine is resolved when the spec is validated"
        return self.task_function(spec.engine, spec.task)(problem, spec, budget)

    def task_function(self, engine: str, task: str) -> TaskFunction[Any, Any]:
        """The engine module's function for ``task``: ``fn(problem, spec, budget) -> Found`` (the
        contract :class:`~cpwords.engines.task.TaskFunction`).

        The function is named after the task, with a trailing underscore where that name is a
        Python builtin (``enumerate_``).
        """
        if not self.supports(engine, task):
            raise UnsupportedTask(f"{self.name}: engine {engine!r} does not perform task {task!r}; "
                                  f"engines that do: {', '.join(self.engines_for(task)) or 'none'}")
        module = self.load(self.engine_modules.get(f"{engine}:{task}", self.engine_modules.get(engine, engine)))
        name = task + "_" if task in _BUILTIN_NAMES else task
        return getattr(module, name)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class CommandTools:
    """What the CLI hands every kind's shortcut command (``add_parser(subparsers, parents, tools)``;
    ``args.tools`` when it runs), so that the kinds never import the CLI.

    Attributes
    ----------
    solve_and_print: solve specs and print their results as ``cpwords solve`` does; the exit code.
    field_choices: the allowed values of a spec class's ``Literal`` field (for ``choices=``).
    dictionary_option: a ``--dict`` value as a dictionary reference.
    positive_int: an argparse ``type=`` for counts of at least 1 (``--generate 0`` is refused).
    """

    solve_and_print: Callable[[list[Any], Any], int]
    field_choices: Callable[[type[Any], str], list[str]]
    dictionary_option: Callable[[str], Any]
    positive_int: Callable[[str], int]


@cache
def kinds() -> dict[str, PuzzleKind]:
    """Every registered kind by name, in registry order."""
    out = {}
    for package in kind_packages():
        kind: PuzzleKind = importlib.import_module(package).KIND
        out[kind.name] = kind
    return out


def get(name: str) -> PuzzleKind:
    """The kind called ``name``.

    Raises
    ------
    InputError
        For an unknown kind, naming the known ones (field ``kind``).
    """
    table = kinds()
    if name not in table:
        from cpwords.errors import InputError

        raise InputError(f"unknown puzzle kind; known kinds: {', '.join(table)}", field="kind", value=name)
    return table[name]


def by_command(command: str) -> PuzzleKind | None:
    """The kind whose CLI shortcut is ``command``."""
    return next((k for k in kinds().values() if k.command == command), None)


def word_facts(word: str, ref: DictionaryRef) -> dict[str, Any]:
    """What is known about ``word``: the dictionary's facts (:func:`cpwords.lexicon.facts.word_facts`)
    and, for a word in the dictionary, those each kind adds (a ladder's group and links), each
    under its label and as a ``[label, text]`` row of ``more``."""
    from cpwords.lexicon.facts import word_facts as dictionary_word_facts

    facts = dictionary_word_facts(word, ref)
    if facts["in_dictionary"]:
        for kind in kinds().values():
            if kind.word_facts:
                for label, data, text in kind.load(kind.word_facts)(word, ref):
                    facts[label] = data
                    facts["more"].append([label.replace("_", " "), text])
    return facts
