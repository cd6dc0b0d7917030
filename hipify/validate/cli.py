"""``hipify-py validate [PATH...]``: translate corpus programs, compile them for AMD GPUs, optionally run them."""

from __future__ import annotations

import argparse
import os
import sys
import time

from rich.console import Console

from .build import BuildOutcome
from .corpus import discover
from .parts import BUILD_TOOLS, NOT_JUDGED, lacking, probe
from .runner import SKIPPED, Result, validate_all
from .shim_mode import validate_shim_program
from .toolchain import CHROOT_RELEASES, DEFAULT_ARCHS, Toolchain, detect, no_toolchain_message

ENGINES = ("regex", "clang")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hipify-py validate",
        description="Translate CUDA programs with each engine and compile the result with hipcc for AMD GPUs; "
        "with --run (NVIDIA GPU + nvcc), also build and run original and translation and compare.",
    )
    p.add_argument(
        "paths",
        nargs="*",
        help="program directories, .cu files, or directories of programs (default: the shipped corpus/)",
    )
    p.add_argument("--engine", action="append", choices=ENGINES, help="engine(s) to validate (default: both)")
    p.add_argument("--arch", action="append", help=f"AMD offload arch (default: {' '.join(DEFAULT_ARCHS)})")
    p.add_argument("--hipcc", metavar="CMD", help="hipcc command to use (default: auto-detect)")
    releases = ", ".join(f"{r.rocm}: ${r.env} or {r.directory}" for r in CHROOT_RELEASES)
    p.add_argument(
        "--rocm",
        metavar="X.Y",
        choices=[r.rocm for r in CHROOT_RELEASES],
        help="compile with this ROCm release's toolchain, translating for it (default: the newest toolchain found; "
        f"{', '.join(r.rocm for r in CHROOT_RELEASES)}); with --setup, build that release's chroot (default: the "
        "newest, which translation targets by default)",
    )
    p.add_argument(
        "--rocm-chroot",
        metavar="DIR",
        help=f"use hipcc inside this ROCm chroot; with --setup, build it there (default per release: {releases})",
    )
    setup = p.add_argument_group("getting ROCm's hipcc on a CPU-only Debian/Ubuntu machine")
    setup.add_argument(
        "--setup",
        action="store_true",
        help="build (or complete) a Debian chroot with a ROCm release's hipcc and the HIP library headers (6.4: "
        "Debian sid; 7.2: Debian experimental over sid), then exit; needs root and debootstrap, ~1.5 GB; a second "
        "run only checks",
    )
    setup.add_argument(
        "--mirror", metavar="URL", help="with --setup: Debian mirror (default http://deb.debian.org/debian)"
    )
    setup.add_argument("--no-selftest", action="store_true", help="with --setup: skip the final test compile")
    p.add_argument(
        "--toolchain",
        choices=("auto", "all", "chroot", "host"),
        default="auto",
        help="auto: the newest ROCm chroot present (of --rocm's release when given), else the system hipcc; "
        "all: every chroot and the system hipcc, each translating for its own ROCm",
    )
    p.add_argument("-j", "--jobs", type=int, default=max(2, os.cpu_count() or 2), help="parallel compiles")
    p.add_argument("--json", metavar="FILE", help="write results as JSON (for the porting report)")
    p.add_argument("--markdown", metavar="FILE", help="write the compile results as a Markdown table")
    p.add_argument("--keep", action="store_true", help="keep the translated trees (paths are printed)")
    p.add_argument(
        "--run",
        action="store_true",
        help="also build and run each translation: on an NVIDIA GPU where there is one (nvcc and a GPU), else on the "
        "CPU through HIP-CPU (see --hip-cpu)",
    )
    cpu = p.add_argument_group("running on the CPU (HIP-CPU) where there is no GPU")
    cpu.add_argument(
        "--run-on",
        choices=("auto", "nvidia", "cpu"),
        default="auto",
        help="with --run: where to run (auto: an NVIDIA GPU if present, else the CPU)",
    )
    cpu.add_argument(
        "--hip-cpu",
        metavar="DIR|ARCHIVE",
        help="HIP-CPU's folder or a .tar.* archive of it (default: $HIPIFY_HIP_CPU, else where `--setup --cpu` "
        "cloned it); the compiler is $HIPIFY_CPU_CXX, else g++, else clang++; needs TBB (libtbb-dev)",
    )
    cpu.add_argument(
        "--run-timeout",
        type=float,
        default=300,
        metavar="S",
        help="with --run on the CPU: CPU seconds a program may use, all its threads together (default 300; "
        "past it: TIMEOUT, not a failure); a wall-clock backstop of 4x (at least +60 s) stops one that waits",
    )
    cpu.add_argument(
        "--run-scale",
        type=float,
        default=1.0,
        metavar="F",
        help="with --run on the CPU: scale the run line's sizes by F (0 < F <= 1): every argument that is a decimal "
        "integer >= 2048 is multiplied by F, keeping its power-of-two alignment up to 1024 (default 1: as written)",
    )
    cpu.add_argument(
        "--cpu",
        action="store_true",
        help="with --setup: clone HIP-CPU from its repository into the cache instead of building a ROCm chroot",
    )
    p.add_argument(
        "--nvidia-build-only",
        action="store_true",
        help="with --run: build original and translation for NVIDIA but do not run (no GPU needed)",
    )
    p.add_argument("--no-amd", action="store_true", help="skip the AMD compile validation (e.g. with --run)")
    p.add_argument(
        "--no-build",
        action="store_true",
        help="do not build programs that have build files (Makefile, CMakeLists.txt) with their translated "
        "build files; only compile each source",
    )
    p.add_argument(
        "--shim",
        action="store_true",
        help="compile each program unmodified, with the include folder `hipify-py shim --include-dir` writes for it "
        "on the include path, instead of translated (no builds)",
    )
    p.add_argument("--only", action="append", metavar="NAME", help="validate only these program names")
    p.add_argument("-v", "--verbose", action="store_true", help="print compiler output of failures")
    return p


