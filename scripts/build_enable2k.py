#!/usr/bin/env python3
"""Build ``cpwords/lexicon/data/enable2k.txt.gz``, the built-in ``enable2k`` dictionary.

Source (not needed at run time): the ENABLE2K word list (Alan Beale and M. Cooper, 2000; public
domain) as the Boggle solvers use it: ``wordlists/enable2k.txt`` of the public GitHub repository
danvk/hybrid-boggle, 173,528 lowercase words, one a line with CRLF line ends, SHA-256
:data:`SOURCE_SHA256`. The published best Boggle boards (3x3 545, 3x4 1,651, 4x4 3,625, 5x5 10,406
points) were scored with exactly this list; a file with another hash is refused unless ``--any``
is given (another ENABLE release would not reproduce those scores).

Output: the same words, alphabetical, one a line with LF ends, gzipped with ``mtime=0`` so the
build is reproducible byte for byte. ``LICENSE-ENABLE2K.txt`` beside it is written by hand (the
list's public-domain notice and where it came from), not by this script.

Usage: ``python3 scripts/build_enable2k.py SOURCE.txt [--out DIR] [--any]``
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import re
import sys
from pathlib import Path

SOURCE_SHA256 = "f1e9b50e535a31d0d8451f7b373bb7966637d225e256a7c485983a0c7545fcd3"
SOURCE_WORDS = 173_528
WORD = re.compile(r"[a-z]+")


def read_words(source: Path) -> list[str]:
    """The words of the source list, checked to be lowercase ``[a-z]+`` and distinct."""
    words = source.read_text(encoding="ascii").split()
    bad = [w for w in words if not WORD.fullmatch(w)]
    if bad:
        raise SystemExit(f"{source}: not a word list of a-z words (e.g. {bad[0]!r})")
    if len(set(words)) != len(words):
        raise SystemExit(f"{source}: has repeated words")
    return sorted(words)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="enable2k.txt (e.g. danvk/hybrid-boggle wordlists/enable2k.txt)")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "cpwords/lexicon/data")
    parser.add_argument("--any", action="store_true", help="accept a source with another SHA-256")
    args = parser.parse_args(argv)
    digest = hashlib.sha256(args.source.read_bytes()).hexdigest()
    if digest != SOURCE_SHA256 and not args.any:
        print(f"{args.source}: SHA-256 {digest} is not the ENABLE2K list the published boards used "
              f"({SOURCE_SHA256}); --any to build from it anyway", file=sys.stderr)
        return 2
    words = read_words(args.source)
    text = "\n".join(words) + "\n"
    target = args.out / "enable2k.txt.gz"
    with open(target, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f:
        f.write(text.encode("ascii"))
    print(f"{target}: {len(words):,} words ({target.stat().st_size:,} bytes)"
          + ("" if len(words) == SOURCE_WORDS else f"; the published list has {SOURCE_WORDS:,}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
