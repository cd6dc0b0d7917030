"""hipify-py shim: the single-source header and include folder, planned from the project's own translation, and the
drift check; compiled with ROCm's hipcc where it is installed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RocmCompiler

from hipify.cli.cli import main
from hipify.knowledge.table import load_table
from hipify.options import Options
from hipify.rewrite.build_target import NEWEST
from hipify.rewrite.status import decide
from hipify.shim import PRE_INCLUDED, SHIM_HEADER, plan_shim, render_header, render_include_dir
from hipify.shim.definitions import ADAPTED_CALL, COMPILER, GUARD, MACRO_CALL, REMOVED, RENAME, definition_for

ROOT = Path(__file__).resolve().parents[1]

KERNELS = """\
#include <cuda_runtime.h>
#include <cstdio>

#define FULL 0xffffffff
__constant__ float scale[4];

template <class T, int N>
__global__ void fill(T* out) {
  T v = out[threadIdx.x] * scale[0];
  v += __shfl_down_sync(FULL, v, 1);
  out[threadIdx.x] = v + N;
}

void run(float* d, cudaStream_t stream) {
  float h[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(scale, h, sizeof h);
  cudaFuncSetAttribute(fill<float, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
  void* args[] = {&d};
  cudaLaunchKernel((const void*)fill<float, 2>, dim3(1), dim3(32), args, 0, 0);
  cudaEvent_t e;
  cudaEventCreate(&e, cudaEventDisableTiming);
  fill<float, 1><<<1, 32, 0, stream>>>(d);
  if (cudaGetLastError() != cudaSuccess) std::printf("%s\\n", cudaGetErrorString(cudaGetLastError()));
}
"""

MAIN = """\
// No CUDA include: nvcc includes cuda_runtime.h before the first line.
void run(float* d, cudaStream_t stream);

int main() {
  float* d = nullptr;
  cudaMalloc(&d, 32 * sizeof(float));
  // CUDA's typed-pointer overloads: HIP has the same templates
  float *h = nullptr, *m = nullptr, *p2 = nullptr, *a = nullptr, *pinned = nullptr;
  size_t pitch = 0;
  cudaMallocHost(&h, 64);
  cudaHostAlloc(&pinned, 64, cudaHostAllocDefault);
  cudaMallocManaged(&m, 64);
  cudaMallocPitch(&p2, &pitch, 64, 4);
  cudaMallocAsync(&a, 64, 0);
  register int unused = 0;
  run(d, 0);
  cudaDeviceSynchronize();
  cudaFree(d);
  return unused;
}
"""


def _project(tmp_path: Path) -> Path:
    src = tmp_path / "proj" / "src"
    src.mkdir(parents=True)
    (src / "kernels.cu").write_text(KERNELS)
    (src / "main.cu").write_text(MAIN)
    return tmp_path / "proj"


def _texts(root: Path) -> dict[str, str]:
    return {str(p): p.read_text() for p in sorted(root.rglob("*.cu"))}


def _sources(root: Path, files: dict[str, str]) -> dict[str, str]:
    """Write ``files`` (name -> text) under ``root``; each one's path -> its text, as the command reads them."""
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / name).write_text(text)
    return {str(root / name): text for name, text in files.items()}


# --- definitions, one form per kind of row ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "section", "expected"),
    [
        ("cudaMalloc", RENAME, "#define cudaMalloc hipMalloc"),
        ("CUDART_CB", REMOVED, "#define CUDART_CB"),
        (
            "cudaMemcpyToSymbol",
            MACRO_CALL,
            "#define cudaMemcpyToSymbol(a0, ...) hipMemcpyToSymbol(HIP_SYMBOL(a0), ##__VA_ARGS__)",
        ),
        ("cudaMemcpyFromSymbol", MACRO_CALL, "(a0, a1, ...) hipMemcpyFromSymbol(a0, HIP_SYMBOL(a1), ##__VA_ARGS__)"),
        ("cudaFuncSetAttribute", ADAPTED_CALL, "::hipify_shim::converting<0>(&hipFuncSetAttribute)"),
        ("cudaEventCreate", ADAPTED_CALL, "::hipify_shim::overloads(&hipEventCreate, &hipEventCreateWithFlags)"),
        # CUDA 13 redeclared it (a location for the device number): both forms, each call's arguments choose
        ("cudaMemAdvise", ADAPTED_CALL, "::hipify_shim::overloads(&hipMemAdvise_v2, &hipMemAdvise)"),
        ("__CUDA_RUNTIME_H__", GUARD, "#define __CUDA_RUNTIME_H__"),
        ("__CUDACC__", COMPILER, "#if defined(__HIPCC__) && !defined(__CUDACC__)\n#define __CUDACC__ __HIPCC__"),
        ("CUDART_VERSION", COMPILER, "#define CUDART_VERSION 13050"),
        ("__CUDA_ARCH__", COMPILER, "#if defined(__HIP_DEVICE_COMPILE__)\n#define __CUDA_ARCH__ 800\n#endif"),
    ],
)
def test_each_kind_of_row_has_its_form(name: str, section: str, expected: str) -> None:
    row = load_table().lookup(name)
    assert row is not None
    definition = definition_for(row, decide(row, Options()))
    assert definition is not None and definition.section == section
    assert expected in definition.text