def validate_main(argv: list[str] | None = None) -> int:
    """Exit 0 when nothing failed (skips allowed), 1 when a program failed, 2 on usage/setup errors, a toolchain
    that lacks what a program needs among them (that program is not judged)."""
    args = build_parser().parse_args(argv)
    if args.setup and args.cpu:
        from .hipcpu import setup_cpu

        return setup_cpu()
    if args.setup:
        from .rocm_chroot import main_setup

        return main_setup(args.rocm_chroot, args.mirror, not args.no_selftest, args.rocm)
    console = Console(stderr=False, width=None if sys.stdout.isatty() else 220)
    err = Console(stderr=True)
    try:
        programs = discover(args.paths)
    except FileNotFoundError as exc:
        err.print(f"validate: no such path: {exc}")
        return 2
    if args.only:
        programs = [p for p in programs if p.name in set(args.only)]
    if not programs:
        err.print("validate: no programs found")
        return 2
    archs = tuple(args.arch or DEFAULT_ARCHS)
    engines = list(dict.fromkeys(args.engine or ENGINES))

    skipped: list[Result] = []
    if "clang" in engines:
        from ..translation.engines import clang_status

        usable, reason = clang_status()
        if not usable:
            engines.remove("clang")
            skipped += [
                Result(p.name, "clang", a, "-", SKIPPED, f"clang engine unavailable: {reason}")
                for p in programs
                for a in archs
            ]

    toolchains = [] if args.no_amd else detect(args.hipcc, args.rocm_chroot, args.toolchain, args.rocm)
    if not toolchains and not args.no_amd:
        message = no_toolchain_message(args.hipcc, args.rocm_chroot, args.toolchain, args.rocm)
        err.print(f"validate: {message}", markup=False)
        return 2
    systems = set() if args.no_build else {p.build_system for p in programs if p.build_system}
    for tc in toolchains:
        err.print(
            f"validate: {tc.describe()}; archs {' '.join(archs)}; engines {' '.join(engines) or '-'}; "
            f"{len(programs)} programs; -j{args.jobs}"
        )
        _say_what_it_lacks(tc, systems, err)

    t0 = time.perf_counter()
    done = [0]
    total = len(programs) * len(engines) * len(toolchains)

    def progress(task, results):
        done[0] += 1
        p, e, _ = task
        states = "/".join(sorted({r.result for r in results}))
        err.print(f"  [{done[0]}/{total}] {p.name} ({e}): {states}", highlight=False)

    builds: list[BuildOutcome] | None = None if args.no_build or args.shim else []
    results = validate_all(
        programs,
        engines,
        toolchains,
        archs,
        args.jobs,
        args.keep,
        progress,
        builds,
        args.run,
        validate_shim_program if args.shim else None,
    )
    results += skipped if toolchains else []
    elapsed = time.perf_counter() - t0
    order = {p.name: i for i, p in enumerate(programs)}
    results.sort(key=lambda r: (r.toolchain, order.get(r.program, 0), r.engine, r.arch))
    from .report import markdown, render, render_builds, write_json

    if toolchains:
        render(results, console)
    builds = sorted(builds or [], key=lambda b: (b.toolchain, order.get(b.program, 0), b.engine))
    if builds:
        render_builds(builds, console)
    if args.verbose:
        for r in results:
            if r.result == "FAIL" and r.log:
                console.print(f"--- {r.program} / {r.engine} / {r.arch}\n{r.command}\n{r.log[-4000:]}", markup=False)
        for b in builds:
            if not b.built and b.log:
                console.print(f"--- build {b.program} / {b.engine}\n{b.command}\n{b.log[-4000:]}", markup=False)
    if toolchains:
        console.print(f"compile validation: {elapsed:.1f} s")

    run_results: list = []
    if args.run:
        run_results, code = _run(args, programs, engines, console, err)
        if code:
            return code

    if args.markdown and results:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(markdown(results))
    if args.json:
        meta = {
            "toolchains": [tc.describe() for tc in toolchains],
            "archs": list(archs),
            "engines": engines,
            "seconds": round(elapsed, 1),
            "run": [r.to_json() for r in run_results],
            "builds": [b.to_json() for b in builds],
        }
        write_json(args.json, results, meta)
    failed = any(r.result in ("FAIL", "ERROR") for r in results)
    failed = failed or any(r.result in ("MISMATCH", "FAIL", "ERROR") for r in run_results)
    if any(r.runtime != "nvidia" for r in run_results):
        from .cpu_run import counts

        err.print("validate --run (CPU): " + ", ".join(f"{v} {k}" for k, v in counts(run_results).items()))
    failed = failed or any(b.failed for b in builds)  # a link error is a finding
    unjudged = [r.reason for r in results if r.result == NOT_JUDGED] + [b.not_judged for b in builds if b.not_judged]
    for reason in dict.fromkeys(unjudged):  # the toolchain's problem, once per cause, last where it is seen
        count = unjudged.count(reason)
        err.print(f"validate: {count} not judged: {reason}", markup=False, highlight=False)
    return 1 if failed else 2 if unjudged else 0


