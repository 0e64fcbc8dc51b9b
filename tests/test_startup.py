"""What each command imports: nothing it does not use (a fast start-up is a short import list).

Each command runs as a user runs it, in a fresh process, under ``python -X importtime``, whose
report names every module the process imported. The table below lists, for each command, the
modules it must not import; ``--help`` and ``--version`` import no outside library at all and no
part of cpwords beyond the CLI, the registry and the kinds' descriptors.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: Libraries no command below needs (solvers, compilers, clusters, the server): loading one is a
#: start-up cost for nothing.
HEAVY = ("ortools", "pysat", "numba", "llvmlite", "dask", "distributed", "fastapi", "uvicorn", "starlette",
         "pyganak", "scipy", "networkx", "cpwords.server", "cpwords.cluster")

#: Command line -> module prefixes it must not import.
COMMANDS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("--help",): (*HEAVY, "pydantic", "numpy", "yaml", "rich", "cpwords.specs", "cpwords.lexicon",
                  "cpwords.engines", "cpwords.api"),
    ("--version",): (*HEAVY, "pydantic", "numpy", "yaml", "rich", "cpwords.specs", "cpwords.lexicon",
                     "cpwords.engines", "cpwords.api"),
    ("ladder", "cold", "warm"): (*HEAVY, "cpwords.puzzles.letter_boxed", "cpwords.puzzles.word_grid",
                                 "cpwords.puzzles.ruzzle", "cpwords.puzzles.prefix_suffix_board"),
    ("letter-boxed", "lme", "iuf", "wcb", "oas"): (*HEAVY, "cpwords.puzzles.ladder", "cpwords.puzzles.word_grid",
                                                   "cpwords.puzzles.ruzzle", "cpwords.puzzles.prefix_suffix_board"),
}


def imported(argv: tuple[str, ...]) -> set[str]:
    """The modules ``cpwords ARGV`` imports (from ``-X importtime``'s report on stderr)."""
    env = {k: v for k, v in os.environ.items() if k != "CPWORDS_EXTRA_KINDS"}
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "cpwords", *argv], capture_output=True,
                         text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    names = {line.rsplit("|", 1)[1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")}
    assert "cpwords.cli" in names, "the report was not read"  # a broken reader would pass everything
    return names


@pytest.mark.parametrize("argv", list(COMMANDS), ids=" ".join)
def test_a_command_imports_nothing_it_does_not_use(argv: tuple[str, ...]) -> None:
    names = imported(argv)
    unused = sorted(n for n in names for prefix in COMMANDS[argv] if n == prefix or n.startswith(prefix + "."))
    assert not unused, f"cpwords {' '.join(argv)} imports {unused}"


def test_the_overview_reads_only_the_cli_and_the_registry() -> None:
    """``--help`` lists every command from the kinds' descriptors, without their parsers."""
    ours = {n for n in imported(("--help",)) if n.startswith("cpwords")}
    allowed = {"cpwords", "cpwords.cli", "cpwords.commands", "cpwords.puzzles", "cpwords.errors", "cpwords.version"}
    extra = sorted(n for n in ours - allowed if not (n.startswith("cpwords.puzzles.") and n.count(".") == 2))
    assert not extra, extra


def test_the_overview_says_what_each_command_says_of_itself() -> None:
    """A command's line in the overview is the line its own parser gives (one text, the descriptor's)."""
    import argparse

    from cpwords import cli, puzzles

    def lines(parser: argparse.ArgumentParser) -> dict[str, str]:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return {a.dest: a.help or "" for a in sub._choices_actions}

    overview = lines(cli.build_parser(None))
    commands = ["solve", "schema", "dict", "serve", *(k.command for k in puzzles.kinds().values() if k.cli)]
    assert list(overview) == commands
    for command in commands:
        own = lines(cli.build_parser(command))
        assert own == {command: overview[command]} and overview[command], command
