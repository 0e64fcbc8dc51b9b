"""Dictionaries beyond a-z: what the Italian, Spanish, German and French lists cost against English.

In one run, for English (``scowl-80``, the Ruzzle default) and each language:

- *load*: a fresh interpreter loads the built-in list (decompress and decode the shipped file),
  the median of three processes;
- *trie*: the Ruzzle double-array trie built in memory (what the first use writes to the cache);
- *boards/s*: ``BoardScorer.score_many`` on 4x4 boards with Ruzzle scoring and the ``ruzzle-4x4``
  bonus squares, boards drawn by the language's own tile frequencies (the ``best_board`` draw), the
  median of three runs, the languages taking turns run by run;
- *5x5 count*: the exact count of 5x5 Gridle grids (distinct words, modulo the transpose) from the
  dictionary's 5-letter words by the native sum-product, in process, the median of three runs (one
  with ``--quick``): the counting tables are sized by the alphabet (26, 27 or 29 letters).

    python benchmarks/bench_languages.py            # 300 boards
    python benchmarks/bench_languages.py --quick    # 60 boards
    python benchmarks/bench_languages.py --write    # also write its section of docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._report import fmt_s, write_section

NAMES = ("scowl-80", "italian", "spanish", "german", "french")


def load_seconds(name: str, runs: int = 3) -> float:
    """Median in-process time of ``load_lexicon(name)`` in fresh interpreters."""
    code = ("import time; from cpwords.lexicon import load_lexicon; t = time.perf_counter(); "
            f"load_lexicon({name!r}); print(time.perf_counter() - t)")
    return statistics.median(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                                  check=True).stdout) for _ in range(runs))


def boards_of(lexicon: object, n: int, seed: int) -> list[list[str]]:
    from itertools import accumulate

    from cpwords.puzzles.ruzzle.annealing import tile_frequencies

    freq = tile_frequencies(lexicon)
    tiles, weights = list(freq), list(accumulate(freq.values()))
    rng = random.Random(seed)
    return [rng.choices(tiles, cum_weights=weights, k=16) for _ in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    n = 60 if args.quick else 300

    import cpwords
    from cpwords.lexicon import load_lexicon
    from cpwords.puzzles.ruzzle.scoring import BoardScorer
    from cpwords.puzzles.ruzzle.spec import RuzzleSpec
    from cpwords.puzzles.ruzzle.tables import trie_tables
    from cpwords.puzzles.ruzzle.trie import build_trie

    bonus = RuzzleSpec(grid=["abcd"] * 4, bonuses="ruzzle-4x4").bonus_cells()
    rows: dict[str, dict[str, float]] = {}
    scorers, boards = {}, {}
    for name in NAMES:
        lex = load_lexicon(name)
        t0 = time.perf_counter()
        trie = build_trie(lex, lex.alphabet)
        built = time.perf_counter() - t0
        scorers[name] = BoardScorer(trie, scoring="ruzzle", rows=4, cols=4, bonus_cells=bonus, alphabet=lex.alphabet)
        assert scorers[name].tables.states == len(trie_tables(trie, lex.alphabet).base)
        boards[name] = boards_of(lex, n, seed=1)
        rows[name] = {"words": len(lex), "load": load_seconds(name), "trie": built, "nodes": trie.nodes}
    times: dict[str, list[float]] = {name: [] for name in NAMES}
    for _ in range(3):
        for name in NAMES:
            t0 = time.perf_counter()
            scorers[name].score_many(boards[name])
            times[name].append(time.perf_counter() - t0)
    for name in NAMES:
        rows[name]["rate"] = n / statistics.median(times[name])
    counts: dict[str, list[float]] = {name: [] for name in NAMES}
    for _ in range(1 if args.quick else 3):
        for name in NAMES:
            t0 = time.perf_counter()
            counted = cpwords.solve({"kind": "word_grid", "task": "count", "dictionary": name}, engine="native")
            counts[name].append(time.perf_counter() - t0)
            assert counted.status.value == "optimal", counted.message
            rows[name]["grids"] = counted.count
    base = rows["scowl-80"]
    lines = ["| dictionary | words | load | trie build (nodes) | 4x4 Ruzzle boards/s | vs scowl-80 |",
             "|---|---:|---:|---:|---:|---:|"]
    for name in NAMES:
        r = rows[name]
        lines.append(f"| `{name}` | {r['words']:,.0f} | {fmt_s(r['load'])} | {fmt_s(r['trie'])} ({r['nodes']:,.0f}) | "
                     f"{r['rate']:,.0f} | {r['rate'] / base['rate']:.2f}× |")
    lines += ["", "| dictionary | 5x5 Gridle grids (modulo the transpose) | count time |", "|---|---:|---:|"]
    for name in NAMES:
        lines.append(f"| `{name}` | {rows[name]['grids']:,.0f} | {fmt_s(statistics.median(counts[name]))} |")
    table = "\n".join(lines)
    print(table)
    if args.write:
        write_section("languages", "## Languages (bench_languages.py)\n\n"
                      f"{n} boards a dictionary, drawn by its tile frequencies; medians of three runs, the "
                      "dictionaries taking turns; load and trie build are one-time costs (the trie is then read from "
                      "the cache). Boards per second follow how many live trie paths a board holds (Italian "
                      "boards, vowel-rich, hold many words; German words are long compounds), not the alphabet's "
                      "size: the search indexes 26 to 29 letters alike. The exact 5x5 Gridle count (native "
                      "sum-product, all the dictionary's 5-letter words) is as quick in the 27- and 29-letter "
                      "alphabets as in English.\n\n" + table)


if __name__ == "__main__":
    main()
