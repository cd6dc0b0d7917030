"""Run HeCBench-style benchmarks on the CPU through HIP-CPU: each ``<name>-cuda`` translated by hipify-py, beside
its hand-written ``<name>-hip`` port, both with hipLaunchKernelGGL launches (the port's converted by the
translator's own --hip-kernel-execution-syntax), built with g++ against HIP-CPU and run with their Makefile's
``run`` line (its problem sizes as written; ``--scale F`` scales both sides' the same way, by the rule of
``validate --run-scale``), each under a limit of the CPU seconds it uses (``--cpu-seconds``; a wall-clock
backstop four times larger stops one that waits). Counts PASS / FAIL / TIMEOUT / NOT RUN for each side and lists
every benchmark where the port passes and the translation does not.

    python bench/cpu_hecbench.py --src SRC --hip-cpu ARCHIVE [--only NAME ...] [--first N] [--cpu-seconds S]
        [--scale F] [--json out.json] [--resume] [--markdown out.md]

With ``--json`` the verdicts are written after every benchmark, and ``--resume`` keeps the benchmarks that file
already holds (a run cut short goes on where it stopped).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console

from hipify.validate.corpus import COMPILE_SUFFIXES, SOURCE_SUFFIXES, Program
from hipify.validate.cpu_limits import Limits
from hipify.validate.cpu_run import FAIL, NOT_RUN, PASS, TIMEOUT, run_translation, translate_for_cpu
from hipify.validate.hipcpu import HipCpu, find
from hipify.validate.run import RunResult
from hipify.validate.runline import makefile_include_dirs, makefile_sources


def benchmark(root: Path) -> Program:
    """A HeCBench folder as a program: its Makefile's sources (else every top-level .cu), its -I folders and the
    shared ../include."""
    makefile = root / "Makefile"
    files = tuple(sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES))
    top = tuple(f for f in files if f.endswith(".cu") and "/" not in f)
    sources = makefile_sources(makefile) or top or tuple(f for f in files if f.endswith(".cu"))
    includes = (".", *makefile_include_dirs(makefile), "../include")
    return Program(root.name, root, files, present(sources, files, makefile), tuple(dict.fromkeys(includes)))


def present(listed: tuple[str, ...], files: tuple[str, ...], makefile: Path) -> tuple[str, ...]:
    """The listed sources the folder has; for one it lacks, the source of its object's rule in the Makefile where
    that file exists (``timer.o: ../x-cuda/timer.cpp``: a port building the CUDA folder's host code), else the
    folder's only compiled file of that stem (``source = timer.cu`` beside ``timer.o: timer.cpp``); then the
    sources of the other objects it links that a rule builds from such a file (``obj = main.o k.o`` and
    ``main.o: ../x-cuda/main.cpp``)."""
    text = makefile.read_text(errors="replace") if makefile.is_file() else ""
    found: list[str] = []
    for source in listed:
        stem = source.rsplit(".", 1)[0]
        rule = re.search(rf"^{re.escape(stem)}\.o\s*:\s*(\S+\.(?:cu|cpp|cc|cxx|c))\b", text, re.MULTILINE)
        same = [f for f in files if f.rsplit(".", 1)[0] == stem and f.endswith(COMPILE_SUFFIXES)]
        if source in files:
            found.append(source)
        elif rule and (makefile.parent / rule.group(1)).is_file():
            found.append(rule.group(1))
        elif len(same) == 1:
            found.append(same[0])
    for obj, rule_source in re.findall(r"^([\w./-]+)\.o\s*:\s*(\S+\.(?:cu|cpp|cc|cxx|c))\b", text, re.MULTILINE):
        linked = len(re.findall(rf"(?<![\w/.-]){re.escape(obj)}\.o\b", text)) > 1  # named beyond its rule
        known = {s.rsplit(".", 1)[0].rsplit("/", 1)[-1] for s in found}
        if linked and obj.rsplit("/", 1)[-1] not in known and (makefile.parent / rule_source).is_file():
            found.append(rule_source)  # an object the Makefile links, built from a file beside the folder
    return tuple(dict.fromkeys(found))


def sibling_links(src: Path, work: Path) -> None:
    """``work`` gets a link to every folder of ``src``: a translated tree placed in ``work`` finds ``../include``
    and the data a run line names in another benchmark's folder, as in the original tree."""
    for sibling in src.iterdir():
        if sibling.is_dir() and not (work / sibling.name).exists():
            (work / sibling.name).symlink_to(sibling)


def run_one(
    root: Path,
    work: Path,
    hc: HipCpu | None,
    limits: Limits,
    scale: float = 1.0,
    hipnv: Path | None = None,
    retry_scale: float | None = None,
) -> RunResult:
    """The benchmark in ``root`` translated (a -hip port: passed through the translator) and run: on the CPU, or
    with ``hipnv`` (HIP's patched NVIDIA headers) on an NVIDIA GPU."""
    program = benchmark(root)
    if not program.sources:
        return RunResult(program.name, "regex", NOT_RUN, "no sources found", runtime="cpu (HIP-CPU)")
    if hipnv is not None:
        from hipify.validate.run import MATCH, run_program

        port = root.name.endswith("-hip")
        result = run_program(program, ["regex"], work, hipnv, hip_source=port)[0]
        return replace(result, result=PASS if result.result == MATCH else result.result)
    assert hc is not None
    tr = translate_for_cpu(program, "regex", work)
    try:
        return run_translation(tr, hc, limits, {}, scale, retry_scale=retry_scale)
    finally:
        shutil.rmtree(tr.tree, ignore_errors=True)


def guarded(root: Path, *args: Any) -> RunResult:
    """``run_one``, where an exception of the translator or the bench is that side's FAIL with its text (the
    benchmarks after it still run)."""
    try:
        return run_one(root, *args)
    except Exception as exc:
        return RunResult(
            root.name, "regex", FAIL, f"hipify-py raised {type(exc).__name__}: {exc}", runtime="cpu (HIP-CPU)"
        )


VERDICTS = (PASS, FAIL, TIMEOUT, NOT_RUN)


def tally(rows: list[dict[str, Any]], side: str) -> dict[str, int]:
    return {v: sum(r[side]["result"] == v for r in rows) for v in VERDICTS}


def worse(rows: list[dict[str, Any]]) -> list[str]:
    """The benchmarks whose port passes and whose translation does not."""
    return [r["benchmark"] for r in rows if r["port"]["result"] == PASS and r["translated"]["result"] != PASS]


def summary(rows: list[dict[str, Any]]) -> str:
    lines = [f"{len(rows)} benchmarks"]
    for side in ("translated", "port"):
        lines.append(f"  {side}: " + ", ".join(f"{k} {v}" for k, v in tally(rows, side).items()))
    lines.append("port passes, translation does not: " + (", ".join(worse(rows)) or "none"))
    return "\n".join(lines)


_WORK_PATH = re.compile(r"/\S*?/hipify-validate-[^/\s]+/")  # the translated tree's temporary folder
_HIP_CPU_PATH = re.compile(r"/\S*?/hip-cpu/include/hip/\.\./\.\./")


def _cell(text: object) -> str:
    text = _HIP_CPU_PATH.sub("<HIP-CPU>/", _WORK_PATH.sub("", str(text)))
    return text.replace("|", "\\|").replace("\n", " ")[:220]


def markdown(rows: list[dict[str, Any]]) -> str:
    """The counts per side, then every benchmark's two verdicts with their reasons."""
    lines = ["| | " + " | ".join(VERDICTS) + " |", "|---|" + "---:|" * len(VERDICTS)]
    for side in ("translated", "port"):
        lines.append(f"| {side} | " + " | ".join(str(n) for n in tally(rows, side).values()) + " |")
    lines += ["", "| benchmark | translated | port | translated: reason | port: reason |", "|---|---|---|---|---|"]
    for r in rows:
        t, p = r["translated"], r["port"]
        lines.append(
            f"| {r['benchmark']} | {t['result']} | {p['result']} | {_cell(t['reason'])} | {_cell(p['reason'])} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", required=True, help="HeCBench's src/ folder")
    ap.add_argument("--hip-cpu", help="HIP-CPU's folder or archive (else $HIPIFY_HIP_CPU)")
    ap.add_argument("--only", action="append", help="benchmark names (without -cuda)")
    ap.add_argument("--first", type=int, help="the first N benchmarks (by name) that have both a -cuda and a -hip")
    ap.add_argument(
        "--cpu-seconds",
        "--timeout",  # its former name (bench/gpu_run.sh passes it)
        dest="cpu_seconds",
        type=float,
        default=120,
        help="CPU seconds a run may use, all threads (default 120)",
    )
    ap.add_argument("--scale", type=float, default=1.0, help="scale the run lines' sizes (validate --run-scale)")
    ap.add_argument(
        "--retry-scale",
        type=float,
        help="a side that runs out of CPU time is run once more with its run line scaled by this (reported so)",
    )
    ap.add_argument("--resume", action="store_true", help="keep the benchmarks --json already holds")
    ap.add_argument("--on", choices=("cpu", "nvidia"), default="cpu", help="where to run (nvidia: bench/gpu_run.sh)")
    ap.add_argument("--json", help="write the verdicts here")
    ap.add_argument("--markdown", help="write a Markdown table here")
    ap.add_argument("--report-only", action="store_true", help="run nothing: summarize what --json holds")
    args = ap.parse_args(argv)
    console = Console(width=200)
    if args.report_only:
        held: list[dict[str, Any]] = json.loads(Path(args.json).read_text())["rows"]
        console.print(summary(held), highlight=False, markup=False)
        if args.markdown:
            Path(args.markdown).write_text(markdown(held))
        return 0
    hc, hipnv = None, None
    if args.on == "nvidia":
        from hipify.validate.hipcpu import cache_root
        from hipify.validate.run import patched_headers

        hipnv, why = patched_headers(cache_root())
    else:
        hc, why = find(args.hip_cpu)
    if hc is None and hipnv is None:
        console.print(why)
        return 2
    src = Path(args.src)
    names = sorted(p.name[: -len("-cuda")] for p in src.glob("*-cuda") if (src / (p.name[:-5] + "-hip")).is_dir())
    if args.only:
        names = [n for n in names if n in set(args.only)]
    if args.first:
        names = names[: args.first]
    limits = Limits.of_cpu(args.cpu_seconds)
    meta = {
        "cpu_seconds": limits.cpu_seconds,
        "wall_backstop": limits.wall_seconds,
        "scale": args.scale,
        "retry_scale": args.retry_scale,
    }
    rows: list[dict[str, Any]] = []
    if args.resume and args.json and Path(args.json).is_file():
        rows = json.loads(Path(args.json).read_text())["rows"]
    done = {r["benchmark"] for r in rows}
    console.print(f"{len(names)} benchmarks ({len(done)} done before); a run may use {limits.describe()}")
    work = Path(tempfile.mkdtemp(prefix="hipify-cpu-hecbench-"))
    sibling_links(src, work)
    try:
        for name in names:
            if name in done:
                continue
            t0 = time.perf_counter()
            translated = guarded(src / f"{name}-cuda", work, hc, limits, args.scale, hipnv, args.retry_scale)
            port = guarded(src / f"{name}-hip", work, hc, limits, args.scale, hipnv, args.retry_scale)
            rows.append({"benchmark": name, "translated": translated.to_json(), "port": port.to_json()})
            console.print(
                f"{name}: translated {translated.result}, port {port.result} ({time.perf_counter() - t0:.0f} s)"
                + (f"\n  translated: {translated.reason[:300]}" if translated.result != PASS else "")
                + (f"\n  port: {port.reason[:300]}" if port.result != PASS else ""),
                highlight=False,
                markup=False,
            )
            if args.json:
                Path(args.json).write_text(json.dumps({**meta, "rows": rows}, indent=1) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    console.print(summary(rows))
    if args.markdown:
        Path(args.markdown).write_text(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
