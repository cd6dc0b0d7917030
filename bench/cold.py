"""Cold whole-tree runs of this checkout beside another (today's main), interleaved, medians (a benchmark, not a test).

    python bench/cold.py --other /tmp/main-checkout --realcode ../shared/realcode [--runs 5] [--write FILE]
                         [--out-root /dev/shm]

Both checkouts run from bytecode compiled beforehand (into a pycache tree of its own), as an installed package
does, even where ``PYTHONDONTWRITEBYTECODE`` is set.
For each tree (the generated one; with --realcode, HeCBench's CUDA half and the CUDA Library Samples), runs
``--engine regex -j 2`` and the default engine ``-j 2``, cold (``--no-cache``), to a fresh ``--out-dir``, for
this checkout and for ``--other``, one after the other in every round (so both see the same machine load;
the other checkout's default engine in the first round only, unless asked), and reports the median wall time
and CPU time (the run and its workers) of each. In every round it also runs
``bench/profile_run.py`` on this checkout (regex, -j 2) and reports the project scan's share of that run's wall
time (the scan jobs and building the model, until the first file can be translated). It checks that both
checkouts wrote the same files (``diff -r``) for each engine. The load average is printed with every round: the
machine may be shared. ``--out-root``: where the outputs go (a disk whose state changes from minute to minute, as
a VM's may, moves the timings more than the code does; a file system in memory does not).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import extract, sources  # bench/run.py: the same trees as the other benchmarks

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Samples:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def line(self) -> str:
        return f"{statistics.median(self.wall):.2f} s (CPU {statistics.median(self.cpu):.2f} s)"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_env(checkout: Path) -> dict[str, str]:
    """The environment a timed run gets: ``checkout`` first on the path, and its compiled bytecode (as an install
    has it: :func:`compile_checkouts`), not a compilation of every module in every run."""
    env = dict(os.environ, PYTHONPATH=str(checkout), PYTHONPYCACHEPREFIX=str(PYCACHE))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


PYCACHE = Path(tempfile.gettempdir()) / "hipify-cold-pycache"


def compile_checkouts(*checkouts: Path) -> None:
    """Compile each checkout's package into :data:`PYCACHE` (its own tree of bytecode, so the checkouts stay as
    they are), as ``pip install`` compiles an installed package."""
    for checkout in checkouts:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / "hipify")], env=run_env(checkout),
                       check=False, stdout=subprocess.DEVNULL)  # fmt: skip


def timed_run(checkout: Path, tree: Path, out: Path, engine: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one cold run of ``checkout`` translating ``tree`` into ``out``."""
    shutil.rmtree(out, ignore_errors=True)
    env = run_env(checkout)
    cmd = [sys.executable, "-m", "hipify", "--engine", engine, "-j", "2", "--no-cache", "-q", "--out-dir", str(out)]
    before, start = children_cpu(), time.perf_counter()
    subprocess.run([*cmd, str(tree)], cwd=checkout, env=env, check=False, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - start, children_cpu() - before


_WALL = re.compile(r"^wall: ([\d.]+) s", re.M)
_SCAN = re.compile(r"^parent: scan \(project model\)\s+([\d.]+)", re.M)


def scan_share(tree: Path, out: Path) -> float:
    """The project scan's share of a cold regex -j 2 run's wall time (bench/profile_run.py)."""
    shutil.rmtree(out, ignore_errors=True)
    env = run_env(ROOT)
    cmd = [sys.executable, str(ROOT / "bench" / "profile_run.py"), str(tree), "--engine", "regex", "-j", "2"]
    text = subprocess.run([*cmd, "--no-cache", "--out-dir", str(out)], cwd=ROOT, env=env, check=False,
                          capture_output=True, text=True).stdout  # fmt: skip
    wall, scan = _WALL.search(text), _SCAN.search(text)
    return float(scan.group(1)) / float(wall.group(1)) if wall and scan else float("nan")


def same_tree(a: Path, b: Path) -> bool:
    """``diff -r``: the same files with the same bytes."""
    compared = filecmp.dircmp(a, b)
    if compared.left_only or compared.right_only or compared.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, compared.common_files, shallow=False)
    return not mismatch and not errors and all(same_tree(a / d, b / d) for d in compared.common_dirs)


