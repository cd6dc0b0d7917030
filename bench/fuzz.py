"""A long fuzz run of both engines (not a test): seeded token soups and programs, checked like
the suite's bounded fuzz test (``tests/fuzzing.py``), in supervised worker processes so that a
crash or a hang is counted as a failure of its batch instead of stopping the run.

    python bench/fuzz.py [--regex 100000] [--clang 10000] [--jobs 2] [--time-limit 5400] [--first 0]

Prints one Markdown table (cases run, failures, time) and the first failing cases. Half of the
cases are token soups, half well-formed programs (where the engines must also agree). Soups hold
the lexer's edges too (ill-formed literals, empty and unterminated ones after a name or a prefix,
lone CRs and mixed line ends, splices at a comment's end, non-ASCII names: see
``tests/fuzzing.py``). clang's reading is the oracle of what must stay unchanged: every case, of
either engine, also checks that our lexer reads the comments and literals of its input and output
as libclang's lexer does (``--no-clang-reading``: not for the regex cases). The clang engine
parses every case (``--clang-parse always``) without CUDA headers (``--cuda-path none``) unless
``--cuda-path`` says otherwise. Exit status 1 if any case failed.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from fuzzing import failures, program, soup

from hipify.knowledge.table import load_table
from hipify.machinery.supervise import Failure, Job, Limits, Supervisor
from hipify.options import Options
from hipify.translation.engines import clang_status


@dataclass(frozen=True)
class Batch:
    engine: str
    seed: int
    first: int  # case numbers [first, first + count)
    count: int
    cuda_path: str
    clang_reading: bool  # check our lexer's reading against clang's (always done for the clang engine)


@dataclass(frozen=True)
class Outcome:
    cases: int
    problems: tuple[tuple[int, str, str], ...]  # (case, what went wrong, the input)


def case(batch: Batch, number: int) -> tuple[str, Options]:
    """Case ``number`` of a run: its text and options, the same for every run with ``seed``."""
    rng = random.Random(batch.seed * 1_000_003 + number)
    text = soup(rng) if number % 2 else program(rng)
    options = Options(
        engine="regex",
        hip_kernel_syntax=rng.random() < 0.5,
        roc=rng.random() < 0.2,
        skip_excluded_blocks=rng.random() < 0.3,
        rocm_version=rng.choice([(5, 7), (6, 4)]),
        use_cache=False,
    )
    if batch.engine == "clang":
        options = replace(options, engine="clang", cuda_path=batch.cuda_path, clang_parse="always")
    return text, options


def run_batch(batch: Batch) -> Outcome:
    table = load_table()
    problems = []
    for number in range(batch.first, batch.first + batch.count):
        text, options = case(batch, number)
        compare = batch.engine == "clang"
        for problem in failures(text, options, table, compare=compare, clang_reading=batch.clang_reading):
            problems.append((number, problem, text))
    return Outcome(batch.count, tuple(problems))


def on_failure(job: Job[Outcome], failure: Failure) -> Outcome:
    batch: Batch = job.arg
    return Outcome(batch.count, ((batch.first, f"batch failed: {failure.describe()}", ""),))


def fuzz(
    engine: str, cases: int, args: argparse.Namespace, deadline: float
) -> tuple[int, list[tuple[int, str, str]], float]:
    """(cases run, problems, seconds) for one engine, stopping at ``deadline``."""
    size = 200 if engine == "regex" else 10
    reading = not args.no_clang_reading and clang_status()[0]
    batches = [
        Batch(engine, args.seed, first, min(size, args.first + cases - first), args.cuda_path, reading)
        for first in range(args.first, args.first + cases, size)
    ]
    start = time.monotonic()
    done = 0
    problems: list[tuple[int, str, str]] = []
    with Supervisor(args.jobs, Limits(timeout_s=600)) as workers:
        for outcome in workers.map([Job(run_batch, b) for b in batches], on_failure):
            done += outcome.cases
            problems.extend(outcome.problems)
            # (as they come, on stderr: a long run's findings can be worked on before it ends)
            for number, problem, text in outcome.problems:
                print(f"{engine} case {number}: {problem}\n{text!r}", file=sys.stderr, flush=True)
            if done % (size * 50) < size:
                print(f"{engine}: {done:,} cases, {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
            if time.monotonic() > deadline:
                break
    return done, problems, time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--regex", type=int, default=100_000, help="regex engine cases")
    parser.add_argument("--clang", type=int, default=10_000, help="clang engine cases")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--first", type=int, default=0, help="the first case's number (to go on with a run its time limit stopped)"
    )
    parser.add_argument("--cuda-path", default="none", help="CUDA headers for the clang engine (default: none)")
    parser.add_argument("--time-limit", type=float, default=5400, help="seconds for the whole run")
    parser.add_argument(
        "--no-clang-reading", action="store_true", help="regex cases: do not check our lexer against clang's"
    )
    args = parser.parse_args()
    deadline = time.monotonic() + args.time_limit
    load_table()
    rows = []
    all_problems: list[tuple[str, int, str, str]] = []
    plan = [("regex", args.regex), ("clang", args.clang)]
    for engine, cases in plan:
        if not cases:
            continue
        if engine == "clang" and not clang_status()[0]:
            rows.append(f"| clang | unavailable: {clang_status()[1]} | | |")
            continue
        done, problems, seconds = fuzz(engine, cases, args, deadline)
        failed = len({n for n, _, _ in problems})
        numbers = f" (cases {args.first:,} to {args.first + done - 1:,})" if args.first else ""
        rows.append(
            f"| {engine} | {done:,} of {cases:,}{numbers} | {failed} | {seconds:.0f} s ({done / seconds:.0f} cases/s) |"
        )
        all_problems += [(engine, n, p, t) for n, p, t in problems]
    oracle = (
        "clang's reading of comments and literals" if clang_status()[0] and not args.no_clang_reading else "our lexer"
    )
    print(f"Fuzz run, seed {args.seed}: {platform.machine()}, {os.cpu_count()} cores, {args.jobs} workers; ")
    print(f"what must stay unchanged in the regex cases: {oracle}.\n")
    print("| engine | cases run | failing cases | time |\n|---|---|---|---|")
    print("\n".join(rows))
    for engine, number, problem, text in all_problems[:10]:
        print(f"\n{engine} case {number}: {problem}\n{text!r}")
    return 1 if all_problems else 0


if __name__ == "__main__":
    sys.exit(main())
