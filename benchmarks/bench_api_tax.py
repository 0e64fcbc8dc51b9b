"""No API tax: ``cpwords.solve`` against the algorithm it runs, and the check against the solve.

For each query, in one run and taking turns query by query, the benchmark times

- the *algorithm*: the engine's own search on prepared data (dictionary, trie or ladder index
  already loaded): Ruzzle ``trie_words`` on a built board, the ladder kind's native engine task;
- ``cpwords.solve(spec, check=False)`` on a validated spec object;
- ``cpwords.solve(spec)`` (the default: the answers re-checked by the independent checker);
- for ladders, networkx ``shortest_path`` on the same graph (the index's links, cached).

Each runs once untimed, then three times timed, keeping the fastest (the minimum filters out the
machine's other load); figures are medians over the queries. *Tax* = solve without check /
algorithm - 1; *check* = the result's ``check_s`` / ``solve_s``; *vs networkx* = networkx time /
``cpwords.solve`` time with the check (end to end per query).

Ruzzle boards are rolled from the classic Boggle dice (scowl-80, words of 3+ letters, Boggle
scoring: the setting of issue 16), and again with Ruzzle scoring on the ``ruzzle-4x4`` bonus
squares (words of 2+ letters; the check then searches the other paths of words whose score is
below a bound). Ladders are pairs of the same group in scowl-70, shortest mode (the default
least-rare pick among the shortest ladders, and ``shortest_pick: random``).

    python benchmarks/bench_api_tax.py            # 200 boards, 300 ladder pairs a length
    python benchmarks/bench_api_tax.py --quick    # 40 boards, 60 pairs
    python benchmarks/bench_api_tax.py --only ladder --quick   # one kind, nothing written
    python benchmarks/bench_api_tax.py --write    # also write the api_tax section of docs/benchmarks.md

It runs against any checkout (``PYTHONPATH=OTHER_TREE python benchmarks/bench_api_tax.py``
measures another version the same way).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (not the checkout's root: see above)
from _report import fmt_s, write_section
from bench_ruzzle_scoring import roll_boards


def same_group_pairs(index: Any, length: int, n: int, rng: random.Random) -> list[tuple[int, int]]:
    """``n`` random (start, target) pairs of ``length``-letter words of one group (as bench_ladder)."""
    ids = [i for i, w in enumerate(index.words) if len(w) == length and index.group_size(index.group[i]) > 1]
    pairs = []
    while len(pairs) < n:
        a = rng.choice(ids)
        members = index.members(index.group[a])
        b = members[rng.randrange(len(members))]
        if b != a:
            pairs.append((a, b))
    return pairs


def fastest(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """Seconds of the fastest of ``repeat`` timed calls (after one untimed), and the last answer."""
    answer = fn()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        answer = fn()
        best = min(best, time.perf_counter() - t0)
    return best, answer


def take_turns(queries: list[Any], runs: dict[str, Callable[[Any], Any]]) -> tuple[dict[str, list[float]], list[dict[str, Any]]]:
    """Per query, each run's fastest time (the order alternating query by query) and answers."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    answers: list[dict[str, Any]] = []
    for k, query in enumerate(queries):
        order = list(runs) if k % 2 else list(reversed(runs))
        got: dict[str, Any] = {}
        for name in order:
            seconds, got[name] = fastest(lambda name=name, query=query: runs[name](query))
            times[name].append(seconds)
        answers.append(got)
    return times, answers


def ratio_row(label: str, times: dict[str, list[float]], answers: list[dict[str, Any]], n: int) -> list[str]:
    med = {name: statistics.median(t) for name, t in times.items()}
    check_share = statistics.median(a["solve"].stats["check_s"] / a["solve"].stats["solve_s"] for a in answers)
    tax = statistics.median(s / a for s, a in zip(times["solve (no check)"], times["algorithm"], strict=True)) - 1
    row = [label, f"{n:,}", fmt_s(med["algorithm"]), fmt_s(med["solve (no check)"]), fmt_s(med["solve"]),
           f"**{tax:+.0%}**", f"**{check_share:.0%}**", f"{1 / med['solve']:,.0f}"]
    if "networkx" in med:
        row += [fmt_s(med["networkx"]),
                f"**{statistics.median(x / s for x, s in zip(times['networkx'], times['solve'], strict=True)):.2f}×**"]
    return row


