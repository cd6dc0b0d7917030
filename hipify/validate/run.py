"""``--run``: on a machine with an NVIDIA GPU and nvcc, build the original with nvcc and the translation through
HIP's NVIDIA backend (patched copy of the headers, see :mod:`.hipnv`), run both and compare their output."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..options import Options
from .corpus import Program
from .hipnv import cache_key, patch_headers
from .runline import RunLine, run_line
from .runner import _TRANSLATE_LOCK, translate_program
from .verdict import judge

MATCH, MISMATCH, FAIL, SKIPPED, BUILT = "MATCH", "MISMATCH", "FAIL", "SKIPPED", "BUILT"
LINK_FLAGS = {
    "cublas": "-lcublas",
    "cublasLt": "-lcublasLt",
    "cufft": "-lcufft",
    "curand": "-lcurand",
    "cusparse": "-lcusparse",
    "nvrtc": "-lnvrtc",
    "cuda": "-lcuda",
}
# HIP libraries that work on NVIDIA from headers alone (over the CUDA library of the original).
HEADER_ONLY_ON_NVIDIA = {"hiprtc"}
NO_NVIDIA_BUILD = {
    "hipblas": "hipBLAS for NVIDIA (libhipblas built over cuBLAS) is not packaged; Debian's libhipblas is an AMD build",
    "hipfft": "hipFFT for NVIDIA (over cuFFT) is not packaged; Debian's is an AMD build",
    "hipsparse": "hipSPARSE for NVIDIA (over cuSPARSE) is not packaged; Debian's libhipsparse links rocSPARSE (AMD only)",
    "hipcub": "hipCUB's CUB backend headers are not packaged for NVIDIA here",
    "hiprand": "hipRAND for NVIDIA needs libhiprand built over cuRAND (host API) or its nvcc device headers",
    "hipblaslt": "hipBLASLt for NVIDIA (over cuBLASLt) is not packaged; Debian's libhipblaslt is an AMD build",
}


@dataclass
class RunResult:
    program: str
    engine: str
    result: str
    reason: str = ""
    original_output: str = ""
    translated_output: str = ""
    expected_output: str = ""
    seconds: float = 0.0
    runtime: str = "nvidia"  # where it ran: "nvidia" (HIP's NVIDIA platform) or the CPU (validate.cpu_run)

    def to_json(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def gpu_present() -> tuple[bool, str]:
    if not shutil.which("nvcc"):
        return False, "nvcc not found"
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False, "nvidia-smi not found (no NVIDIA driver)"
    proc = subprocess.run([smi, "-L"], check=False, capture_output=True, text=True)
    if proc.returncode != 0 or "GPU" not in proc.stdout:
        return False, f"no NVIDIA GPU visible ({(proc.stdout + proc.stderr).strip()[:200]})"
    return True, proc.stdout.strip().splitlines()[0]


def nvcc_version() -> str:
    return (
        subprocess.run(["nvcc", "--version"], check=False, capture_output=True, text=True)
        .stdout.strip()
        .splitlines()[-1]
    )


def patched_headers(cache_root: Path, extra_includes: tuple[str, ...] = ()) -> tuple[Path | None, str]:
    """The patched HIP NVIDIA headers for this nvcc (built once per (headers, nvcc) pair)."""
    src = Path(os.environ.get("HIPIFY_HIP_NVIDIA_INCLUDE", "/usr/include"))
    if not (src / "hip/nvidia_detail").is_dir():
        return (
            None,
            f"HIP's NVIDIA backend headers not found under {src}/hip/nvidia_detail (apt-get install libamdhip64-dev)",
        )
    out = cache_root / f"hipnv-{cache_key(src, nvcc_version())}"
    if (out / "include/.ok").exists():
        return out / "include", ""
    report = patch_headers(src, out, extra_includes=extra_includes)
    if not report.ok:
        return None, "patching HIP's NVIDIA headers failed:\n" + report.log[-2000:]
    (out / "include/.ok").write_text("\n".join(report.edits + ["disabled: " + ", ".join(report.disabled)]) + "\n")
    return out / "include", ""


def _first_errors(log: str, limit: int = 3) -> str:
    """The first error lines of a build log (the tail is mostly notes and include chains)."""
    lines = [
        line.strip()
        for line in log.splitlines()
        if ("error" in line or "cannot find" in line) and "errors detected" not in line
    ]
    return "\n".join(lines[:limit]) or log[-1500:]


def hip_headers_version(include: Path) -> tuple[int, int]:
    """(major, minor) of the HIP headers under ``include`` (hip/hip_version.h), so the translation targets them."""
    try:
        text = (include / "hip/hip_version.h").read_text()
    except OSError:
        return (6, 4)
    major = re.search(r"#define\s+HIP_VERSION_MAJOR\s+(\d+)", text)
    minor = re.search(r"#define\s+HIP_VERSION_MINOR\s+(\d+)", text)
    return (int(major.group(1)), int(minor.group(1))) if major and minor else (6, 4)


def _build(cmd: list[str], timeout: float = 600) -> tuple[bool, str]:
    try:
        proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"timed out: {' '.join(cmd)}"
    return proc.returncode == 0, proc.stdout + proc.stderr


def _execute(exe: str, timeout: float = 300, line: RunLine | None = None, cwd: Path | None = None) -> tuple[int, str]:
    """Run ``exe`` with the arguments of its project's run line (none without one), in ``cwd``."""
    args = list(line.arguments) if line else []
    try:
        proc = subprocess.run([exe, *args], check=False, capture_output=True, text=True, timeout=timeout, cwd=cwd)
        return proc.returncode, proc.stdout
    except subprocess.TimeoutExpired:
        return 124, "(timed out)"


