"""The template of a new kind: Anagram, every dictionary word made from a handful of letters.

Copy this folder to ``cpwords/puzzles/<your_kind>/``, rename ``_template`` / ``Template`` in
every file, and replace the anagram by your puzzle; then add ``"<your_kind>"`` to
``KIND_PACKAGES`` in ``cpwords/puzzles/__init__.py`` (this template is not there: cpwords' users
never see it; the tests load it as one more kind through ``CPWORDS_EXTRA_KINDS``, so every shared
sweep solves it and it cannot go stale). docs/design.md, "Adding a kind", lists the rest.

This file holds the descriptor and nothing else: importing it must stay cheap, because every
front end reads the registry, and a ``"module:attribute"`` string is loaded only when used.
"""

from cpwords.puzzles import PuzzleKind

KIND = PuzzleKind(
    # The YAML ``kind:``, the shortcut command (``cpwords <command> …``), the name people read and
    # the one line ``cpwords --help`` and the web pages show.
    name="_template",
    command="_template",
    title="Anagram (template)",
    command_help="Anagram (template): every word of some letters",
    summary="every dictionary word made from some letters, each used at most as often as given",
    package=__name__,
    # engine -> the tasks it performs, in the order users see them. Each engine is a module of
    # this package (``native.py``) with one function a task, named after the task (a trailing
    # underscore for a Python builtin: ``enumerate_``). The first engine listed for a task is
    # its default; ``defaults={task: engine}`` says otherwise. A second engine (``cpsat.py``,
    # ``sat.py``) must agree with the first on every answer and count: the tests compare them.
    capabilities={"native": ("enumerate", "count")},
    # The parts, as "module:attribute" of this package. The defaults are spec:SPEC,
    # solution:SOLUTION, check:check, solve (the hooks), render and cli:add_parser; name yours.
    spec="spec:TemplateSpec",
    solution="solution:TemplateSolution",
    # No pictures: render.py has no ``svg``. Set True once it draws (``svg(spec, result)``), as
    # spelling_bee/render.py does; the CLI then offers --svg and the web page shows them.
    draws=False,
)