def ruzzle_rows(n: int) -> list[list[str]]:
    import cpwords
    from cpwords.lexicon import load_lexicon
    from cpwords.puzzles.loading import parse_spec
    from cpwords.puzzles.ruzzle.board import Board
    from cpwords.puzzles.ruzzle.trie import load_trie, trie_words

    boards = roll_boards(n, seed=2024)
    rows = []
    settings = [("Boggle dice, boggle scoring, 3+ letters", {"scoring": "boggle",
                                                              "dictionary": {"name": "scowl-80", "min_length": 3}}),
                ("same boards, ruzzle scoring, ruzzle-4x4 bonuses", {"scoring": "ruzzle", "bonuses": "ruzzle-4x4"})]
    for label, extra in settings:
        specs = [parse_spec({"kind": "ruzzle", "grid": [" ".join(b[r * 4:r * 4 + 4]) for r in range(4)],
                             "seed": 1, **extra}) for b in boards]
        first = specs[0]
        trie, _ = load_trie(load_lexicon(first.dictionary))
        bonus, min_letters, scoring = first.bonus_cells(), first.min_letters(), first.scoring
        built = {id(s): Board.from_tiles(s.tiles(), bonus) for s in specs}

        def algorithm(spec: Any, built: dict[int, Any] = built, trie: Any = trie, min_letters: int = min_letters,
                      scoring: str = scoring) -> Any:
            return trie_words(built[id(spec)], trie, min_letters=min_letters, scoring=scoring)

        runs = {
            "algorithm": algorithm,
            "solve (no check)": lambda s: cpwords.solve(s, check=False),
            "solve": lambda s: cpwords.solve(s),
        }
        times, answers = take_turns(specs, runs)
        for a in answers:
            assert a["solve"].status == "optimal" and len(a["algorithm"]) == a["solve"].count, a["solve"].message
        rows.append(ratio_row(label, times, answers, n) + [f"{statistics.median(a['solve'].count for a in answers):.0f}"])
        print(rows[-1], flush=True)
    return rows


def ladder_rows(n: int) -> list[list[str]]:
    import networkx as nx

    import cpwords
    from cpwords.engines.budget import Budget
    from cpwords.puzzles.ladder import native
    from cpwords.puzzles.ladder.store import load_index
    from cpwords.puzzles.loading import parse_spec

    index = load_index("scowl-70")
    rows = []
    for length in (5, 7):
        pairs = same_group_pairs(index, length, n, random.Random(length))
        words = [i for i, w in enumerate(index.words) if len(w) == length]
        graph = nx.Graph()
        graph.add_nodes_from(words)
        for v in words:
            graph.add_edges_from((v, w) for w in index.neighbours(v))
        for pick in ("least_rare", "random"):
            specs = {pair: parse_spec({"kind": "ladder", "start": index.words[pair[0]], "target": index.words[pair[1]],
                                       "mode": "shortest", "shortest_pick": pick, "seed": 1}) for pair in pairs}
            for g in {index.group[a] for a, _ in pairs}:
                index.adjacency(g)  # rows made once, as in a long-running process

            def algorithm(pair: tuple[int, int], specs: dict[Any, Any] = specs) -> Any:
                return native.shortest(native.LadderProblem(index, *pair), specs[pair], Budget(None))

            runs = {
                "algorithm": algorithm,
                "solve (no check)": lambda pair, specs=specs: cpwords.solve(specs[pair], check=False),
                "solve": lambda pair, specs=specs: cpwords.solve(specs[pair]),
                "networkx": lambda pair, graph=graph: nx.shortest_path(graph, *pair),
            }
            times, answers = take_turns(pairs, runs)
            for a in answers:
                assert a["solve"].status == "optimal" and len(a["networkx"]) == a["solve"].solutions[0].steps + 1
            rows.append(ratio_row(f"{length} letters, {pick.replace('_', '-')} pick", times, answers, n)
                        + [f"{statistics.median(len(a['networkx']) - 1 for a in answers):g}"])
            print(rows[-1], flush=True)
    return rows