def _run_line(program: Program) -> RunLine | None:
    makefile = program.root / "Makefile"
    return run_line(makefile) if makefile.is_file() else None


def nvcc_flags(program: Program, root: str, build_only: bool = False) -> list[str]:
    # Without a GPU, -arch=native has nothing to detect, and libcuda.so (the driver) may be absent:
    # build for sm_90 and leave driver symbols unresolved (nothing is run).
    flags = ["-std=c++17", "-arch=sm_90" if build_only else "-arch=native", "-O2"]
    if build_only:
        flags += ["-Xlinker", "--unresolved-symbols=ignore-all"]
    for inc in program.include_dirs:
        flags += ["-I", str(Path(root) / inc)]
    flags += [f"-D{d}" for d in program.defines]
    extra = os.environ.get("HIPIFY_CUDA_EXTRA")  # a dir with include/ and lib/ for CUDA libraries from pip wheels
    if extra:
        flags += ["-I", f"{extra}/include", "-L", f"{extra}/lib", f"-Xlinker=-rpath={extra}/lib"]
    return flags


def run_program(
    program: Program,
    engines: list[str],
    work: Path,
    hipnv_include: Path,
    build_only: bool = False,
    hip_source: bool = False,
) -> list[RunResult]:
    """Build (and unless ``build_only``, run) the original and each engine's translation on NVIDIA. With
    ``hip_source`` the program is HIP already (a hand-written port): no CUDA original is built, and its own run is
    judged (passed through the translator, which leaves HIP as it is)."""
    expected = (program.expected_output or "").strip()
    libs = [LINK_FLAGS[lib] for lib in program.cuda_libs if lib in LINK_FLAGS]
    if build_only:  # the driver library ships with the GPU driver; nothing is run, so leave it out
        libs = [flag for flag in libs if flag != "-lcuda"]
    orig_exe = work / f"{program.name}.orig"
    t0 = time.perf_counter()
    if hip_source:
        return _run_translations(program, engines, work, hipnv_include, build_only, libs, "", t0)
    ok, log = _build(
        [
            "nvcc",
            *nvcc_flags(program, str(program.root), build_only),
            *[str(program.root / s) for s in program.sources],
            "-o",
            str(orig_exe),
            *libs,
        ]
    )
    if not ok:
        return [
            RunResult(program.name, e, FAIL, "original does not build with nvcc:\n" + _first_errors(log))
            for e in engines
        ]
    line = _run_line(program)
    rc, orig_out = (0, expected) if build_only else _execute(str(orig_exe), line=line, cwd=program.root)
    orig_out = orig_out.strip()
    # Without a reference output (a project's own program), the original's exit status and verdict judge it.
    original_ok = judge(rc, orig_out, None)[0] if program.expected_output is None else orig_out == expected
    if rc != 0 or not original_ok:
        return [
            RunResult(
                program.name,
                e,
                FAIL,
                f"original exited {rc} / output differs from expected_output.txt",
                orig_out,
                "",
                expected,
            )
            for e in engines
        ]
    return _run_translations(program, engines, work, hipnv_include, build_only, libs, orig_out, t0)


