"""The ``cpwords`` command's rooms, beside :mod:`cpwords.cli` (argument parsing and ``main``):

- :mod:`~cpwords.commands.solving`: solve the specs a command built and print their results;
- :mod:`~cpwords.commands.output_files`: the files a run writes (``--svg``, ``--out``,
  ``--checkpoint``), claimed together before anything is solved, and its pictures;
- :mod:`~cpwords.commands.signals`: Ctrl-C and SIGTERM stop the run (exit code 130);
- :mod:`~cpwords.commands.dictionary`: ``cpwords dict …`` and the ``--dict`` option.

Each module loads only when its command runs: ``cpwords --help`` reads this one and the
dictionary command's parser.
"""

#: The exit code of a run stopped by Ctrl-C or SIGTERM.
EXIT_INTERRUPTED = 130