def _run(
    args: argparse.Namespace, programs: list, engines: list[str], console: Console, err: Console
) -> tuple[list, int]:
    """The --run verdicts: on an NVIDIA GPU where there is one (or --nvidia-build-only), else on the CPU; a usage
    error's exit status where the CPU run cannot start."""
    from .run import gpu_present, run_all

    on_gpu = args.run_on == "nvidia" or args.nvidia_build_only
    if args.run_on == "auto" and not args.nvidia_build_only:
        on_gpu, why = gpu_present()
        if not on_gpu:
            err.print(f"--run: no NVIDIA GPU ({why}): running on the CPU", markup=False)
    if on_gpu:
        return run_all(programs, engines, console, err, build_only=args.nvidia_build_only), 0
    from .cpu_limits import Limits
    from .cpu_run import run_all_cpu
    from .hipcpu import find

    if not 0 < args.run_scale <= 1:
        err.print(f"validate --run: --run-scale must be in (0, 1], not {args.run_scale}", markup=False)
        return [], 2
    hc, why = find(args.hip_cpu)
    if hc is None:
        err.print(f"validate --run: {why}", markup=False)
        return [], 2
    limits = Limits.of_cpu(args.run_timeout)
    return run_all_cpu(programs, engines, hc, console, err, limits, args.keep, args.run_scale), 0


def _say_what_it_lacks(tc: Toolchain, systems: set[str], err: Console) -> None:
    """Before any program is judged: what ``tc`` lacks of what building ``systems`` needs, as its own problem."""
    inventory = probe(tc)
    if inventory.unknown:
        err.print(f"validate: could not ask {tc.describe()} for its tools: {inventory.unknown}", markup=False)
        return
    reason = lacking(tc, dict.fromkeys(part for system in sorted(systems) for part in BUILD_TOOLS[system]))
    if reason:
        err.print(f"validate: {reason}; builds with their own build files are not judged", markup=False)


def main() -> None:  # python -m hipify.validate
    sys.exit(validate_main(sys.argv[1:]))
