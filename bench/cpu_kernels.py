"""bitsandbytes' and ggml's CUDA kernel sources on the CPU through HIP-CPU: translated as ``validate --run-on cpu``
translates (``hipLaunchKernelGGL`` launches, the compatibility header's CPU branch), then, per source, whether it
builds with g++ against HIP-CPU and, where it does not, the first reason in ``validate``'s terms (what HIP-CPU
lacks, :mod:`hipify.validate.cpu_needs`) or the first compiler error (the translation's, or HIP-CPU's own limits).

    python bench/cpu_kernels.py --realcode ../shared/realcode --hip-cpu ../shared/tools/hip-cpu.tar.xz

One compile at a time under ``nice``; each unit is compiled (``-fsyntax-only``) with its project's include folders
and defines. The kernels that build are then driven by tests/cpu_programs/*_kernels (tests/test_cpu_kernels.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from hipify.compat import HEADER_NAME
from hipify.validate.corpus import SOURCE_SUFFIXES, Program
from hipify.validate.cpu_needs import needs_before_build, needs_from_build_log
from hipify.validate.cpu_run import translate_for_cpu
from hipify.validate.hipcpu import HipCpu, find

REPO = Path(__file__).resolve().parents[1]
REALCODE = Path(os.environ.get("HIPIFY_PY_REALCODE", REPO.parent / "shared" / "realcode"))


@dataclass(frozen=True)
class Project:
    """Where a project's kernel sources are in its archive, and how its build compiles them."""

    archive: str
    top: str  # the tree's folder in the archive
    kernels: str  # the folder of the kernel sources, relative to top
    include_dirs: tuple[str, ...]  # relative to top
    defines: tuple[str, ...]


PROJECTS = {
    # One source for CUDA and HIP: the CUDA backend's kernel units (CMakeLists.txt: COMPUTE_BACKEND=cuda).
    "bitsandbytes": Project("bitsandbytes-csrc.tar.xz", "bitsandbytes", "csrc", ("csrc",), ("BUILD_CUDA",)),
    # The CUDA backend as its CMake compiles it (-I. -I.. -I../../include from src/ggml-cuda).
    "ggml": Project("ggml.tar.xz", "ggml", "src/ggml-cuda", ("src/ggml-cuda", "src", "include"), ()),
}


def unpack(archive: Path, into: Path) -> Path:
    """``archive`` unpacked once into ``into`` (a folder named after it)."""
    target = into / archive.name.split(".")[0]
    if not target.is_dir():
        target.mkdir(parents=True)
        with tarfile.open(archive) as tar:
            tar.extractall(target, filter="data")
    return target


def program_of(name: str, project: Project, root: Path) -> Program:
    """The project's sources as one program: every source file translated, its kernel folder's top-level ``.cu``
    files the units."""
    files = tuple(
        p.relative_to(root).as_posix()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.suffix in SOURCE_SUFFIXES and "ggml-cpu" not in p.parts
    )
    units = tuple(p.relative_to(root).as_posix() for p in sorted((root / project.kernels).glob("*.cu")) if p.is_file())
    return Program(name, root, files, units, project.include_dirs, project.defines)


STAND_INS = Path(__file__).resolve().parent / "cpu_kernels" / "standin"


def flags(tree: Path, program: Program, hc: HipCpu, stand_ins: bool) -> list[str]:
    """The include folders, defines and pre-included headers of a build against HIP-CPU: with ``stand_ins``, the
    second pass's declaration-only headers first (bench/cpu_kernels/standin) and its prelude."""
    cmd = ["-std=c++17", "-w", "-pthread"]
    cmd += ["-I", str(STAND_INS)] if stand_ins else []
    cmd += ["-I", str(hc.include())]
    cmd += [f"-I{tree / inc}" for inc in program.include_dirs] + [f"-D{d}" for d in program.defines]
    cmd += ["-include", str(STAND_INS / "prelude.h")] if stand_ins else []
    if (tree / HEADER_NAME).is_file():
        cmd += ["-include", str(tree / HEADER_NAME)]
    return cmd


def compile_unit(
    tree: Path, program: Program, unit: str, hc: HipCpu, limit: int, stand_ins: bool = False
) -> tuple[bool, str]:
    """g++ -fsyntax-only of one translated unit against HIP-CPU: (built, the compiler's log)."""
    cmd = ["nice", "-n", "10", hc.compiler, "-fsyntax-only", *flags(tree, program, hc, stand_ins)]
    cmd += ["-x", "c++", str(tree / unit)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=limit, check=False)
    except subprocess.TimeoutExpired:
        return False, f"compile still running after {limit} s"
    return done.returncode == 0, done.stderr


def first_error(log: str) -> str:
    """The compiler's first error line, its path shortened to the file name."""
    for line in log.splitlines():
        if "error:" in line:
            head, _, rest = line.partition(": error:")
            return f"{Path(head.split(':')[0]).name}:{':'.join(head.split(':')[1:])}: error:{rest}"[:240]
    return log.strip().splitlines()[-1][:240] if log.strip() else "no output"


