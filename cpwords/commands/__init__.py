"""The ``cpwords`` command's rooms, beside :mod:`cpwords.cli` (argument parsing and ``main``):

- :mod:`~cpwords.commands.solving`: solve the specs a command built and print their results;
- :mod:`~cpwords.commands.output_files`: the files a run writes (``--svg``, ``--out``,
  ``--checkpoint``), claimed together before anything is solved, and its pictures;
- :mod:`~cpwords.commands.signals`: Ctrl-C and SIGTERM stop the run (exit code 130);
- :mod:`~cpwords.commands.dictionary`: ``cpwords dict …`` and the ``--dict`` option.

Each module loads only when its command runs: ``cpwords --help`` and ``--version`` read this one
alone (the commands' lines below and the kinds' descriptors).
"""

#: The exit code of a run stopped by Ctrl-C or SIGTERM.
EXIT_INTERRUPTED = 130

#: Each command's line in ``cpwords --help`` (the kinds' are their descriptors' ``command_help``).
SOLVE_HELP = "solve the puzzle(s) of a YAML file"
SCHEMA_HELP = "print the JSON Schema of the puzzle specs"
DICT_HELP = "dictionaries: list, info, define"
SERVE_HELP = "web pages and a JSON API for every puzzle kind"
