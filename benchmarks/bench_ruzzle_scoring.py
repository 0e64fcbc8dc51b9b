"""Board scoring throughput: the array scorer against the trie search it replaces, in one run.

Boards are rolled from the 16 dice of classic Boggle (Q as a Qu tile), 4x4; the dictionary is
scowl-80 words of 3+ letters. Three paths score the same boards and must agree on every score:

- *reference*: ``trie_words`` + ``annealing.board_value``, one board at a time (what ``best_board``
  does today);
- *score*: ``BoardScorer.score``, one board at a time (the annealing loop);
- *score_many*: ``BoardScorer.score_many`` on the whole list;
- *solve_many*: the public batch API, ``cpwords.solve_many(specs, scores_only=True)`` on validated
  ``kind: ruzzle`` specs of the boards (results built, one per board; the score is the result's
  ``objective``, or its ``count`` under ``scoring: none``).

Each figure is the median of several runs, the paths taking turns. Scoring rules: ``boggle`` (comparable with C++ Boggle
solvers), ``ruzzle`` with the ``ruzzle-4x4`` bonus squares, and ``none`` (word count).

Optionally a compiled C++ solver is measured on the same boards and word file: pass
``--cpp-src DIR`` (or set ``BOGGLE_CPP_SRC``) with a checkout, or bare clone, of danvk's
``performance-boggle`` (GitHub). It is built with ``make solve`` in a temporary folder and timed
by its own clock (board loop only); its scores must equal ours. Without it the column is skipped.

    python benchmarks/bench_ruzzle_scoring.py                 # 1,000 boards
    python benchmarks/bench_ruzzle_scoring.py --quick         # 200 boards, fewer runs
    python benchmarks/bench_ruzzle_scoring.py --cpp-src ~/src/performance-boggle
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

#: The 16 dice of classic (1976) Boggle, one string of six faces each; ``q`` is the Qu face.
CLASSIC_DICE = ["aaciot", "abilty", "abjmoq", "acdemp", "acelrs", "adenvz", "ahmors", "biforx",
                "denosw", "dknotu", "eefhiy", "egkluy", "egintv", "ehinps", "elpstu", "gilruw"]


def roll_boards(n: int, seed: int) -> list[list[str]]:
    """``n`` 4x4 boards: the dice shuffled into the cells, each showing a random face."""
    rng = random.Random(seed)
    boards = []
    for _ in range(n):
        dice = rng.sample(CLASSIC_DICE, 16)
        boards.append(["qu" if (face := rng.choice(die)) == "q" else face for die in dice])
    return boards


def interleaved_rates(paths: dict[str, Callable[[], list[int]]], boards: int,
                      runs: dict[str, int]) -> dict[str, tuple[float, list[int]]]:
    """Median boards per second of each path and its scores; the paths take turns run after run,
    so that a change of machine load touches them alike."""
    times: dict[str, list[float]] = {name: [] for name in paths}
    scores: dict[str, list[int]] = {}
    for run in range(max(runs.values())):
        for name, fn in paths.items():
            if run < runs[name]:
                t0 = time.perf_counter()
                scores[name] = fn()
                times[name].append(time.perf_counter() - t0)
    return {name: (boards / statistics.median(times[name]), scores[name]) for name in paths}


def cpp_solver(src: Path, workdir: Path) -> Path | None:
    """Build performance-boggle's ``solve`` from ``src`` (a checkout or a bare clone) in ``workdir``."""
    tree = workdir / "performance-boggle"
    try:
        if (src / "Makefile").is_file():
            shutil.copytree(src, tree, ignore=shutil.ignore_patterns(".git"))
        elif (src / "HEAD").is_file() and (src / "objects").is_dir():
            tree.mkdir()
            archive = subprocess.run(["git", "--git-dir", str(src), "archive", "HEAD"], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        else:
            print(f"--cpp-src {src}: no Makefile and not a git directory; skipping C++", file=sys.stderr)
            return None
        subprocess.run(["make", "-j2", "solve"], cwd=tree, check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"could not build the C++ solver ({exc}); skipping C++", file=sys.stderr)
        return None
    return tree / "solve"


def cpp_rates(solve: Path, words: Path, boards: list[list[str]], runs: int,
              repeat: int) -> tuple[float, list[int]] | None:
    """Median boards/s of the C++ solver (its own clock) on ``boards`` repeated ``repeat`` times."""
    text = "".join("".join("q" if t == "qu" else t for t in b) + "\n" for b in boards) * repeat
    rates, scores = [], []
    for _ in range(runs):
        done = subprocess.run([str(solve), f"--dictionary={words}"], input=text, capture_output=True, text=True)
        found = re.search(r"= ([\d.]+) boards/s", done.stderr)
        if done.returncode or not found:
            print(f"C++ solver failed: {done.stderr[-300:]}", file=sys.stderr)
            return None
        rates.append(float(found.group(1)))
        scores = [int(line.rsplit(":", 1)[1]) for line in done.stdout.splitlines()[:len(boards)]]
    return statistics.median(rates), scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 boards and fewer runs")
    parser.add_argument("--boards", type=int, help="number of boards (default 1,000; 200 with --quick)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--cpp-src", type=Path, default=os.environ.get("BOGGLE_CPP_SRC"),
                        help="performance-boggle sources (checkout or bare clone) for the C++ column")
    args = parser.parse_args()
    n_boards = args.boards or (200 if args.quick else 1000)
    runs, reference_runs = (3, 1) if args.quick else (7, 3)
    os.environ["CPWORDS_CACHE_DIR"] = tempfile.mkdtemp(prefix="cpwords-bench-")  # a true first build

    from cpwords.lexicon import load_lexicon
    from cpwords.puzzles.loading import parse_spec
    from cpwords.puzzles.ruzzle.annealing import board_value
    from cpwords.puzzles.ruzzle.board import Board
    from cpwords.puzzles.ruzzle.scoring import BoardScorer
    from cpwords.puzzles.ruzzle.spec import RuzzleSpec
    from cpwords.puzzles.ruzzle.trie import load_trie, trie_words
    from cpwords.specs import DictionaryRef

    lexicon = load_lexicon(DictionaryRef(name="scowl-80", min_length=3))
    boards = roll_boards(n_boards, args.seed)
    layout = RuzzleSpec(grid=["abcd"] * 4, bonuses="ruzzle-4x4").bonus_cells()

    t0 = time.perf_counter()
    BoardScorer(lexicon, scoring="boggle", min_letters=3)  # trie and tables built, then cached
    first_build = time.perf_counter() - t0
    t0 = time.perf_counter()
    BoardScorer(lexicon, scoring="boggle", min_letters=3)
    cached_build = time.perf_counter() - t0
    trie, _ = load_trie(lexicon)

    rows: list[list[str]] = []
    agree = True
    boggle_scores: list[int] = []
    for scoring, bonuses in (("boggle", {}), ("ruzzle", layout), ("none", {})):
        scorer = BoardScorer(lexicon, scoring=scoring, min_letters=3, bonus_cells=bonuses)
        reference_boards = [Board.from_tiles([b[r * 4:r * 4 + 4] for r in range(4)], bonuses) for b in boards]

        def reference(reference_boards=reference_boards, scoring=scoring) -> list[int]:
            return [board_value(b, trie_words(b, trie, min_letters=3, scoring=scoring), scoring)
                    for b in reference_boards]

        def one(scorer=scorer) -> list[int]:
            return [scorer.score(b) for b in boards]

        def many(scorer=scorer) -> list[int]:
            return scorer.score_many(boards)

        specs = [parse_spec({"kind": "ruzzle", "grid": [" ".join(b[r * 4:r * 4 + 4]) for r in range(4)],
                             "scoring": scoring, "min_word_length": 3, "seed": 1,
                             "dictionary": {"name": "scowl-80", "min_length": 3},
                             **({"bonuses": "ruzzle-4x4"} if bonuses else {})}) for b in boards]

        def api(specs=specs, scoring=scoring) -> list[int]:
            import cpwords

            return [r.count if scoring == "none" else r.objective for r in cpwords.solve_many(specs, scores_only=True)]

        rates = interleaved_rates({"reference": reference, "score": one, "score_many": many, "solve_many": api},
                                  n_boards, {"reference": reference_runs, "score": runs, "score_many": runs,
                                             "solve_many": runs})
        (ref_rate, ref_scores), (one_rate, one_scores), (many_rate, many_scores), (api_rate, api_scores) = (
            rates.values())
        same = ref_scores == one_scores == many_scores == api_scores
        agree &= same
        if scoring == "boggle":
            boggle_scores = ref_scores
        label = scoring + (" + ruzzle-4x4 bonuses" if bonuses else "")
        rows.append([label, f"{ref_rate:,.0f}", f"{one_rate:,.0f}", f"{many_rate:,.0f}", f"{api_rate:,.0f}",
                     f"×{one_rate / ref_rate:.1f}", f"×{many_rate / ref_rate:.1f}", f"×{api_rate / ref_rate:.1f}",
                     f"{statistics.median(ref_scores):.0f}", "yes" if same else "NO"])
        print(rows[-1], flush=True)

    cpp_note = "- C++: not measured (pass `--cpp-src` with performance-boggle sources to add it)."
    if args.cpp_src:
        with tempfile.TemporaryDirectory(prefix="boggle-cpp-") as tmp:
            solve = cpp_solver(Path(args.cpp_src).expanduser(), Path(tmp))
            if solve is not None:
                words = Path(tmp) / "words.txt"
                words.write_text("\n".join(sorted(lexicon)) + "\n", encoding="ascii")
                measured = cpp_rates(solve, words, boards, runs=runs, repeat=10)
                if measured is not None:
                    rate, scores = measured
                    same = scores == boggle_scores
                    agree &= same
                    boggle = rows[0]
                    py_one, py_many, py_api = (float(boggle[i].replace(",", "")) for i in (2, 3, 4))
                    cpp_note = (f"- C++ (danvk's performance-boggle `solve`, g++ -O3, its own clock over the "
                                f"boards repeated 10 times, median of {runs} runs): **{rate:,.0f} boards/s** "
                                f"on `boggle`; same scores as ours: {'yes' if same else 'NO'}. "
                                f"C++ / score_many = {rate / py_many:.1f}, C++ / solve_many = {rate / py_api:.1f}, "
                                f"C++ / score = {rate / py_one:.1f}.")

    lines = [
        f"Scoring {n_boards:,} random 4×4 boards rolled from the classic Boggle dice (Qu tiles) with "
        f"`scowl-80` words of 3+ letters ({len(lexicon):,} words); boards per second, median of "
        f"{runs} runs ({reference_runs} for the reference). *reference*: `trie_words` + "
        f"`annealing.board_value`, one board at a time; *score*: `BoardScorer.score`, one board at a "
        f"time; *score_many*: `BoardScorer.score_many` on all boards; *solve_many*: "
        f"`cpwords.solve_many(specs, scores_only=True)`, one Result per board (the public batch API).",
        "",
        "| scoring | reference | score | score_many | solve_many | score ÷ reference | score_many ÷ reference "
        "| solve_many ÷ reference | median score | same scores |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        *("| " + " | ".join(row) + " |" for row in rows),
        "",
        f"- Scorer set-up (trie and tables): {first_build:.2f} s into an empty cache, {cached_build:.3f} s "
        f"from the cache.",
        cpp_note,
    ]
    print("\n".join(lines))
    if not agree:
        sys.exit("the scores disagree")


if __name__ == "__main__":
    main()