def test_a_release_with_only_the_older_declaration_renames_to_it() -> None:
    row = load_table().lookup("cudaMemAdvise")
    assert row is not None
    options = Options(rocm_version=(6, 4))
    definition = definition_for(row.at("6.4"), decide(row.at("6.4"), options))
    assert definition is not None and definition.text == "#define cudaMemAdvise hipMemAdvise"


def test_names_hip_spells_alike_or_lacks_get_no_definition() -> None:
    table = load_table()
    for name in ("__syncthreads", "cudaArrayGetPlane"):
        row = table.lookup(name)
        assert row is not None
        assert definition_for(row, decide(row, Options())) is None, name


# --- the plan and the header ---------------------------------------------------------------------------------


def test_header_defines_only_what_the_project_uses(tmp_path: Path) -> None:
    texts = _texts(_project(tmp_path))
    plan = plan_shim(texts)
    names = {d.name for d in plan.definitions}
    assert {"cudaMalloc", "cudaFree", "cudaStream_t", "cudaMemcpyToSymbol", "cudaEventCreate"} <= names
    assert "cudaMemcpy" not in names and "cudaMemset" not in names
    header = render_header(plan, "hip_shim.h")
    assert header.count("#ifndef HIPIFY_SHIM_HIP_SHIM_H") == 1 and "#endif  // HIPIFY_SHIM_HIP_SHIM_H" in header
    assert "#include <hip/hip_runtime.h>  // cuda_runtime.h" in header
    assert "#define HIP_ENABLE_WARP_SYNC_BUILTINS" not in header  # ROCm 7 declares the warp-sync builtins by default
    on_6_4 = render_header(plan_shim(texts, Options(rocm_version=(6, 4))), "hip_shim.h")
    assert "HIP_ENABLE_WARP_SYNC_BUILTINS" in on_6_4.split("#include <hip/hip_runtime.h>")[0]  # before the HIP headers
    assert "warp_sync_32bit_masks" in plan.compat_entries  # the literal mask: widened where it is passed
    assert '#pragma clang diagnostic ignored "-Wregister"' in header
    assert plan.findings == ()


def test_header_is_byte_identical_run_to_run_and_whatever_the_file_order(tmp_path: Path) -> None:
    texts = _texts(_project(tmp_path))
    first = render_header(plan_shim(texts), "hip_shim.h")
    assert render_header(plan_shim(texts), "hip_shim.h") == first
    assert render_header(plan_shim(dict(reversed(list(texts.items())))), "hip_shim.h") == first
    assert render_include_dir(plan_shim(texts)) == render_include_dir(plan_shim(texts))


