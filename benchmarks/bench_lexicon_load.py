"""Benchmark: loading a big user word list (``--dict FILE``), the way before issue 24 against today's.

A seeded list of N distinct made-up words (3-12 letters drawn with English letter frequencies, one
a line, as in issue 24's two-million-word list) is loaded in fresh Python processes, from an empty
cache (cold) and from the cache the cold load wrote (warm):

* before: the loader as it was, kept here as the baseline (a Python loop over the lines, a
  dictionary lookup per word for its built-in values, a sort of the strings, the lexicon pickled
  into the cache, the word set built at once);
* now: ``cpwords.lexicon.sources._file_lexicon`` (numpy: :mod:`cpwords.lexicon.plain`; the cache
  as one flat file: :mod:`cpwords.lexicon.wordfile`).

Both run in the same benchmark run, one after the other, and give the same lexicon (checked: a
digest of the words, levels and zipf of each). Figures are medians of ``--runs`` processes; peak
RSS is the process's (numpy and the built-in data included).

Usage: ``python3 benchmarks/bench_lexicon_load.py [--sizes 500000 2000000] [--runs 3] [--no-write]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks._report import OWN_PEAK_KB, fmt_s, write_section

#: English letter frequencies (per cent), a-z.
FREQUENCIES = [8.2, 1.5, 2.8, 4.3, 12.7, 2.2, 2.0, 6.1, 7.0, 0.15, 0.77, 4.0, 2.4, 6.7, 7.5, 1.9, 0.095, 6.0,
               6.3, 9.1, 2.8, 0.98, 2.4, 0.15, 2.0, 0.074]


def write_list(path: Path, n: int, seed: int = 1) -> None:
    """``n`` distinct lowercase word-like strings of 3-12 letters, one a line."""
    import numpy as np

    p = np.array(FREQUENCIES) / sum(FREQUENCIES)
    rng = np.random.default_rng(seed)
    seen: dict[str, None] = {}
    while len(seen) < n:
        lengths = rng.integers(3, 13, size=n - len(seen))
        letters = (rng.choice(26, size=int(lengths.sum()), p=p).astype(np.uint8) + 97).tobytes().decode()
        at = 0
        for length in lengths.tolist():
            seen[letters[at : at + length]] = None
            at += length
    path.write_text("\n".join(list(seen)[:n]) + "\n", encoding="ascii")


COMMON = OWN_PEAK_KB + """
import hashlib, json, os, resource, sys, time
import numpy
from pathlib import Path
from cpwords.lexicon import builtin, cache, sources
from cpwords.lexicon.core import Lexicon, MAX_WORD_LETTERS

def digest(lex):
    h = hashlib.sha256("\\n".join(lex._words).encode())
    h.update(bytes(lex._levels)); h.update(repr(lex._zipf_c).encode())
    return h.hexdigest()

def report(seconds, cpu, lex):
    print(json.dumps({"s": seconds, "cpu": cpu, "n": len(lex), "digest": digest(lex),
                      "rss_mb": own_peak_kb() / 1024}))
"""

#: The loader before issue 24, kept as the baseline (the code of cpwords/lexicon at commit 5e39b89).
BEFORE = COMMON + """
from itertools import repeat
from cpwords.files import read_text
from cpwords.lexicon.rareness import FORMULA_VERSION, UNKNOWN_LEVEL

_NOT_LETTERS = {ord(c): None for c in "abcdefghijklmnopqrstuvwxyz\\n \\t"}

def read_word_file(path):
    notes = []
    text = read_text(path, what="word list", field="dictionary.path", max_bytes=64 << 20, latin1=True, notes=notes)
    lines = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return lines, notes

def plain_words(items):
    text = "\\n".join(items).lower()
    if text.translate(_NOT_LETTERS):
        return None
    plain = text.split()
    if len(plain) != len(items) or max(map(len, plain), default=0) > MAX_WORD_LETTERS:
        return None
    return plain

def with_builtin_values_arrays(words, name):
    import numpy as np
    data = builtin.builtin_data()
    index = builtin.word_index()
    ordered = sorted(words)
    pos = np.fromiter(map(index.get, ordered, repeat(-1)), dtype=np.int64, count=len(ordered))
    known = pos >= 0
    codes = np.minimum(np.frombuffer(data.codes["american"], dtype=np.uint8),
                       np.frombuffer(data.codes["british"], dtype=np.uint8))
    level_of = np.array(builtin.LEVELS, dtype=np.int64)
    levels = np.full(len(ordered), UNKNOWN_LEVEL, dtype=np.int64)
    levels[known] = level_of[codes[pos[known]].astype(np.int64) - 48]
    zipf = np.zeros(len(ordered), dtype=np.int64)
    zipf[known] = np.asarray(data.zipf_c, dtype=np.int64)[pos[known]]
    unknown = np.flatnonzero(~known)
    if unknown.size:
        extra = builtin.extra_zipf()
        zipf[unknown] = np.fromiter(map(extra.get, (ordered[i] for i in unknown.tolist()), repeat(0)),
                                    dtype=np.int64, count=unknown.size)
    order = np.lexsort((levels, -zipf)).tolist()
    return Lexicon([ordered[i] for i in order], levels[order].tolist(), zipf[order].tolist(), name=name)

