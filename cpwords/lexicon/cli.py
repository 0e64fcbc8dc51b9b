"""``cpwords dict …``: list the dictionaries, describe one or a word, define a word.

Each sub-command is one ``_cmd_*`` function registered in :func:`add_parser`; add a new one by
writing its function and one ``sub.add_parser`` block.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from pathlib import Path

from cpwords.errors import InputError
from cpwords.specs import DictionaryRef

_WORD = re.compile(r"[A-Za-z]+")


def ref_from_option(text: str | None) -> DictionaryRef:
    """A ``--dict`` value as a reference: a built-in name, else an existing word-list file."""
    from cpwords.lexicon.sources import DEFAULT_DICTIONARY, is_builtin_name

    if text is None:
        return DictionaryRef(name=DEFAULT_DICTIONARY)
    if is_builtin_name(text) or not Path(text).expanduser().exists():
        return DictionaryRef(name=text)  # an unknown name is reported by load_lexicon
    return DictionaryRef(path=Path(text).expanduser().resolve())


def add_parser(subparsers: argparse._SubParsersAction, parents: Sequence[argparse.ArgumentParser] = ()) -> None:
    """Add ``dict`` and its sub-commands to the main command's ``subparsers``."""
    p = subparsers.add_parser("dict", help="dictionaries: list, info, define")
    sub = p.add_subparsers(dest="dict_command", metavar="SUBCOMMAND", parser_class=type(p))
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])

    q = sub.add_parser("list", help="the built-in dictionaries and their sizes")
    q.set_defaults(func=_cmd_list)

    q = sub.add_parser("info", help="a dictionary (word counts by length) or a word (level, zipf, rareness)")
    q.add_argument("target", metavar="NAME|FILE|WORD", help="dictionary name, word-list file, or a word")
    q.add_argument("--dict", metavar="NAME|FILE", help="dictionary to look WORD up in (default scowl-70)")
    q.set_defaults(func=_cmd_info)

    q = sub.add_parser("groups", help="word-ladder groups of one word length: sizes, largest groups")
    q.add_argument("name", metavar="NAME|FILE", help="dictionary name or word-list file")
    q.add_argument("--length", type=int, required=True, metavar="L", help="word length")
    q.set_defaults(func=_cmd_groups)

    q = sub.add_parser("define", help="definitions of a word (WordNet, offline)")
    q.add_argument("word")
    q.set_defaults(func=_cmd_define)


def _print(*items: object) -> None:
    from cpwords.display import console

    for item in items:
        console().print(item)


def _cmd_list(args: argparse.Namespace) -> int:
    from cpwords.display import make_table
    from cpwords.lexicon import builtin

    rows: list[list[object]] = []
    for variant, prefix in (("american", "scowl-"), ("british", "scowl-british-")):
        for level, count in builtin.level_counts(variant).items():
            rows.append([f"{prefix}{level}", count, f"SCOWL {variant} English, levels <= {level}"])
    rows.append(["common-N", "N", "the N most frequent words (wordfreq) of scowl-80, e.g. common-5k"])
    rows[7][2] += " (default)"
    _print(make_table(["name", "words", "what"], rows, title="Built-in dictionaries",
                      justify=["left", "right", "left"]))
    _print("User lists: {path: FILE} or {words: [...]} in YAML; --dict FILE on the command line.")
    return 0


def _cmd_info(args: argparse.Namespace) -> int:
    if _WORD.fullmatch(args.target):
        return _word_info(args.target.lower(), ref_from_option(args.dict))
    if args.dict is not None:
        raise InputError("give --dict only with a WORD", field="--dict", value=args.dict)
    return _dictionary_info(ref_from_option(args.target))


def _dictionary_info(ref: DictionaryRef) -> int:
    from cpwords.display import make_table
    from cpwords.lexicon import load_lexicon

    lex = load_lexicon(ref)
    rows = [[n, c] for n, c in lex.length_counts().items()]
    rows.append(["all", len(lex)])
    _print(make_table(["letters", "words"], rows, title=f"{lex.label}: {len(lex):,} words",
                      justify=["right", "right"]))
    _print(f"most common: {', '.join(lex.words[:12])}")
    for message in lex.warnings:
        _print(f"warning: {message}")
    _print(f"content hash: {lex.content_hash[:16]}")
    return 0


def _word_info(word: str, ref: DictionaryRef) -> int:
    from cpwords.display import make_table
    from cpwords.lexicon import Lexicon, define, load_lexicon

    lex = load_lexicon(ref)
    found = word in lex
    # A word outside the dictionary still shows what the built-in data knows about it.
    source = lex if found else Lexicon.from_words([word])
    rows: list[list[object]] = [
        ["in " + lex.label, "yes" if found else "no"],
        ["level", source.level(word)],
        ["zipf", f"{source.zipf(word):.2f}"],
        ["rareness", source.rareness(word)],
    ]
    if found:
        from cpwords.puzzles.ladder.dictinfo import word_rows

        rows += word_rows(word, ref)
    definitions = define(word)
    for i, line in enumerate(definitions[:3]):
        rows.append(["definition" if i == 0 else "", line])
    if len(definitions) > 3:
        rows.append(["", f"… {len(definitions) - 3} more: cpwords dict define {word}"])
    _print(make_table(["", word], rows))
    return 0 if found else 1


def _cmd_groups(args: argparse.Namespace) -> int:
    from cpwords.puzzles.ladder.dictinfo import groups_report

    _print(*groups_report(ref_from_option(args.name), args.length))
    return 0


def _cmd_define(args: argparse.Namespace) -> int:
    from cpwords.lexicon import define

    word = args.word.strip().lower()
    if not _WORD.fullmatch(word):
        raise InputError("not a word (letters a-z only)", field="WORD", value=args.word)
    definitions = define(word)
    if not definitions:
        _print(f"{word}: no definition found (WordNet 3.0)")
        return 1
    for i, line in enumerate(definitions, 1):
        _print(f"{i:>2}. {line}")
    return 0