def test_include_dir_has_a_header_per_cuda_header_and_the_pre_include(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "src" / "reduce.cu").write_text(
        "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n#include <cub/cub.cuh>\n"
        "namespace cg = cooperative_groups;\n"
        "__global__ void k(int* o) { auto t = cg::tiled_partition<32>(cg::this_thread_block());\n"
        "  *o = cg::reduce(t, 1, cg::plus<int>()); typedef cub::BlockReduce<int, 64> R; }\n"
    )
    files = render_include_dir(plan_shim(_texts(root)))
    assert {SHIM_HEADER, PRE_INCLUDED, "cuda_runtime.h", "cooperative_groups.h", "cub/cub.cuh"} <= set(files)
    assert '#include "../hipify_shim.h"' in files["cooperative_groups/reduce.h"]
    assert "#include <hipcub/hipcub.hpp>" in files["cub/cub.cuh"]
    assert "namespace hipcub {} namespace cub = hipcub;" in files[SHIM_HEADER]
    assert "cg_reduce" in files[SHIM_HEADER]  # the compatibility entry standing for reduce.h
    assert files[PRE_INCLUDED].startswith("// ") and f"#include_next <{PRE_INCLUDED}>" in files[PRE_INCLUDED]


def test_the_target_rocm_is_honoured(tmp_path: Path) -> None:
    """ROCm before 6.0 had flat library headers; before 6.2 the warp-sync builtins needed no macro."""
    source = "#include <cublas_v2.h>\n__global__ void k(int* p) { *p = __shfl_sync(0xffffffffu, *p, 0); }\n"
    texts = _sources(tmp_path / "p", {"a.cu": source})
    old = render_header(plan_shim(texts, Options(rocm_version=(5, 7))), "s.h")
    new = render_header(plan_shim(texts, Options(rocm_version=(6, 4))), "s.h")
    assert "#include <hipblas.h>  // cublas_v2.h" in old and "for ROCm 5.7" in old
    assert "#include <hipblas/hipblas.h>  // cublas_v2.h" in new and "for ROCm 6.4" in new
    assert "HIP_ENABLE_WARP_SYNC_BUILTINS" not in old and "HIP_ENABLE_WARP_SYNC_BUILTINS" in new


def test_what_no_header_can_stand_for_is_named_at_its_place(tmp_path: Path) -> None:
    source = (
        "#include <cuda_runtime.h>\n"
        "__global__ void k(float* p) {\n"
        '  asm volatile("mov.u32 %0, %%smid;" : "=r"(*(unsigned*)p));\n'
        "}\n"
        "__device__ float atomicMin(float* a, float v) { return v; }\n"
        "void f(cudaArray_t a) { cudaArrayGetPlane(0, a, 0); }\n"
    )
    plan = plan_shim(_sources(tmp_path / "p", {"a.cu": source}))
    found = {(d.code, d.line) for d in plan.findings}
    assert ("HPY117", 3) in found  # inline PTX
    # a definition HIP's headers have: the translation disables it; the header renames the name instead
    assert not [d for d in plan.findings if d.line == 5] and plan.redefined == ("atomicMin",)
    # an API HIP lacks: the translation leaves its statement out, which a header cannot do
    assert ("HPY122", 6) in found
    assert any("cudaArrayGetPlane" in d.message for d in plan.findings if d.line == 6)
    assert all(d.path.endswith("a.cu") for d in plan.findings)


def test_an_enumeration_hip_lacks_is_declared_for_helpers_passing_it_along(tmp_path: Path) -> None:
    utils = (
        "#include <cuda_runtime.h>\n"
        "size_t workspace(int n, cudaEmulationMantissaControl c) {\n"
        "  return c == CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC ? 2 * n : n;\n}\n"
    )
    plan = plan_shim(
        _sources(tmp_path / "p", {"utils.h": utils, "a.cu": '#include "utils.h"\nint main() { return 0; }\n'})
    )
    placeholder = next(d for d in plan.definitions if d.name == "cudaEmulationMantissaControl")
    assert placeholder.text.startswith("enum cudaEmulationMantissaControl {")
    assert "CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC" in placeholder.text
    assert not [d for d in plan.findings if d.severity.value == "warning"]  # the helper compiles: nothing to name


