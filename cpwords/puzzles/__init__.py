"""The puzzle kinds. Each kind is a package ``cpwords.puzzles.<kind>`` with:

- ``spec.py``: ``SPEC``, its pydantic spec class (light: pydantic only);
- ``__init__.py``: ``ENGINES`` (tuple of engine names) and ``solve(spec, engine) -> Result``;
  it imports solver back ends lazily, inside ``solve``, so that a ladder never loads OR-Tools;
- ``check.py``: its independent checker, registered with :mod:`cpwords.verify`;
- ``render.py``: ``render(spec, result)`` (a rich renderable for the terminal) and optionally
  ``svg(spec, result) -> str``;
- ``cli.py`` (optional): ``add_parser(subparsers, parents)`` for its shortcut command.
"""

from __future__ import annotations

#: kind name -> package. A kind joins cpwords by adding one line here.
KINDS: dict[str, str] = {
    "ladder": "cpwords.puzzles.ladder",
    "letter_boxed": "cpwords.puzzles.letter_boxed",
    "word_grid": "cpwords.puzzles.word_grid",
    "prefix_suffix_board": "cpwords.puzzles.prefix_suffix_board",
    "ruzzle": "cpwords.puzzles.ruzzle",
}
