"""Benchmarks (not tests): engine throughput and whole-tree runs, printed as Markdown tables.

    python bench/run.py [--files 750] [--realcode ../shared/realcode] [--write docs/benchmarks.md]

- The regex engine in-process on one core (MB/s), beside its first steps on their own (lexing;
  lexing and locating the names the table knows: what any translation must do before deciding
  anything) and the floor of pure Python: one ``re.finditer`` identifier scan over the same text.
- For each tree (a generated one, and, with --realcode, the CUDA half of HeCBench and the CUDA
  Library Samples): the default engine (``--engine auto``) and the regex engine translating the
  whole tree to --out-dir, cold (empty result cache) and warm, with -j 1 and -j 2, and how many
  files the default engine parsed with libclang.
- Warm runs: the whole tree unchanged, and after touching one header (how many files were
  translated again, from the run's JSON report).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_tree import generate

from hipify import Options, translate
from hipify.knowledge.table import load_table
from hipify.lexing.lexer import lex
from hipify.lexing.text_facts import name_occurrences
from hipify.rewrite.index import index_of
from hipify.sources.discover import DEFAULT_EXTENSIONS as SOURCE_SUFFIXES

ROOT = Path(__file__).resolve().parent.parent
_IDENT = re.compile(r"[A-Za-z_]\w*")


def sources(tree: Path) -> list[Path]:
    return sorted(p for p in tree.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES)


def best_of(runs: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def engine_throughput(texts: list[tuple[str, str]]) -> dict[str, float]:
    """MB/s in-process on one core, best of three: the regex engine, two of its steps on their own (lexing;
    lexing and locating the names the table knows), and the floor of pure Python (one identifier scan)."""
    table = load_table()
    options = Options(engine="regex", use_cache=False)
    index = index_of(table)
    wanted, once = index.wanted, index.report_once()
    size = sum(len(t.encode()) for _, t in texts) / 1e6
    for path, text in texts[:5]:
        translate(text, path, options, table)
    return {
        "engine": size / best_of(3, lambda: [translate(text, path, options, table) for path, text in texts]),
        "lex": size / best_of(3, lambda: [lex(text) for _, text in texts]),
        "locate": size / best_of(3, lambda: [name_occurrences(lex(text).masked, wanted, once) for _, text in texts]),
        "floor": size / best_of(3, lambda: [sum(1 for _ in _IDENT.finditer(text)) for _, text in texts]),
    }


def parsed_files(files: list[Path]) -> dict[str, int]:
    """How many files the default engine hands to libclang, per reason (``clang_mode.need.REASONS``), translating
    the tree as one project as the command line does (the rest are planned from their text)."""
    from collections import Counter

    from hipify import translate_files
    from hipify.clang_mode import engine
    from hipify.clang_mode.need import reason_kind

    reasons: Counter[str] = Counter()
    real = engine.parse_reason

    def counting(*args, **kwargs):
        reason = real(*args, **kwargs)
        if reason:
            reasons[reason_kind(reason) or reason] += 1
        return reason

    engine.parse_reason = counting
    try:
        texts = {str(p): p.read_text(encoding="utf-8", errors="surrogateescape") for p in files}
        translate_files(texts, Options(use_cache=False))
    finally:
        engine.parse_reason = real
    return dict(sorted(reasons.items()))


def tree_run(
    tree: Path, out: Path, cache: Path, *flags: str, fresh_out: bool = True, with_report: bool = True
) -> tuple[float, dict[str, int]]:
    """Seconds of one whole-tree run to --out-dir, and its report's summary ({} without a report)."""
    if fresh_out:
        shutil.rmtree(out, ignore_errors=True)
    report = out.parent / "report.json"
    report.unlink(missing_ok=True)
    env = dict(os.environ, HIPIFY_PY_CACHE_DIR=str(cache))
    reporting = ["--report", str(report)] if with_report else []
    cmd = [sys.executable, "-m", "hipify", "--out-dir", str(out), "-q", *reporting, *flags, str(tree)]
    start = time.perf_counter()
    subprocess.run(cmd, check=False, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    summary = json.loads(report.read_text())["summary"] if report.is_file() else {}
    return elapsed, summary


def tree_rows(name: str, tree: Path, work: Path) -> list[str]:
    files = sources(tree)
    size = sum(p.stat().st_size for p in files)
    rows = [f"| **{name}** ({len(files)} files, {size / 1e6:.1f} MB) | | | |"]
    results: dict[tuple[str, str], float] = {}
    for engine in ("auto", "regex"):
        for jobs in ("1", "2"):
            cache = work / f"cache-{engine}-{jobs}"
            shutil.rmtree(cache, ignore_errors=True)
            cold, _ = tree_run(tree, work / "out", cache, "--engine", engine, "-j", jobs)
            warm, summary = tree_run(tree, work / "out", cache, "--engine", engine, "-j", jobs, fresh_out=False)
            results[(engine, jobs)] = cold
            if engine == "auto" and jobs == "2":
                # A warm run as a user types it: no report (building one costs as much warm as cold).
                plain, _ = tree_run(tree, work / "out", cache, "-j", jobs, fresh_out=False, with_report=False)
            rows.append(
                f"| {name}: `--engine {engine}` -j {jobs} | {cold:.2f} s | {warm:.2f} s "
                f"({summary.get('cached', 0)} of {summary.get('files', 0)} from cache) | |"
            )
    rows.append(f"| {name}: default engine -j 2, warm, no `--report` | | {plain:.2f} s | |")
    ratio = results[("auto", "2")] / results[("regex", "2")]
    rows.append(f"| {name}: default / regex, cold -j 2 | {ratio:.1f}x | | |")
    per_reason = parsed_files(files)
    reasons = ", ".join(f"{kind} {count}" for kind, count in per_reason.items()) or "none"
    rows.append(
        f"| {name}: files the default engine parsed with libclang | {sum(per_reason.values())} of {len(files)} "
        f"| | per reason: {reasons} |"
    )
    headers = [p for p in files if p.suffix in (".h", ".cuh", ".hpp")]
    if headers:
        cache = work / "cache-auto-2"
        touched = max(headers, key=lambda p: p.stat().st_size)
        touched.write_text(
            touched.read_text(encoding="utf-8", errors="surrogateescape") + "\n", errors="surrogateescape"
        )
        again, summary = tree_run(tree, work / "out", cache, "-j", "2", fresh_out=False)
        retranslated = summary.get("files", 0) - summary.get("cached", 0)
        rows.append(
            f"| {name}: warm after touching one header (`{touched.name}`) | {again:.2f} s | "
            f"{retranslated} files translated again | |"
        )
    return rows


def extract(archive: Path, work: Path, pick: Callable[[str], bool]) -> Path:
    dest = work / archive.name.split(".")[0]
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers() if pick(m.name)]
        tar.extractall(dest, members=members, filter="data")
    return dest


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=750)
    parser.add_argument("--realcode", type=Path, help="folder of the real-code archives (e.g. ../shared/realcode)")
    parser.add_argument("--write", type=Path, help="also write the tables to this Markdown file")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hipify-bench-"))
    try:
        tree = work / "generated"
        size = generate(tree, args.files, seed=1)
        texts = [(str(p), p.read_text()) for p in sources(tree)]
        speed = engine_throughput(texts)
        lines = [
            f"# hipify-py benchmarks ({date.today().isoformat()})",
            "",
            f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}. "
            f"Generated tree: {len(texts)} files, {size / 1e6:.1f} MB (bench/gen_tree.py, seed 1).",
            "",
            "| measurement | cold | warm | |",
            "|---|---|---|---|",
            f"| regex engine, in-process, one core | {speed['engine']:.1f} MB/s | | |",
            f"| its first step alone: lexing (comments, literals, directives) | {speed['lex']:.1f} MB/s | | |",
            f"| its first two steps alone: lexing, locating the table's names | {speed['locate']:.1f} MB/s | | |",
            f"| floor: one `re.finditer` identifier scan, same text | {speed['floor']:.1f} MB/s | | |",
        ]
        lines += tree_rows("generated", tree, work)
        if args.realcode:
            hec = extract(args.realcode / "hecbench-dev.tar.xz", work, lambda n: "-cuda/" in n or "/src/include/" in n)
            lines += tree_rows("HeCBench (CUDA half)", hec, work)
            samples = extract(args.realcode / "cuda-library-samples.tar.xz", work, lambda n: True)
            lines += tree_rows("CUDA Library Samples", samples, work)
        text = "\n".join(lines) + "\n"
        print(text)
        if args.write:
            args.write.write_text(text)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