def test_nvcc_macros_take_the_build_the_translation_chose(tmp_path: Path) -> None:
    """A current CUDA would take a branch using what HIP lacks (``__nv_atomic_load_n`` after CUDA 12.8): the
    translation decides the file as an older CUDA, whose branch HIP compiles, and the header defines the macro as that
    build has it; with no such condition, the newest."""
    source = (
        "#include <cuda.h>\n"
        "__device__ unsigned load(unsigned* p) {\n"
        "#if CUDA_VERSION >= 12080\n  return __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED);\n"
        "#else\n  return *p;\n#endif\n}\n"
    )
    plan = plan_shim(_sources(tmp_path / "p", {"a.cu": source}))
    (version,) = [d for d in plan.definitions if d.name == "CUDA_VERSION"]
    assert int(version.target) < 12080
    other = "#include <cuda.h>\n#if CUDA_VERSION < 9000\n#define OLD 1\n#endif\n"
    (newest,) = [
        d for d in plan_shim(_sources(tmp_path / "q", {"a.cu": other})).definitions if d.name == "CUDA_VERSION"
    ]
    assert int(newest.target) == NEWEST.assumed("CUDA_VERSION").host


def test_names_the_project_declares_itself_are_left_to_it(tmp_path: Path) -> None:
    source = (
        "#include <cuda_runtime.h>\n"
        "cudaError_t cudaMallocHost(float** p, size_t n) { return cudaMalloc(p, n); }\n"
        "int main() { float* p; cudaMallocHost(&p, 4); }\n"
    )
    plan = plan_shim(_sources(tmp_path / "p", {"a.cu": source}))
    assert "cudaMallocHost" in plan.own_names
    assert "cudaMallocHost" not in {d.name for d in plan.definitions}


def test_a_hand_written_alias_of_the_hip_name_is_no_declaration_of_the_projects(tmp_path: Path) -> None:
    """A single-source project's own header (what this one replaces) names HIP's type by CUDA's name in its HIP
    branch: the CUDA branch still needs the header's definition."""
    types = (
        "#ifndef USE_ROCM\n#include <cuda_bf16.h>\n#else\n#include <hip/hip_bf16.h>\n"
        "typedef __hip_bfloat162 __nv_bfloat162;\n#endif\nstruct pair4 { __nv_bfloat162 x, y; };\n"
    )
    kernel = '#include "types.cuh"\n__global__ void k(pair4* p) {}\n'
    plan = plan_shim(_sources(tmp_path / "p", {"types.cuh": types, "a.cu": kernel}))
    assert "__nv_bfloat162" not in plan.own_names
    assert "#define __nv_bfloat162 __hip_bfloat162" in {d.text for d in plan.definitions}


# --- the command line --------------------------------------------------------------------------------------


def test_check_fails_on_a_new_api_names_it_and_passes_after_the_printed_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    header = "proj/include/hip_shim.h"
    assert main(["shim", "proj/src", "-o", header]) == 0
    first = (tmp_path / header).read_bytes()
    assert main(["shim", "proj/src", "-o", header]) == 0
    assert (tmp_path / header).read_bytes() == first  # byte-identical run to run
    assert main(["shim", "proj/src", "-o", header, "--check"]) == 0
    capsys.readouterr()

    kernels = root / "src" / "kernels.cu"
    kernels.write_text(kernels.read_text() + "\nvoid prefetch(float* d) { cudaMemPrefetchAsync(d, 4, 0, 0); }\n")
    assert main(["shim", "proj/src", "-o", header, "--check"]) == 1
    err = capsys.readouterr().err
    line = kernels.read_text().splitlines().index("void prefetch(float* d) { cudaMemPrefetchAsync(d, 4, 0, 0); }") + 1
    assert (
        f"proj/src/kernels.cu:{line}:27: error: cudaMemPrefetchAsync is used, but the header does not cover it [HPY123]"
        in err
    )
    fix = re.search(r"fix: (.*)$", err, re.MULTILINE)
    assert fix is not None and "--check" not in fix.group(1)
    argv = fix.group(1).split()
    assert argv[:2] == ["hipify-py", "shim"]
    assert main(argv[1:]) == 0
    assert "#define cudaMemPrefetchAsync hipMemPrefetchAsync" in (tmp_path / header).read_text()
    assert main(["shim", "proj/src", "-o", header, "--check"]) == 0


