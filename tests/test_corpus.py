"""The validation corpus: every program is complete (sources, corpus.json, expected output), and where nvcc
is installed, every original compiles (host and sm_90 device code) and its CPU reference (built with
-DCORPUS_REFERENCE_ONLY, which needs no GPU) prints exactly expected_output.txt."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hipify.validate.corpus import Program, default_corpus_dir, discover

CORPUS = default_corpus_dir()
PROGRAMS = discover()
NAMES = [p.name for p in PROGRAMS]
LINE = re.compile(r"^(?P<name>[a-z0-9_]+): PASS checksum=\S+$")
REQUIRED_TOPICS = {
    "memory_basic",
    "managed_memory",
    "pitched_2d_3d",
    "shared_tile_transpose",
    "dynamic_shared_scan",
    "warp_shuffle_reduce",
    "atomics_histogram",
    "streams_events",
    "async_copy",
    "constant_symbol",
    "texture_object",
    "surface_object",
    "cooperative_groups",
    "graph_capture",
    "graph_explicit",
    "half_bf16",
    "math_intrinsics",
    "templates_namespaces",
    "error_macros",
    "driver_api",
    "nvrtc_module",
    "curand_host",
    "curand_device",
    "cublas_gemm",
    "cufft_transform",
    "cusparse_spmv",
    "cub_primitives",
    "multifile",
    "compat_features",
    "cg_scan_partition",
    "tiered_backend",
    "half_intrinsics",
    "cuda_only_cmake",
    "host_objects_make",
    "fatbin_module",
    "bf16_host_make",
    "own_names",
}


def test_corpus_size_and_topics() -> None:
    assert len(PROGRAMS) >= 26
    assert set(NAMES) >= REQUIRED_TOPICS


@pytest.mark.parametrize("program", PROGRAMS, ids=NAMES)
def test_program_is_complete(program: Program) -> None:
    meta = json.loads((program.root / "corpus.json").read_text())
    assert meta["covers"], "corpus.json must say what the program covers"
    assert program.sources and all((program.root / s).is_file() for s in program.sources)
    if "sources" not in meta:  # a program of one file is named after it (a host program's main file: .cpp)
        assert any((program.root / f"{program.name}{suffix}").is_file() for suffix in (".cu", ".cpp"))
    expected = (program.root / "expected_output.txt").read_text()
    assert expected.endswith("\n") and expected.count("\n") == 1, "one checksum line"
    m = LINE.match(expected.strip())
    assert m and m.group("name") == program.name, expected
    main = "\n".join((program.root / s).read_text() for s in program.sources)
    assert "CORPUS_REFERENCE_ONLY" in main, "the CPU reference mode makes expected_output.txt reproducible"


def test_readme_lists_every_program() -> None:
    readme = (CORPUS / "README.md").read_text()
    for name in NAMES:
        assert f"`{name}`" in readme


def _cuda_extra_includes() -> list[str]:
    """CUDA library headers that are not in the toolkit (cuBLAS, cuFFT, ... from pip wheels)."""
    dirs = []
    extra = os.environ.get("HIPIFY_CUDA_EXTRA")
    if extra:
        dirs.append(f"{extra}/include")
    # The table generator's header cache (python -m hipify.tablegen fetch --only wheels) holds them too; its
    # runtime and crt folders are the toolkit's own headers (another release), which must not shadow them.
    cache = Path(os.environ.get("HIPIFY_HEADER_CACHE", "~/.cache/hipify-py/headers")).expanduser() / "cuda" / "cu13"
    dirs += [str(p) for p in sorted(cache.glob("*")) if p.is_dir() and p.name not in ("toolkit", "cuda_runtime", "crt")]
    try:
        import nvidia  # type: ignore[import-not-found]

        for base in getattr(nvidia, "__path__", []):
            dirs += [str(p) for p in Path(base).glob("*/include")]
    except ImportError:
        pass
    return dirs


MISSING_HEADER = re.compile(
    r"fatal error: (?:cannot open source file \"|)([\w/.]+\.(?:h|hpp|cuh))\"?[:]? "
    r"|fatal error: ([\w/.]+\.(?:h|hpp|cuh)): No such file"
)


def _reference_build(program: Program, out_dir: str) -> tuple[str, str]:
    """('ok', stdout) | ('skip', reason) | ('fail', log)."""
    exe = str(Path(out_dir) / program.name)
    cmd = ["nvcc", "-arch=sm_90", "-std=c++17", "-DCORPUS_REFERENCE_ONLY", "-w"]
    for inc in program.include_dirs:
        cmd += ["-I", str(program.root / inc)]
    cmd += [f"-D{d}" for d in program.defines]
    for inc in _cuda_extra_includes():
        cmd += ["-I", inc]
    # The reference never calls CUDA libraries; leave their symbols unresolved so that no
    # library (libcuda, cuBLAS, ...) is needed at link time. Not position-independent: a PIE's
    # call from one object to an unresolved function of another is a relocation the loader refuses.
    cmd += [str(program.root / s) for s in program.sources]
    cmd += ["-o", exe, "-Xlinker", "--unresolved-symbols=ignore-all", "-Xcompiler", "-no-pie", "-Xlinker", "-no-pie"]
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=600)
    log = proc.stdout + proc.stderr
    if proc.returncode != 0:
        m = MISSING_HEADER.search(log)
        if m:
            header = m.group(1) or m.group(2)
            return "skip", (
                f"{header} is not installed (CUDA library headers: pip install the nvidia-* wheel "
                f"and set HIPIFY_CUDA_EXTRA=<dir with include/>)"
            )
        return "fail", " ".join(cmd) + "\n" + log[-4000:]
    run = subprocess.run([exe], check=False, capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        return "fail", f"reference exited {run.returncode}: {run.stdout}{run.stderr}"
    return "ok", run.stdout


@pytest.fixture(scope="session")
def reference_runs() -> dict[str, tuple[str, str]]:
    if not shutil.which("nvcc"):
        pytest.skip("nvcc not installed")
    out = tempfile.mkdtemp(prefix="hipify-corpus-")
    try:
        with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
            results = dict(zip(NAMES, pool.map(lambda p: _reference_build(p, out), PROGRAMS), strict=True))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return results


@pytest.mark.nvcc
@pytest.mark.parametrize("program", PROGRAMS, ids=NAMES)
def test_original_compiles_and_reference_matches(program: Program, reference_runs) -> None:  # type: ignore[no-untyped-def]
    state, text = reference_runs[program.name]
    if state == "skip":
        pytest.skip(text)
    assert state == "ok", text
    assert text == (program.root / "expected_output.txt").read_text()