def unit_texts(tree: Path, program: Program, unit: str) -> dict[str, str]:
    """The translated unit and the project's own headers it can include (the files ``needs_before_build`` reads
    for what HIP-CPU lacks): the unit and every header of the kernel folder and its subfolders."""
    folder = (tree / unit).parent
    paths = [tree / unit] + sorted(p for p in folder.rglob("*") if p.suffix in (".cuh", ".h", ".hpp"))
    return {p.relative_to(tree).as_posix(): p.read_text(encoding="utf-8", errors="replace") for p in paths}


def classify(tree: Path, program: Program, unit: str, hc: HipCpu, limit: int) -> dict[str, object]:
    """One unit's verdict: built, or not built with the first reason; then, where it is not, the same build
    with the stand-ins (what stops it next)."""
    started = time.monotonic()
    built, log = compile_unit(tree, program, unit, hc, limit)
    seconds = round(time.monotonic() - started, 1)
    if built:
        return {"unit": unit, "built": True, "reason": "", "seconds": seconds}
    with_stand_ins, log2 = compile_unit(tree, program, unit, hc, limit, stand_ins=True)
    next_reason = "" if with_stand_ins else first_error(log2)
    header = (tree / HEADER_NAME).read_text(encoding="utf-8") if (tree / HEADER_NAME).is_file() else ""
    needs = needs_from_build_log(log, compat_header=header)
    if needs:
        reason = "needs " + needs[0]
    else:
        before = needs_before_build({unit: (tree / unit).read_text(encoding="utf-8", errors="replace")},
                                    hc.include())  # fmt: skip
        reason = ("needs " + before[0] + "; ") if before else ""
        reason += first_error(log)
    return {"unit": unit, "built": False, "reason": reason, "seconds": seconds,
            "with_stand_ins": with_stand_ins, "next_reason": next_reason}  # fmt: skip


def drive(tree: Path, program: Program, driver: Path, hc: HipCpu, work: Path, limit: int) -> tuple[str, str]:
    """Build ``driver`` (it includes a translated kernel source) with the stand-ins and run it: (PASS/FAIL, its
    output or the build's first error)."""
    exe = work / driver.stem
    cmd = ["nice", "-n", "10", hc.compiler, "-O1", *flags(tree, program, hc, True)]
    # Host functions of the included source that the driver never calls name the rest of the library: their
    # sections are dropped at the link instead of being resolved.
    cmd += ["-ffunction-sections", "-fdata-sections", "-x", "c++", str(driver), "-o", str(exe), "-Wl,--gc-sections"]
    built = subprocess.run([*cmd, *hc.link], capture_output=True, text=True, timeout=limit, check=False)
    if built.returncode != 0:
        return "FAIL", "does not build: " + first_error(built.stderr)
    try:
        ran = subprocess.run(["nice", "-n", "10", str(exe)], capture_output=True, text=True, timeout=limit, check=False)
    except subprocess.TimeoutExpired:
        return "FAIL", f"still running after {limit} s"
    verdict = "PASS" if ran.returncode == 0 and ran.stdout.rstrip().endswith("PASS") else "FAIL"
    return verdict, (ran.stdout + ran.stderr).strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--realcode", type=Path, default=REALCODE, help="the folder of the real-code archives")
    parser.add_argument("--hip-cpu", default=os.environ.get("HIPIFY_HIP_CPU", ""), help="HIP-CPU folder/archive")
    parser.add_argument("--work", type=Path, default=None, help="where to unpack and translate (default: a temp)")
    parser.add_argument("--project", action="append", choices=sorted(PROJECTS), help="default: both")
    parser.add_argument("--only", action="append", default=[], help="units whose name holds this (repeatable)")
    parser.add_argument("--limit", type=int, default=600, help="seconds one compile may take")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    hc, why = find(args.hip_cpu or str(REPO.parent / "shared/tools/hip-cpu.tar.xz"))
    if hc is None:
        print(why, file=sys.stderr)
        return 2
    work = args.work or Path(tempfile.mkdtemp(prefix="hipify-cpu-kernels-"))
    results: dict[str, list[dict[str, object]]] = {}
    for name in args.project or sorted(PROJECTS):
        project = PROJECTS[name]
        root = unpack(args.realcode / project.archive, work / "src") / project.top
        program = program_of(name, project, root)
        tr = translate_for_cpu(program, "regex", work)
        if tr.error:
            print(tr.error, file=sys.stderr)
            return 1
        print(f"{name}: translated into {tr.tree}", flush=True)
        results[name] = []
        for unit in program.sources:
            if args.only and not any(o in unit for o in args.only):
                continue
            verdict = classify(tr.tree, program, unit, hc, args.limit)
            results[name].append(verdict)
            state = "builds" if verdict["built"] else f"not built: {verdict['reason']}"
            if not verdict["built"]:
                after = "builds" if verdict["with_stand_ins"] else f"stops at {verdict['next_reason']}"
                state += f" | with the stand-ins: {after}"
            print(f"  {Path(unit).name}: {state} ({verdict['seconds']} s)", flush=True)
            if args.json:
                args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
        for driver in sorted((STAND_INS.parent).glob(f"{name}_*.cpp")):
            ran, output = drive(tr.tree, program, driver, hc, work, args.limit)
            row: dict[str, object] = {"driver": driver.name, "verdict": ran, "output": output}
            results.setdefault("drivers", []).append(row)
            print(f"  driver {driver.name}: {ran}\n    " + output.replace("\n", "\n    "), flush=True)
            if args.json:
                args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