def test_check_names_a_name_covered_otherwise_and_one_no_longer_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    header = tmp_path / "hip_shim.h"
    assert main(["shim", "proj/src", "-o", "hip_shim.h"]) == 0
    text = header.read_text().replace("#define cudaFree hipFree", "#define cudaFree hipFreeHost")
    header.write_text(
        text.replace("#define cudaMalloc hipMalloc", "#define cudaMalloc hipMalloc\n#define cudaMemset hipMemset")
    )
    capsys.readouterr()
    assert main(["shim", "proj/src", "-o", "hip_shim.h", "--check"]) == 1
    err = capsys.readouterr().err
    assert "cudaFree: error: the header covers it otherwise than the table now says [HPY123]" in err
    assert "cudaMemset: note: the header covers it, but no source uses it any more [HPY123]" in err
    assert "fix: hipify-py shim proj/src -o hip_shim.h" in err


def test_a_header_the_project_includes_is_no_source_of_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "p"
    src.mkdir()
    (src / "common.cuh").write_text(
        '#if defined(USE_HIP)\n#include "hip_shim.h"\n#else\n#include <cuda_runtime.h>\n#endif\n'
    )
    (src / "a.cu").write_text('#include "common.cuh"\nint main() { cudaDeviceReset(); cudaFree(0); }\n')
    monkeypatch.chdir(tmp_path)
    assert main(["shim", "p", "-o", "p/hip_shim.h"]) == 0
    assert "#define cudaDeviceReset hipDeviceReset" in (src / "hip_shim.h").read_text()
    (src / "a.cu").write_text('#include "common.cuh"\nint main() { cudaFree(0); }\n')
    assert main(["shim", "p", "-o", "p/hip_shim.h"]) == 0
    assert "cudaDeviceReset" not in (src / "hip_shim.h").read_text()  # what the old header defined is no use


def test_include_dir_check_and_stale_headers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    (root / "src" / "blas.cu").write_text("#include <cublas_v2.h>\nvoid f() { cublasHandle_t h; cublasCreate(&h); }\n")
    assert main(["shim", "proj", "--include-dir", "proj/hip-include"]) == 0
    folder = root / "hip-include"
    assert (folder / "cublas_v2.h").is_file() and (folder / "cuda_runtime.h").is_file()
    assert main(["shim", "proj", "--include-dir", "proj/hip-include", "--check"]) == 0  # its own output is no input
    (root / "src" / "blas.cu").unlink()
    assert main(["shim", "proj", "--include-dir", "proj/hip-include", "--check"]) == 1
    (folder / "mine.h").write_text("// the user's own\n")
    assert main(["shim", "proj", "--include-dir", "proj/hip-include"]) == 0
    assert not (folder / "cublas_v2.h").exists()  # ours, no longer needed
    assert (folder / "mine.h").is_file()  # not ours: never touched


def test_report_lists_the_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "p"
    src.mkdir()
    (src / "a.cu").write_text("#include <cuda_runtime.h>\nvoid f(cudaArray_t a) { cudaArrayGetPlane(0, a, 0); }\n")
    monkeypatch.chdir(tmp_path)
    assert main(["shim", "p", "-o", "shim.h", "--report", "r.json"]) == 0
    report = (tmp_path / "r.json").read_text()
    assert "cudaArrayGetPlane" in report and "HPY122" in report  # its statement needs a HIP branch


