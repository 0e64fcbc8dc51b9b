"""The ``cpwords`` command's rooms, beside :mod:`cpwords.cli` (argument parsing and ``main``):

- :mod:`~cpwords.commands.dictionary`: ``cpwords dict …`` and the ``--dict`` option.

Each module loads only when its command runs.
"""