def tree_rows(name: str, tree: Path, other: Path, work: Path, runs: int, all_rounds: bool) -> list[str]:
    """The table rows of one tree; the runs write their outputs under ``work``."""
    files = sources(tree)
    size = sum(p.stat().st_size for p in files)
    samples: dict[tuple[str, str], Samples] = {}
    shares: list[float] = []
    for round_ in range(runs):
        print(f"{name}: round {round_ + 1} of {runs}, load average {os.getloadavg()[0]:.1f}", file=sys.stderr)
        for engine in ("regex", "auto"):
            for who, checkout in (("other", other), ("this", ROOT)):
                if (who, engine) == ("other", "auto") and round_ and not all_rounds:
                    continue  # the other checkout's default engine: once, for its output and a reference time
                wall, cpu = timed_run(checkout, tree, work / f"out-{who}-{engine}", engine)
                sample = samples.setdefault((who, engine), Samples())
                sample.wall.append(wall)
                sample.cpu.append(cpu)
        shares.append(scan_share(tree, work / "out-profile"))
    same = {e: same_tree(work / f"out-other-{e}", work / f"out-this-{e}") for e in ("regex", "auto")}
    regex_speedup = statistics.median(samples[("other", "regex")].wall) / statistics.median(
        samples[("this", "regex")].wall
    )
    ratio = statistics.median(samples[("this", "auto")].wall) / statistics.median(samples[("this", "regex")].wall)
    return [
        f"| **{name}** ({len(files)} files, {size / 1e6:.1f} MB) | main | this | |",
        f"| cold `--engine regex -j 2` | {samples[('other', 'regex')].line()} | {samples[('this', 'regex')].line()} "
        f"| {regex_speedup:.1f}x faster |",
        f"| cold default engine `-j 2` | {samples[('other', 'auto')].line()} | {samples[('this', 'auto')].line()} "
        f"| default / regex: {ratio:.2f}x |",
        f"| project scan's share of a cold regex `-j 2` run | | {statistics.median(shares):.0%} | |",
        f"| same output as main (`diff -r`) | | regex: {'yes' if same['regex'] else 'NO'}, "
        f"default: {'yes' if same['auto'] else 'NO'} | |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--other", type=Path, required=True, help="a checkout of the version to compare with")
    parser.add_argument("--realcode", type=Path, help="folder of the real-code archives (e.g. ../shared/realcode)")
    parser.add_argument("--files", type=int, default=750)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--other-default-every-round",
        action="store_true",
        help="run the other checkout's default engine every round (by default: in the first round only)",
    )
    parser.add_argument("--write", type=Path, help="also append the table to this Markdown file")
    parser.add_argument(
        "--out-root",
        type=Path,
        help="write the runs' outputs under this directory (e.g. /dev/shm: a file system in memory keeps the "
        "disk's state out of the timings); default: beside the trees",
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hipify-cold-"))
    outputs = Path(tempfile.mkdtemp(prefix="hipify-cold-out-", dir=args.out_root)) if args.out_root else work
    compile_checkouts(ROOT, args.other.resolve())
    try:
        from gen_tree import generate

        trees = [("generated", work / "generated")]
        generate(trees[0][1], args.files, seed=1)
        if args.realcode:
            hec = extract(args.realcode / "hecbench-dev.tar.xz", work, lambda n: "-cuda/" in n or "/src/include/" in n)
            trees.append(("HeCBench (CUDA half)", hec))
            trees.append(("CUDA Library Samples", extract(args.realcode / "cuda-library-samples.tar.xz", work, bool)))
        lines = [
            f"Cold runs, {args.runs} rounds, medians; load average at the start {os.getloadavg()[0]:.1f} "
            f"on {os.cpu_count()} cores; outputs written under {outputs.parent}.",
            "",
            "| cold run | main | this | |",
            "|---|---|---|---|",
        ]
        for name, tree in trees:
            lines += tree_rows(name, tree, args.other.resolve(), outputs, args.runs, args.other_default_every_round)
        text = "\n".join(lines) + "\n"
        print(text)
        if args.write:
            with args.write.open("a") as handle:
                handle.write("\n" + text)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(outputs, ignore_errors=True)


if __name__ == "__main__":
    main()
