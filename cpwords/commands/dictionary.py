"""``cpwords dict …``: list the dictionaries, describe one or a word, define a word.

Each sub-command gets plain data (:func:`cpwords.lexicon.facts.dictionary_list`,
:func:`~cpwords.lexicon.facts.dictionary_facts`, :func:`cpwords.puzzles.word_facts`) and prints
it as a table, or as JSON with ``--json``. Facts that belong to a puzzle kind (a word's ladder
group and links) come through the kinds' descriptors, so this module knows no puzzle. Here too
lives the ``--dict`` option's reading (:func:`ref_from_option`), which every solving command uses.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cpwords.errors import InputError
from cpwords.specs import DictionaryRef
from cpwords.wording import counted

_WORD = re.compile(r"[^\W\d_]+")  # letters of any alphabet; the dictionary's own is checked after


def ref_from_option(text: str | None) -> DictionaryRef:
    """A ``--dict`` value as a reference: a built-in name, else an existing word-list file."""
    from cpwords.lexicon.sources import DEFAULT_DICTIONARY, is_builtin_name

    if text is None:
        return DictionaryRef(name=DEFAULT_DICTIONARY)
    from cpwords.files import exists

    if is_builtin_name(text) or not exists(text):
        if "/" in text or text.endswith(".txt"):
            raise InputError("no such word-list file", field="--dict", value=text)
        return DictionaryRef(name=text)  # an unknown name is reported by load_lexicon
    return DictionaryRef(path=Path(text).expanduser().resolve())


def add_parser(subparsers: argparse._SubParsersAction, parents: Sequence[argparse.ArgumentParser] = ()) -> None:
    """Add ``dict`` and its sub-commands to the main command's ``subparsers``."""
    from cpwords.commands import DICT_HELP

    p = subparsers.add_parser("dict", help=DICT_HELP)
    sub = p.add_subparsers(dest="dict_command", metavar="SUBCOMMAND", parser_class=type(p))
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])

    q = sub.add_parser("list", parents=list(parents), help="the built-in dictionaries and their sizes")
    q.set_defaults(func=_cmd_list)

    q = sub.add_parser("info", parents=list(parents),
                       help="a dictionary (word counts by length) or a word (level, zipf, rareness, links)")
    q.add_argument("target", metavar="NAME|FILE|WORD", help="dictionary name, word-list file, or a word")
    q.add_argument("--dict", dest="dict_option", metavar="NAME|FILE",
                   help="dictionary to look WORD up in (default scowl-70)")
    q.set_defaults(func=_cmd_info)

    q = sub.add_parser("define", parents=list(parents), help="definitions of a word (WordNet, offline)")
    q.add_argument("word")
    q.set_defaults(func=_cmd_define)


def _emit(args: argparse.Namespace, data: Any, *items: object) -> None:
    if getattr(args, "json", False):
        print(json.dumps(data, indent=2))
        return
    from cpwords.display import console

    for item in items:
        console().print(item)


def _cmd_list(args: argparse.Namespace) -> int:
    from cpwords.display import make_table
    from cpwords.lexicon.facts import dictionary_list

    rows = dictionary_list()
    table = make_table(["name", "words", "what"],
                       [[r["name"], r["words"] if r["words"] is not None else "N",
                         r["what"] + (" (default)" if r["default"] else "")] for r in rows],
                       title="Built-in dictionaries", justify=["left", "right", "left"])
    _emit(args, rows, table, "User lists: {path: FILE} or {words: [...]} in YAML; --dict FILE on the command line.")
    return 0


def _cmd_info(args: argparse.Namespace) -> int:
    from cpwords.files import exists
    from cpwords.lexicon.sources import is_builtin_name

    if (_WORD.fullmatch(args.target) and not exists(args.target)
            and not (args.dict_option is None and is_builtin_name(args.target))):
        ref = ref_from_option(args.dict_option)
        alphabet = ref.alphabet()
        word = alphabet.fold(args.target)
        if not alphabet.is_word(word):
            raise InputError(f"not a word (letters {alphabet.describe()} only)", field="WORD", value=args.target)
        return _word_info(args, word, ref)
    if args.dict_option is not None:
        raise InputError("give --dict only with a WORD", field="--dict", value=args.dict_option)
    return _dictionary_info(args, ref_from_option(args.target))


def _dictionary_info(args: argparse.Namespace, ref: DictionaryRef) -> int:
    from cpwords.display import make_table
    from cpwords.lexicon.facts import dictionary_facts

    data = dictionary_facts(ref)
    rows = [[n, c] for n, c in data["by_length"].items()] + [["all", data["words"]]]
    items: list[object] = [make_table(["letters", "words"], rows, title=f"{data['dictionary']}: {counted(data['words'], 'word')}",
                                      justify=["right", "right"]),
                           f"most common: {', '.join(data['most_common'])}"]
    if data["language"] != "english":
        items.append(f"language: {data['language']}; letters {data['letters']}; {data['folding']}")
    items += [f"warning: {m}" for m in data["warnings"]]
    items.append(f"content hash: {data['content_hash'][:16]}")
    _emit(args, data, *items)
    return 0


def _word_info(args: argparse.Namespace, word: str, ref: DictionaryRef) -> int:
    from cpwords.display import make_table
    from cpwords.puzzles import word_facts

    facts = word_facts(word, ref)
    rows: list[list[object]] = [["in " + facts["dictionary"], "yes" if facts["in_dictionary"] else "no"],
                                ["level", _shown(facts["level"])],
                                ["zipf", "-" if facts["zipf"] is None else f"{facts['zipf']:.2f}"],
                                ["rareness", _shown(facts["rareness"])]]
    rows += facts["more"]
    definitions = facts["definitions"]
    for i, line in enumerate(definitions[:3]):
        rows.append(["definition" if i == 0 else "", line])
    if len(definitions) > 3:
        rows.append(["", f"… {len(definitions) - 3} more: cpwords dict define {word}"])
    _emit(args, {k: v for k, v in facts.items() if k != "more"}, make_table(["", word], rows))
    return 0 if facts["in_dictionary"] else 1


def _shown(value: Any) -> Any:
    return "-" if value is None else value


def _cmd_define(args: argparse.Namespace) -> int:
    from cpwords.lexicon import define

    word = args.word.strip().lower()
    if not _WORD.fullmatch(word):
        raise InputError("not a word (letters a-z only)", field="WORD", value=args.word)
    definitions = define(word)
    if not definitions:
        _emit(args, {"word": word, "definitions": []}, f"{word}: no definition found (WordNet 3.0)")
        return 1
    _emit(args, {"word": word, "definitions": definitions}, *(f"{i:>2}. {line}" for i, line in enumerate(definitions, 1)))
    return 0
