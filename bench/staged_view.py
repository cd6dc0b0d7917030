"""The pre-commit view: ``--staged --diff`` after one edit, this checkout beside others, interleaved (a benchmark).

    python bench/staged_view.py TREE [--other CHECKOUT ...] [--runs 3]

Copies TREE into a fresh git repository (one commit), appends a comment line to its first ``.cu`` file and stages
it, then runs ``python -m hipify --staged --diff .`` there with each checkout in turn (``PYTHONPATH``), each with
a result cache of its own (``HIPIFY_PY_CACHE_DIR``): one untimed run per checkout fills its cache, then ``--runs``
rounds, the checkouts one after the other in each, and the medians of the CPU seconds (the run and its workers)
and of the wall time. Every checkout must print the same diff. CPU time is what to compare on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _repo(tree: Path, work: Path) -> Path:
    repo = work / "repo"
    shutil.copytree(tree, repo / tree.name, symlinks=True)
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.invalid",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@example.invalid")  # fmt: skip
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "tree"]):
        subprocess.run(cmd, cwd=repo, env=env, check=True)
    edited = next(p for p in sorted((repo / tree.name).rglob("*.cu")) if p.is_file())
    with open(edited, "a", encoding="utf-8") as handle:
        handle.write("// one edit\n")
    subprocess.run(["git", "add", str(edited)], cwd=repo, env=env, check=True)
    return repo


def _run(checkout: Path, repo: Path, cache: Path) -> tuple[float, float, str]:
    env = dict(os.environ, PYTHONPATH=str(checkout), HIPIFY_PY_CACHE_DIR=str(cache))
    before, start = _cpu(), time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "hipify", "--staged", "--diff", "."], cwd=repo, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    return time.perf_counter() - start, _cpu() - before, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--other", type=Path, action="append", default=[], help="another checkout to compare")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    checkouts = [ROOT, *args.other]
    with tempfile.TemporaryDirectory(prefix="hipify-staged-") as tmp:
        work = Path(tmp)
        repo = _repo(args.tree.resolve(), work)
        caches = {c: work / f"cache-{i}" for i, c in enumerate(checkouts)}
        diffs = {c: _run(c, repo, caches[c])[2] for c in checkouts}  # untimed: fills each cache
        times: dict[Path, list[tuple[float, float]]] = {c: [] for c in checkouts}
        for round_ in range(args.runs):
            print(f"round {round_ + 1}, load average {os.getloadavg()[0]:.1f}", file=sys.stderr)
            for checkout in checkouts:
                wall, cpu, diff = _run(checkout, repo, caches[checkout])
                times[checkout].append((wall, cpu))
                if diff != diffs[checkout]:
                    print(f"{checkout}: the diff changed between runs", file=sys.stderr)
        for checkout in checkouts:
            walls, cpus = [w for w, _ in times[checkout]], [c for _, c in times[checkout]]
            same = "same diff" if diffs[checkout] == diffs[ROOT] else "OTHER DIFF"
            print(f"{checkout}: CPU {statistics.median(cpus):.2f} s {[round(c, 2) for c in cpus]}, "
                  f"wall {statistics.median(walls):.2f} s, {same}")  # fmt: skip


if __name__ == "__main__":
    main()