def _run_translations(
    program: Program,
    engines: list[str],
    work: Path,
    hipnv_include: Path,
    build_only: bool,
    libs: list[str],
    orig_out: str,
    t0: float,
) -> list[RunResult]:
    expected = (program.expected_output or "").strip()
    line = _run_line(program)
    # hipRAND's device API is header-only on NVIDIA (over cuRAND's); its host API needs a library.
    blocked = [
        lib
        for lib in program.hip_libs
        if lib not in HEADER_ONLY_ON_NVIDIA and not (lib == "hiprand" and "curand" not in program.cuda_libs)
    ]
    results = []
    for engine in engines:
        if blocked:
            results.append(
                RunResult(
                    program.name,
                    engine,
                    SKIPPED,
                    "; ".join(NO_NVIDIA_BUILD.get(b, b) for b in blocked),
                    orig_out,
                    "",
                    expected,
                )
            )
            continue
        with _TRANSLATE_LOCK:
            tr = translate_program(program, engine, str(work), Options(rocm_version=hip_headers_version(hipnv_include)))
        exe = work / f"{program.name}.{engine}"
        # Debian installs hipRAND only as include/hiprand/; ROCm 5.x also had flat include/hiprand*.h.
        flat = ["-isystem", str(hipnv_include / "hiprand")] if (hipnv_include / "hiprand").is_dir() else []
        cmd = [
            "nvcc",
            "-x",
            "cu",
            "-D__HIP_PLATFORM_NVIDIA__",
            "-I",
            str(hipnv_include),
            *flat,
            "-diag-suppress",
            "2810,940,1444",
            *nvcc_flags(program, str(tr.tree), build_only),
            *[str(tr.tree / s) for s in program.sources],
            "-o",
            str(exe),
            *libs,
        ]
        ok, log = _build(cmd)
        if not ok:
            results.append(
                RunResult(
                    program.name,
                    engine,
                    FAIL,
                    "translation does not build for NVIDIA:\n" + _first_errors(log),
                    orig_out,
                    "",
                    expected,
                    time.perf_counter() - t0,
                )
            )
            continue
        if build_only:
            results.append(
                RunResult(
                    program.name,
                    engine,
                    BUILT,
                    "built original and translation (not run)",
                    orig_out,
                    "",
                    expected,
                    time.perf_counter() - t0,
                )
            )
            continue
        rc, out = _execute(str(exe), line=line, cwd=tr.tree)
        out = out.strip()
        if program.expected_output is None:  # outputs hold timings: the exit status and the program's verdict
            passed, why = judge(rc, out, None)
        else:
            passed, why = rc == 0 and out == expected and orig_out in ("", expected), f"exit {rc}"
        verdict = MATCH if passed else MISMATCH
        results.append(
            RunResult(
                program.name,
                engine,
                verdict,
                "" if verdict == MATCH else why,
                orig_out,
                out,
                expected,
                time.perf_counter() - t0,
            )
        )
    return results


def run_all(
    programs: list[Program], engines: list[str], console: Console, err: Console, build_only: bool = False
) -> list[RunResult]:
    present, why = gpu_present()
    if build_only and shutil.which("nvcc"):
        present = True
    if not present:
        err.print(f"--run: skipped: {why}")
        return [RunResult(p.name, e, SKIPPED, why) for p in programs for e in engines]
    work = Path(tempfile.mkdtemp(prefix="hipify-run-"))
    extra = os.environ.get("HIPIFY_CUDA_EXTRA")
    inc, why = patched_headers(
        Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "hipify-py",
        (f"{extra}/include",) if extra else (),
    )
    if inc is None:
        err.print(f"--run: {why}")
        return [RunResult(p.name, e, FAIL, why) for p in programs for e in engines]
    results: list[RunResult] = []
    for p in programs:
        rs = run_program(p, engines, work, inc, build_only)
        for r in rs:
            err.print(f"  run {r.program} ({r.engine}): {r.result}", highlight=False)
        results += rs
    title = "build on NVIDIA" if build_only else "run on NVIDIA: original (nvcc) vs translation (HIP on NVIDIA)"
    table = Table(title=title)
    for col in ("program", "engine", "result", "output / reason"):
        table.add_column(col, overflow="fold")
    for r in results:
        table.add_row(r.program, r.engine, r.result, r.translated_output or r.reason[:300])
    console.print(table)
    shutil.rmtree(work, ignore_errors=True)
    return results