def test_precommit_hook_fails_on_drift_and_passes_once_the_header_is_written_again(tmp_path: Path) -> None:
    from test_precommit import _head, _user_repo

    rev = _head()
    repo, run = _user_repo(tmp_path)
    (repo / "src").mkdir()
    (repo / "src" / "k.cu").write_text("__global__ void k() {}\nint main() { cudaDeviceSynchronize(); }\n")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {ROOT}\n  rev: {rev}\n  hooks:\n  - id: hipify-py-shim-check\n"
        "    args: [src, -o, include/hip_shim.h]\n"
    )
    write = run(sys.executable, "-m", "hipify", "shim", "src", "-o", "include/hip_shim.h")
    assert write.returncode == 0, write.stdout + write.stderr
    run("git", "add", "-A")
    clean = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert clean.returncode == 0, clean.stdout + clean.stderr

    (repo / "src" / "k.cu").write_text("__global__ void k() {}\nint main() { cudaDeviceReset(); }\n")
    run("git", "add", "-A")
    drift = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert drift.returncode == 1, drift.stdout + drift.stderr
    assert "src/k.cu:2:14: error: cudaDeviceReset is used, but the header does not cover it [HPY123]" in drift.stdout
    assert "fix: hipify-py shim src -o include/hip_shim.h" in drift.stdout
    fixed = run(sys.executable, "-m", "hipify", "shim", "src", "-o", "include/hip_shim.h")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    run("git", "add", "-A")
    again = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert again.returncode == 0, again.stdout + again.stderr


# --- compiled with ROCm's hipcc ------------------------------------------------------------------------------


@pytest.mark.hipcc
@pytest.mark.parametrize("arch", ["gfx90a", "gfx1030"])
def test_unmodified_project_compiles_with_the_include_dir(tmp_path: Path, rocm: RocmCompiler, arch: str) -> None:
    """The project as written (no CUDA include in main.cu, `register`, a template kernel with commas in an adapted
    call, a stream passed as 0, a 32-bit mask) compiles with `hipcc -I DIR` for both wavefront sizes."""
    root = rocm.work / "proj"
    shutil.copytree(_project(tmp_path), root)
    folder = root / "hip-include"
    for relative, text in render_include_dir(plan_shim(_texts(root / "src"))).items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text)
    tc = rocm.toolchain
    for source in ("kernels.cu", "main.cu"):
        cmd = [*tc.hipcc, f"--offload-arch={arch}", "-std=c++17", "-I", tc.inner_path(str(folder)), "-x", "hip"]
        cmd += ["-c", tc.inner_path(str(root / "src" / source)), "-o", "/dev/null"]
        proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **tc.env}, timeout=900)
        assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.hipcc
def test_single_header_in_place_of_the_cuda_includes_compiles(rocm: RocmCompiler) -> None:
    """The -o header where the project already picks its includes per vendor (its own common header)."""
    src = rocm.work / "single" / "src"
    src.mkdir(parents=True)
    (src / "common.cuh").write_text(
        '#pragma once\n#if defined(USE_HIP)\n#include "hip_shim.h"\n#else\n#include <cuda_runtime.h>\n'
        "#include <cublas_v2.h>\n#endif\n"
    )
    (src / "gemm.cu").write_text(
        '#include "common.cuh"\nint main() {\n  cublasHandle_t h;\n  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;\n'
        "  float *a; cudaMalloc(&a, 16); float one = 1;\n"
        "  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, 2, 2, 2, &one, a, 2, a, 2, &one, a, 2);\n"
        "  cublasDestroy(h);\n  return cudaFree(a) != cudaSuccess;\n}\n"
    )
    texts = {str(p): p.read_text() for p in src.iterdir()}
    (src / "hip_shim.h").write_text(render_header(plan_shim(texts), "hip_shim.h"))
    tc = rocm.toolchain
    cmd = [*tc.hipcc, "--offload-arch=gfx90a", "-std=c++17", "-DUSE_HIP", "-x", "hip", "-c"]
    cmd += [tc.inner_path(str(src / "gemm.cu")), "-o", "/dev/null"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **tc.env}, timeout=900)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]


NVCC_MACROS = """\
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif
#if CUDART_VERSION < 9000 || __CUDACC_VER_MAJOR__ < 11
#error "the branch for an old CUDA"
#endif

void host_log(int) {}
HD inline int twice(int v) {
#ifdef __CUDA_ARCH__
  return 2 * v;  // the device pass
#else
  host_log(v);  // host only: compiled for the device, it would not build
  return 2 * v;
#endif
}
__global__ void k(int* p) { p[threadIdx.x] = twice(threadIdx.x); }

int main() {
  thrust::device_vector<int> v(64, 1);
  thrust::sort(v.begin(), v.end());
  k<<<1, 64>>>(thrust::raw_pointer_cast(v.data()));
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
"""


