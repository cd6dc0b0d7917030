"""Benchmarks (not tests): engine throughput and whole-tree runs, printed as Markdown tables.

    python bench/run.py [--files 750] [--clang] [--write docs/benchmarks.md]

Regex engine: MB/s on one core over a generated realistic tree; tree runs with -j 1 / -j 2.
Clang engine (--clang): per-file parse+rewrite time with the toolkit and without CUDA headers,
and a whole-tree run with -j 2, cold (no cache) and warm (cache filled).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_tree import generate

from hipify import Options, translate
from hipify.discover import DEFAULT_EXTENSIONS as SOURCE_SUFFIXES
from hipify.engines import clang_status
from hipify.table import load_table


def engine_throughput(files: list[Path], options: Options) -> tuple[float, float]:
    """(MB/s, seconds) translating every file in-process on one core."""
    table = load_table()
    texts = [(str(p), p.read_text()) for p in files]
    size = sum(len(t.encode()) for _, t in texts)
    start = time.perf_counter()
    for path, text in texts:
        translate(text, path, options, table)
    elapsed = time.perf_counter() - start
    return size / 1e6 / elapsed, elapsed


def per_file_times(files: list[Path], options: Options) -> list[float]:
    table = load_table()
    times = []
    for path in files:
        text = path.read_text()
        start = time.perf_counter()
        translate(text, str(path), options, table)
        times.append(time.perf_counter() - start)
    return times


def tree_run(tree: Path, out: Path, *flags: str, env: dict[str, str] | None = None) -> float:
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "hipify", "--out-dir", str(out), "-q", *flags, str(tree)], check=True, env=env
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=750)
    parser.add_argument("--clang", action="store_true", help="also benchmark the clang engine")
    parser.add_argument("--clang-sample", type=int, default=20)
    parser.add_argument("--write", type=Path, help="also write the tables to this Markdown file")
    parser.add_argument("--tree", type=Path, help="benchmark this existing source tree instead of a generated one")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hipify-bench-"))
    try:
        if args.tree:
            tree = args.tree.resolve()
            files = sorted(p for p in tree.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES)
            size = sum(p.stat().st_size for p in files)
            described = f"{len(files)} files of {tree}, {size / 1e6:.1f} MB"
        else:
            tree = work / "tree"
            size = generate(tree, args.files, seed=1)
            files = sorted(p for p in tree.rglob("*") if p.is_file())
            described = f"{len(files)} generated files, {size / 1e6:.1f} MB (bench/gen_tree.py, seed 1)"
        lines = [
            f"# hipify-py benchmarks ({date.today().isoformat()})",
            "",
            f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}. "
            f"Tree: {described}.",
            "",
            "| measurement | result |",
            "|---|---|",
        ]
        mbps, secs = engine_throughput(files, Options(engine="regex"))
        lines.append(f"| regex engine, in-process, one core | {mbps:.1f} MB/s ({secs:.2f} s) |")
        env = dict(os.environ, HIPIFY_PY_CACHE_DIR=str(work / "cache"))
        for jobs in ("1", "2"):
            t = tree_run(tree, work / "out", "--engine", "regex", "--no-cache", "-j", jobs, env=env)
            lines.append(f"| regex tree to --out-dir, -j {jobs} | {t:.2f} s ({len(files) / t:.0f} files/s) |")
        if args.clang:
            usable, reason = clang_status()
            if not usable:
                lines.append(f"| clang engine | unavailable: {reason} |")
            else:
                sample = files[: args.clang_sample]
                for label, opts in (
                    ("toolkit (auto-detected)", Options(engine="clang", use_cache=False)),
                    ("no CUDA headers (--cuda-path none)", Options(engine="clang", cuda_path="none", use_cache=False)),
                ):
                    times = per_file_times(sample, opts)
                    lines.append(
                        f"| clang per file, {label} | median {statistics.median(times) * 1000:.0f} ms, "
                        f"first {times[0] * 1000:.0f} ms |"
                    )
                cold = tree_run(tree, work / "out", "--engine", "clang", "-j", "2", env=env)
                warm = tree_run(tree, work / "out", "--engine", "clang", "-j", "2", env=env)
                lines.append(f"| clang tree -j 2, cold cache | {cold:.1f} s |")
                lines.append(f"| clang tree -j 2, warm cache | {warm:.2f} s |")
        text = "\n".join(lines) + "\n"
        print(text)
        if args.write:
            args.write.write_text(text)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
