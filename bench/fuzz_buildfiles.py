"""A long fuzz run of the build-file translators (not a test): real build files, cut and recombined.

    python bench/fuzz_buildfiles.py DIR... [--cases 20000] [--seed 1] [--time-limit 3600]

Reads every Makefile (``Makefile``, ``*.mk``, ...) and CMake listfile under the given folders (real projects: the
real-code archives extracted, for instance; nothing is written there), then for each case picks a kind, cuts pieces
out of several files of that kind at random lines and characters and joins them (``tests/build_fuzzing.py``), and
checks the translation like the suite's bounded fuzz test: nothing raises, no internal error, no overlapping edit,
idempotence. Every file is also translated whole first. Prints one Markdown table and the first failing cases;
exit status 1 if any case failed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from build_fuzzing import context, failures, recombine

from hipify.buildfiles import build_kind


def build_files(folders: list[str]) -> dict[str, list[str]]:
    """The texts of the build files under ``folders``, by kind."""
    found: dict[str, list[str]] = {"make": [], "cmake": []}
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            kind = build_kind(str(path)) if path.is_file() else None
            if kind is not None:
                found[kind].append(path.read_text(encoding="utf-8", errors="replace"))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+", help="folders holding real build files (read only)")
    parser.add_argument("--cases", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=3600)
    args = parser.parse_args(argv)
    texts = build_files(args.folders)
    kinds = [k for k, v in texts.items() if v]
    if not kinds:
        print("no build files found under", " ".join(args.folders), file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    start = time.perf_counter()
    problems: list[tuple[str, str, list[str]]] = []
    runs = {k: 0 for k in texts}
    for kind in kinds:  # every file whole first
        for text in texts[kind]:
            runs[kind] += 1
            found = failures(text, kind, context(rng))
            if found:
                problems.append((kind, text, found))
    for _ in range(args.cases):
        if time.perf_counter() - start > args.time_limit:
            break
        kind = rng.choice(kinds)
        text = recombine(rng, texts[kind])
        runs[kind] += 1
        found = failures(text, kind, context(rng))
        if found:
            problems.append((kind, text, found))
    seconds = time.perf_counter() - start
    print("| kind | files read | cases run | failures |\n|---|---:|---:|---:|")
    for kind in texts:
        print(f"| {kind} | {len(texts[kind])} | {runs[kind]} | {sum(1 for k, _, _ in problems if k == kind)} |")
    print(f"\n{sum(runs.values())} cases in {seconds:.0f} s")
    for kind, text, found in problems[:5]:
        print(f"\n--- {kind}: {found[0][:500]}\n{text[:2000]}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