@pytest.mark.hipcc
def test_nvcc_macros_as_the_translation_decides_them_and_thrust_still_configures(rocm: RocmCompiler) -> None:
    """__CUDACC__ marks the CUDA compiler (a __host__ __device__ macro), CUDART_VERSION is a current CUDA's,
    __CUDA_ARCH__ is defined in the device pass only; rocThrust, which reads __CUDACC__ to learn its compiler,
    still takes hipcc for HIP's."""
    root = rocm.work / "macros"
    root.mkdir()
    (root / "main.cu").write_text(NVCC_MACROS)
    folder = root / "hip-include"
    for relative, text in render_include_dir(plan_shim(_texts(root))).items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text)
    tc = rocm.toolchain
    cmd = [*tc.hipcc, "--offload-arch=gfx90a", "-std=c++17", "-I", tc.inner_path(str(folder)), "-x", "hip", "-c"]
    cmd += [tc.inner_path(str(root / "main.cu")), "-o", "/dev/null"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **tc.env}, timeout=900)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]


@pytest.mark.hipcc
def test_every_rename_defined_before_every_hip_header_compiles(rocm: RocmCompiler) -> None:
    """The include folder defines the project's CUDA names before a later CUDA header's HIP header is read
    (cuda_runtime.h, then cublas_v2.h): no HIP header may use a CUDA name for something else. Checked for every
    rename of the table before every HIP header the table names."""
    table, options = load_table(), Options()
    lines = ["#define HIP_ENABLE_WARP_SYNC_BUILTINS", "#include <hip/hip_runtime.h>"]
    headers: set[str] = set()
    for row in table:
        decision = decide(row, options)
        if row.kind == "header" and decision.target and "/" in decision.target:
            headers.add(decision.target)
            continue
        definition = definition_for(row, decision) if decision.target else None
        if definition is not None and definition.section == RENAME:
            lines.append(definition.text)
    tc = rocm.toolchain

    def compile_with(group: list[str], name: str) -> subprocess.CompletedProcess[str]:
        included = [line for h in group for line in (f"#if __has_include(<{h}>)", f"#include <{h}>", "#endif")]
        source = rocm.work / name
        source.write_text("\n".join([*lines, *included, "int main() { return 0; }", ""]))
        cmd = [
            *tc.hipcc,
            "--offload-arch=gfx90a",
            "-std=c++17",
            "-x",
            "hip",
            "-fsyntax-only",
            tc.inner_path(str(source)),
        ]
        return subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **tc.env}, timeout=900)

    proc = compile_with(sorted(headers), "all_names.cu")
    if proc.returncode != 0:
        # Some HIP headers clash with each other whatever is defined before them (ROCm 7.2's hip_fp4.h and
        # hip_fp6.h both define half_to_f16): those the errors come through are compiled one by one, the rest together.
        clashing = sorted(
            h
            for h in headers
            if re.search(rf"included from [^\n]*all_names\.cu:\d+:\n[^\n]*{re.escape(h)}", proc.stderr)
        )
        assert clashing, proc.stdout[-4000:] + proc.stderr[-4000:]
        proc = compile_with(sorted(headers - set(clashing)), "all_names.cu")
        assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
        for i, header in enumerate(clashing):
            alone = compile_with([header], f"one_header_{i}.cu")
            assert alone.returncode == 0, header + "\n" + alone.stdout[-4000:] + alone.stderr[-4000:]
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]


@pytest.mark.hipcc
def test_validate_shim_mode_compiles_a_corpus_program_unmodified(tmp_path: Path, rocm: RocmCompiler) -> None:
    out = tmp_path / "v.json"
    cmd = [sys.executable, "-m", "hipify", "validate", "--shim", "--engine", "regex", "--arch", "gfx90a"]
    cmd += ["--only", "multifile", "--json", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert '"result": "PASS"' in out.read_text()
