"""Listing two million Letter Boxed answers: peak memory and time of the whole command, before and now.

``cpwords solve rich.yaml`` on the box ``wre ish bpl aon`` (every answer of up to 4 words of
``scowl-50``, ``limit: null``: 2,154,479 answers), piped text to a file and ``--json`` to a file,
each in a fresh process that reports its own peak resident memory (``VmHWM``) and processor time
when it ends; the answers written are counted. *Before* is the code of a baseline commit (default
``6dc2123``, the start of issue 34: a Solution object an answer), extracted with ``git archive``
and run from the same interpreter; *now* is this work tree. Issue 34 (D3) asks for under 1 GB.

    python benchmarks/bench_letter_boxed_listing.py            # about 10 minutes on 2 cores
    python benchmarks/bench_letter_boxed_listing.py --write    # also write the section of docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import OWN_PEAK_KB, fmt_s, write_section

ROOT = Path(__file__).resolve().parent.parent
SPEC = {"kind": "letter_boxed", "sides": ["wre", "ish", "bpl", "aon"], "task": "enumerate", "max_words": 4,
        "dictionary": "scowl-50", "limit": None}
#: cpwords run through its own main in a process that says, on its last stderr line, its peak memory
#: (KB) and processor seconds.
_RUN = OWN_PEAK_KB + (
    "import resource, sys\nfrom cpwords.cli import main\nrc = main(sys.argv[1:])\nsys.stdout.flush()\n"
    "u = resource.getrusage(resource.RUSAGE_SELF)\n"
    "print('PEAK', own_peak_kb(), u.ru_utime + u.ru_stime, file=sys.stderr)\nsys.exit(rc)\n")


def baseline(rev: str, folder: Path) -> Path:
    """The package of commit ``rev``, extracted into ``folder`` (the repository's metadata untouched)."""
    archive = folder / "base.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", rev, "cpwords"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder / "base", filter="data")
    return folder / "base"


def run(form: str, code: Path, folder: Path) -> dict[str, float]:
    """One listing in a fresh process: its peak memory, seconds, processor seconds, answers written."""
    import time

    puzzle = folder / "rich.yaml"
    puzzle.write_text(json.dumps(SPEC))
    out = folder / f"out-{form}"
    env = {**os.environ, "PYTHONPATH": str(code)}
    t0 = time.monotonic()
    with out.open("w") as stdout:
        done = subprocess.run([sys.executable, "-c", _RUN, "solve", str(puzzle), *(["--json"] if form == "json" else [])],
                              stdout=stdout, stderr=subprocess.PIPE, text=True, env=env, check=False,
                              cwd=folder)  # not the work tree: `python -c` puts the current folder first on sys.path
    seconds = time.monotonic() - t0
    assert done.returncode == 0, done.stderr[-2000:]
    _, peak_kb, cpu = done.stderr.strip().splitlines()[-1].split()
    if form == "json":
        with out.open() as f:
            answers = len(json.load(f)["solutions"])
    else:
        row = re.compile(r"\s*[\d,]+  [a-z]")  # "2,154,479  paraphrases sawhorses …"
        with out.open() as f:
            answers = sum(1 for line in f if row.match(line))
    out.unlink()
    return {"rss_mb": int(peak_kb) / 1024, "seconds": seconds, "cpu_s": float(cpu), "answers": answers}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="6dc2123", help="the commit measured as before (default 6dc2123)")
    parser.add_argument("--write", action="store_true", help="write the letter_boxed_listing section of docs/benchmarks.md")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        before = baseline(args.baseline, folder)
        for form in ("text", "json"):
            got = {}
            for name, code in (("before", before), ("now", ROOT)):  # taking turns
                got[name] = run(form, code, folder)
                print(form, name, got[name], flush=True)
            b, n = got["before"], got["now"]
            rows.append(f"| {'piped text' if form == 'text' else '`--json`'} | {b['answers']:,} | "
                        f"{b['rss_mb']:,.0f} MB | {fmt_s(b['seconds'])} ({fmt_s(b['cpu_s'])} of processor) | "
                        f"{n['answers']:,} | **{n['rss_mb']:,.0f} MB** | {fmt_s(n['seconds'])} "
                        f"({fmt_s(n['cpu_s'])} of processor) | ×{b['rss_mb'] / n['rss_mb']:.1f} |")
    md = "\n".join([
        "### Letter Boxed: listing two million answers (issue 34, D3)",
        "",
        f"Load average when the run ended: {os.getloadavg()[0]:.1f}. Run: `python benchmarks/bench_letter_boxed_listing.py`. "
        "`cpwords solve` of the box `wre ish bpl aon`, every answer of up to 4 words of `scowl-50` (`limit: null`: "
        "2,154,479 answers), written to a file, each run in a fresh process that reports its own peak resident "
        "memory (`VmHWM`; `ru_maxrss` would carry over the peak of this script, which loads the JSON to count "
        "its answers); "
        f"*before*: commit `{args.baseline}` (a Solution object an answer, made before anything is written); *now*: "
        "this commit (answers kept as word indexes, 4 bytes a word, each made when the check or the writer reads it). "
        "Seconds are wall-clock on a shared machine; processor seconds are the process's own. Target: under 1 GB.",
        "",
        "| output | before: answers | peak memory | seconds | now: answers | peak memory | seconds | memory ÷ |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
    ])
    print(md)
    if args.write:
        write_section("letter_boxed_listing", md)


if __name__ == "__main__":
    main()
