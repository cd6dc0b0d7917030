"""Fuzz the soundness of left-out code: generated projects (tests/soundness_fuzzing.py) translated as a project,
each checked for a region crossing a function or a branch, and for definitions lost or left out.

    python bench/fuzz_soundness.py --cases 2000 --seed 1 [--engine regex|clang]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from soundness_fuzzing import failures, generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", default="regex", choices=("regex", "clang"))
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    failing = 0
    start = time.perf_counter()
    done = 0
    try:
        with tempfile.TemporaryDirectory() as folder:
            for n in range(args.cases):
                case = generate(rng, rng.randrange(3, 12))
                problems = failures(case, Path(folder), args.engine)
                done = n + 1
                if problems:
                    failing += 1
                    if failing <= 5:
                        print(f"case {n}: {problems[0]}\n--- header ---\n{case.header}", flush=True)
                if done % 1000 == 0:
                    print(f"{done} cases, {failing} failing", file=sys.stderr, flush=True)
    except KeyboardInterrupt:  # a long run stopped by hand still says how far it got
        print("interrupted", file=sys.stderr)
    seconds = time.perf_counter() - start
    print(f"{done} cases ({args.engine}, seed {args.seed}): {failing} failing in {seconds:.0f} s", flush=True)
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