def file_lexicon(path):
    import hashlib
    stat = path.stat()
    stamp = f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{FORMULA_VERSION}|en"
    key = ("word-file", 1, stamp)
    entry = cache.cache_dir() / f"word-file-v1-{hashlib.sha256(stamp.encode()).hexdigest()[:20]}.pickle"
    if stat.st_size < sources.CACHED_FILE_BYTES:
        ok = False
    else:
        ok, value = cache._read(entry, key)
    if ok:
        lex = Lexicon(*value[:3], name=str(path), warnings=value[4])
        frozenset(lex._words)  # the old Lexicon built its word set at once
        return lex
    lines, notes = read_word_file(path)
    plain = plain_words(lines)
    lex = with_builtin_values_arrays(list(dict.fromkeys(plain)), str(path))
    frozenset(lex._words)
    if stat.st_size >= sources.CACHED_FILE_BYTES:
        cache._write(entry, key, (lex._words, lex._levels, lex._zipf_c, notes, lex.warnings))
    return lex

t0, c0 = time.perf_counter(), time.process_time()
lex = file_lexicon(Path(sys.argv[1]))
report(time.perf_counter() - t0, time.process_time() - c0, lex)
"""

NOW = COMMON + """
t0, c0 = time.perf_counter(), time.process_time()
lex, notes = sources._file_lexicon(Path(sys.argv[1]))
report(time.perf_counter() - t0, time.process_time() - c0, lex)
"""


def run(code: str, path: Path, cache: Path) -> dict[str, float]:
    import os

    env = {**os.environ, "CPWORDS_CACHE_DIR": str(cache)}
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True,
                         env=env)
    return json.loads(out.stdout)


def measure(path: Path, runs: int) -> dict[str, dict[str, float]]:
    """Median seconds and peak RSS of each way, cold and warm; the digests must agree."""
    figures: dict[str, list[dict[str, float]]] = {}
    for _ in range(runs):
        for way, code in (("before", BEFORE), ("now", NOW)):
            with tempfile.TemporaryDirectory() as cache:
                figures.setdefault(f"{way} cold", []).append(run(code, path, Path(cache)))
                figures.setdefault(f"{way} warm", []).append(run(code, path, Path(cache)))
    digests = {f["digest"] for runs_ in figures.values() for f in runs_}
    assert len(digests) == 1, "the two loaders gave different lexicons"
    return {name: {key: statistics.median(f[key] for f in fs) for key in ("s", "cpu", "rss_mb")}
            for name, fs in figures.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500_000, 2_000_000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for n in args.sizes:
            path = Path(folder) / f"words-{n}.txt"
            write_list(path, n)
            size_mb = path.stat().st_size / 1e6
            m = measure(path, args.runs)
            for state in ("cold", "warm"):
                before, now = m[f"before {state}"], m[f"now {state}"]
                rows.append(f"| {n:,} words, {size_mb:.1f} MB | {state} | {fmt_s(before['s'])} | {fmt_s(now['s'])} | "
                            f"{before['s'] / now['s']:.1f}× | {fmt_s(before['cpu'])} | {fmt_s(now['cpu'])} | "
                            f"{before['rss_mb']:.0f} MB | {now['rss_mb']:.0f} MB |")
                print(rows[-1], flush=True)
    table = "\n".join([
        "| list | cache | before | now | speed-up | CPU before | CPU now | peak RSS before | peak RSS now |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
    ])
    text = f"""## Loading a big user word list (`--dict FILE`)

The load of a user's word list alone (`cpwords.lexicon.sources._file_lexicon`), in a fresh process:
cold is an empty cache, warm reads what the cold load cached. *Before* is the loader as it was
before issue 24 (kept in the benchmark as the baseline, run in the same run), *now* reads plain
lists with numpy (`cpwords/lexicon/plain.py`) and caches them as one flat file
(`cpwords/lexicon/wordfile.py`) instead of a pickle. Both give the same lexicon (checked). Medians
of {args.runs} processes each, wall time and the process's CPU time (the machine is shared: CPU
time is the steadier figure); the lists are seeded made-up words of 3-12 letters.

{table}

`python3 benchmarks/bench_lexicon_load.py`
"""
    if not args.no_write:
        write_section("lexicon-load", text)
    print(text)


if __name__ == "__main__":
    main()