def floor_rows() -> list[str]:
    """What the API costs when there is (almost) nothing to search: a ladder from a word to itself
    and one of one step, with and without the check; and the cheapest Solution object (what a
    Ruzzle result holds one of per word). The floors the tax targets cannot go under."""
    import timeit

    import cpwords
    from cpwords.puzzles.loading import parse_spec
    from cpwords.puzzles.ruzzle.solution import RuzzleSolution

    def per_call(fn: Callable[[], Any], number: int = 2000) -> float:
        return min(timeit.repeat(fn, number=number, repeat=7)) / number

    out = []
    for label, target in (("a ladder from COLD to COLD (no search)", "cold"), ("a ladder of one step, COLD to CORD", "cord")):
        spec = parse_spec({"kind": "ladder", "start": "cold", "target": target, "mode": "shortest",
                           "shortest_pick": "random", "seed": 1})
        cpwords.solve(spec)
        out.append(f"| {label} | {fmt_s(per_call(lambda spec=spec: cpwords.solve(spec, check=False)))} | "
                   f"{fmt_s(per_call(lambda spec=spec: cpwords.solve(spec)))} |")
    rows = [{"words": [f"w{i}"], "word": f"w{i}", "path": [[1, 1], [1, 2]], "score": 1, "grid": None} for i in range(100)]
    made = per_call(lambda: RuzzleSolution.trusted_many([dict(r) for r in rows]), 500) / len(rows)
    out.append(f"| one Ruzzle Solution object (the fastest way, no validation), per word | {made * 1e6:.2f} µs | |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 boards and 60 ladder pairs a length")
    parser.add_argument("--write", action="store_true", help="write the api_tax section of docs/benchmarks.md")
    parser.add_argument("--only", choices=("ruzzle", "ladder"), help="measure one kind only (nothing is written)")
    args = parser.parse_args()
    boards, pairs = (40, 60) if args.quick else (200, 300)
    ruzzle = ruzzle_rows(boards) if args.only != "ladder" else []
    ladder = ladder_rows(pairs) if args.only != "ruzzle" else []
    floors = floor_rows() if args.only is None else []
    head = ("| queries | n | algorithm | solve (no check) | solve | tax | check ÷ solve | solves/s (with check) "
            "|")
    md = "\n".join([
        "### No API tax",
        "",
        f"Load average when the run ended: {os.getloadavg()[0]:.1f}. Run: `python benchmarks/bench_api_tax.py`. "
        "Per query the fastest of three timed runs after one untimed, the runs taking turns; medians over "
        "the queries. *Tax*: `cpwords.solve(spec, check=False)` ÷ the algorithm − 1 (targets ≤ +20%); "
        "*check ÷ solve*: the result's `check_s` ÷ `solve_s` (target ≤ 25%); *vs networkx*: networkx "
        "`shortest_path` on the same cached graph ÷ `cpwords.solve` with its check (target ≥ 2×).",
        "",
        "**Ruzzle** (algorithm: `trie_words` on a built board, the trie loaded):",
        "",
        head + " median words |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        *("| " + " | ".join(r) + " |" for r in ruzzle),
        "",
        "**Ladders** on `scowl-70`, shortest mode (algorithm: the native engine's `shortest` task on the loaded "
        "index):",
        "",
        head + " networkx | vs networkx | median steps |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *("| " + " | ".join(r) + " |" for r in ladder),
        "",
        "**Floors**: `cpwords.solve` when there is nothing to search (fastest of 7 × 2,000 calls):",
        "",
        "| call | solve (no check) | solve |",
        "|---|---:|---:|",
        *floors,
        "",
        "The tax targets sit below these floors. +20% of each ladder search above (the *algorithm* column) "
        "leaves less than the call with no search costs, and 2× faster than networkx leaves less than that "
        "call with its check. +20% of a Ruzzle board's search (its algorithm ÷ its words: a few µs a word) "
        "leaves about one Solution object a word, before its path, the sort and the fixed costs.",
    ])
    print(md)
    if args.write and args.only is None:
        write_section("api_tax", md)


if __name__ == "__main__":
    main()
