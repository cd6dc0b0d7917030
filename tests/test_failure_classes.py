"""The classes of failures real projects showed, each with a minimal case of our own.

Each test translates a small tree as a user would (the command line, default options) and
checks the mechanism; the last one compiles the whole tree with ROCm's hipcc.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import RocmCompiler

from hipify.cli.cli import main

# A shared helper header in the style of library samples: most programs use print_status, one
# would use workspace_bytes, which needs an API HIP lacks (cudaEmulationMantissaControl).
UTILS_H = """\
#pragma once
#include <cstdio>
#include <cuda_runtime.h>
#include <cufft.h>

#ifndef __CUDACC__
inline float max(float a, float b) { return a > b ? a : b; }
#endif

inline void print_status(cudaError_t e) { std::printf("%s\\n", cudaGetErrorString(e)); }

size_t workspace_bytes(int m, cudaEmulationMantissaControl control) {
    return control == CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC ? 2 * m : m;
}

#ifdef _CUFFT_H_
static const char *fft_error(cufftResult error) {
    switch (error) {
        case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
        case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
        case CUFFT_MISSING_DEPENDENCY: return "CUFFT_MISSING_DEPENDENCY";
    }
    return "<unknown>";
}
#endif

struct precision_info {
    int bits = 24;
#if CUDART_VERSION >= 13000
    cudaEmulationMantissaControl control = CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC;
#endif
};

__device__ inline float warp_sum(float val) {
#if __CUDACC_VER_MAJOR__ >= 9
    val += __shfl_down_sync(0xffffffff, val, 1);
#else
    val += __shfl_down(val, 1);
#endif
    return val;
}

static const char *error_name(cudaError_t error) { return cudaGetErrorName(error); }
static const char *error_name(CUresult error) {
    const char *name = nullptr;
    cuGetErrorName(error, &name);
    return name;
}
"""
# Device functions written for GPUs or CUDA versions without them, which HIP's headers define: the CUDA programming
# guide's atomicAdd on doubles (for the device pass of GPUs before sm_60, which HIP's device pass takes too) and an
# atomicMin on floats. Those in a namespace, for the host or with other parameter types are the code's own.
ATOMICS_CUH = """\
#pragma once
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
#else
__device__ double atomicAdd(double* address, double val)
{
    unsigned long long int* address_as_ull = (unsigned long long int*)address;
    unsigned long long int old = *address_as_ull, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_ull, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}
#endif

__device__ __forceinline__
float atomicMin(float *addr, float value)
{
  unsigned *ptr = (unsigned *)addr;
  unsigned ret = *ptr;
  while (value < __uint_as_float(ret)) {
    unsigned old = ret;
    if ((ret = atomicCAS(ptr, old, __float_as_uint(value))) == old) break;
  }
  return __uint_as_float(ret);
}

__device__ short atomicMin(short *addr, short value) { return *addr < value ? *addr : (*addr = value); }
inline float atomicMax(float *addr, float value) { return *addr > value ? *addr : (*addr = value); }

namespace mine {
__device__ float atomicMax(float *addr, float value) { return ::atomicMax(addr, value); }
}
"""
# Arithmetic on CUDA's vector types in the style of helper_math.h: HIP's vector types define * and / of two vectors
# and the compound assignments for host and device, so the component-wise ones of the code clash; a complex product
# on double2 is the code's own meaning (reported, not used on two double2 here); + is a template in HIP (no clash).
VECTOR_MATH_H = """\
#pragma once
inline __host__ __device__ float2 operator*(float2 a, float2 b)
{
    return make_float2(a.x * b.x, a.y * b.y);
}
inline __host__ __device__ void operator*=(float2 &a, float2 b)
{
    a.x *= b.x;
    a.y *= b.y;
}
inline __host__ __device__ float4 operator/(const float4 &a, const float4 &b) { return {a.x / b.x, a.y / b.y, a.z / b.z, a.w / b.w}; }
inline __host__ __device__ float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__host__ __device__ inline double2 operator*(double2 a, double2 b) { return make_double2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
"""
MAIN_CU = """\
#include <cuda.h>
#include "utils.h"
#include "atomics.cuh"
#include "vector_math.h"

__global__ void fill(float *x) { x[threadIdx.x] = warp_sum(max(1.0f, 2.0f)); }
__global__ void gather(double *sum, float *low, short *s) {
    atomicAdd(sum, 1.0);
    atomicMin(low, mine::atomicMax(low + 1, 2.0f));
    atomicMin(s, (short)1);
}
__global__ void scale(float2 *p, float4 *q) {
    float2 a = p[0] * p[1];
    a *= p[2];
    p[3] = a + p[4];
    q[0] = q[1] / q[2];
}

int main() {
    float *x = nullptr;
    print_status(cudaMalloc(&x, 32 * sizeof(float)));
    fill<<<1, 32>>>(x);
    std::printf("%s %s\\n", error_name(cudaDeviceSynchronize()), fft_error(CUFFT_SUCCESS));
    cudaFree(x);
    return 0;
}
"""
EMULATION_CU = """\
#include "utils.h"
int main(int argc, char**) { return (int)workspace_bytes(argc, {}); }
"""

# A host-only source of the same program: it includes a header that defines a one-letter macro, then one with
# device code but no CUDA include (its translation includes the HIP runtime, which must not see ``T``).
CONFIG_H = "#pragma once\n#define T int\n"
PARTITION_H = """\
#pragma once
__device__ inline int gpu_first(int x) { return x + blockIdx.x; }
inline int cpu_first(int x) { return x; }
"""
HOST_CPP = """\
#include <vector>
#include "config.h"
#include "partition.h"
T host_first(int x) { return cpu_first(x); }
"""


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))


def _translate(tmp_path: Path, files: dict[str, str], engine: str = "regex") -> tuple[Path, int]:
    src = tmp_path / "src"
    for rel, text in files.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    out = tmp_path / "out"
    return out, main([str(src), "--out-dir", str(out), "--engine", engine, "-q"])


def test_unused_helper_needing_a_missing_api_is_disabled_visibly(tmp_path: Path) -> None:
    out, code = _translate(
        tmp_path, {"utils.h": UTILS_H, "atomics.cuh": ATOMICS_CUH, "vector_math.h": VECTOR_MATH_H, "main.cu": MAIN_CU}
    )
    assert code == 0
    text = (out / "utils.h").read_text()
    block = text[text.index("// hipify-py: workspace_bytes needs") :]
    assert block.split("\n")[1] == "#if defined(HIPIFY_ENABLE_workspace_bytes)"
    assert "cudaEmulationMantissaControl" in block.split("\n")[0]  # names the missing API
    assert "#endif  // defined(HIPIFY_ENABLE_workspace_bytes)" in block
    assert "print_status(hipError_t e)" in text  # helpers HIP has stay as they are
    # a missing name in a directive keeps nothing from compiling: the other branch is compiled
    assert "HIPIFY_ENABLE_warp_sum" not in text
    # nor one in a branch HIP skips: no CUDA version macro is defined under HIP
    assert "HIPIFY_ENABLE_precision_info" not in text


def test_a_used_helper_no_smaller_unit_holds_is_disabled_and_reported_at_the_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # workspace_bytes takes a type HIP lacks (no statement or body holds it) and emulation.cu uses it: as written it
    # would stop every file including utils.h (main.cu too), so it is disabled, and its uses are reported
    out, _ = _translate(tmp_path, {"utils.h": UTILS_H, "main.cu": MAIN_CU, "emulation.cu": EMULATION_CU})
    text = (out / "utils.h").read_text()
    assert (
        "#if defined(HIPIFY_ENABLE_workspace_bytes)\nsize_t workspace_bytes(int m, cudaEmulationMantissaControl" in text
    )
    assert main([str(tmp_path / "src"), "--check", "--engine", "regex"]) == 1
    err = capsys.readouterr().err
    assert "emulation.cu:2:" in err and "warning: workspace_bytes needs" in err and "[HPY111]" in err


# A helper whose body needs an API HIP lacks, called on one path of a program that has others.
EMULATED_H = """\
#pragma once
#include <cublas_v2.h>
template <typename T>
int emulated_gemm(cublasHandle_t handle, const T* a, int n) {
  cublasSetEmulationStrategy(handle, CUDA_EMULATION_STRATEGY_EAGER);
  return n + (a != nullptr);
}
"""
PATHS_CU = """\
#include "emulated.h"
int main(int argc, char**) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  float x = 0;
  return argc > 5 ? emulated_gemm<float>(handle, &x, 1) : 0;
}
"""


@pytest.mark.hipcc
def test_a_statement_needing_a_missing_api_is_left_out_alone_so_its_callers_compile(
    tmp_path: Path, rocm: RocmCompiler
) -> None:
    out, _ = _translate(rocm.work, {"emulated.h": EMULATED_H, "paths.cu": PATHS_CU})
    text = (out / "emulated.h").read_text()
    assert "int emulated_gemm(hipblasHandle_t handle, const T* a, int n) {\n#if defined(" in text
    left_out = text[text.index("#if defined(HIPIFY_ENABLE_") : text.index("#endif")]
    assert "cublasSetEmulationStrategy(handle, CUDA_EMULATION_STRATEGY_EAGER);" in left_out
    assert 'hipify_unavailable("CUDA_EMULATION_STRATEGY_EAGER, cublasSetEmulationStrategy");' in left_out
    assert "  return n + (a != nullptr);\n}" in text  # the rest of the body stays
    assert "hipify_unavailable" in (out / "hipify_compat.h").read_text()
    proc = rocm.compile(out / "paths.cu")
    assert proc.returncode == 0, proc.stderr[-3000:]
    _, again = _translate(tmp_path / "again", {"emulated.h": text, "paths.cu": (out / "paths.cu").read_text()})
    assert again == 0 and (tmp_path / "again" / "out" / "emulated.h").read_text() == text


def test_case_on_an_enumerator_hip_lacks_is_disabled(tmp_path: Path) -> None:
    out, _ = _translate(
        tmp_path, {"utils.h": UTILS_H, "atomics.cuh": ATOMICS_CUH, "vector_math.h": VECTOR_MATH_H, "main.cu": MAIN_CU}
    )
    text = (out / "utils.h").read_text()
    assert "#ifdef HIPFFT_H_" in text  # the guard of the header that replaces cufft.h
    assert "/* hipify-py: HIP has no CUFFT_MISSING_DEPENDENCY: case CUFFT_MISSING_DEPENDENCY: */" in text
    assert 'return "CUFFT_MISSING_DEPENDENCY";' in text  # the body stays (it can never be reached)
    assert "case HIPFFT_INVALID_PLAN:" in text


def test_overloads_hip_makes_one_function_keep_the_first(tmp_path: Path) -> None:
    out, _ = _translate(
        tmp_path, {"utils.h": UTILS_H, "atomics.cuh": ATOMICS_CUH, "vector_math.h": VECTOR_MATH_H, "main.cu": MAIN_CU}
    )
    text = (out / "utils.h").read_text()
    assert text.count("error_name(hipError_t error)") == 2
    second = text.index("error_name(hipError_t error)", text.index("error_name(hipError_t error)") + 1)
    assert text.rfind("#if 0", 0, second) > text.index("error_name(hipError_t error)")


def test_device_functions_hip_defines_are_kept_off_amd_gpus(tmp_path: Path) -> None:
    out, _ = _translate(
        tmp_path, {"utils.h": UTILS_H, "atomics.cuh": ATOMICS_CUH, "vector_math.h": VECTOR_MATH_H, "main.cu": MAIN_CU}
    )
    text = (out / "atomics.cuh").read_text()
    guard = "#if !defined(__HIP_PLATFORM_AMD__)\n"
    assert text.count(guard) == 2, text
    assert guard + "__device__ double atomicAdd(double* address, double val)" in text
    assert guard + "__device__ __forceinline__\nfloat atomicMin(float *addr, float value)" in text
    assert "HIP's headers define atomicMin(float*, float) for AMD GPUs" in text
    assert "#endif  // !defined(__HIP_PLATFORM_AMD__)\n#endif\n" in text  # inside the CUDA_ARCH branch
    # Not HIP's: another parameter type, a host function, a namespace's own.
    assert "\n__device__ short atomicMin" in text and "\ninline float atomicMax" in text
    assert "{\n__device__ float atomicMax" in text


def test_component_wise_vector_operators_hip_defines_are_kept_off_amd_gpus(tmp_path: Path) -> None:
    out, _ = _translate(tmp_path, {"utils.h": UTILS_H, "vector_math.h": VECTOR_MATH_H, "main.cu": MAIN_CU})
    text = (out / "vector_math.h").read_text()
    guard = "#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_CPU_RT__)\ninline __host__ __device__ "
    for head in ("float2 operator*(float2 a", "void operator*=(float2 &a", "float4 operator/(const float4 &a"):
        assert guard + head in text, head
    assert (
        text.count("#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_CPU_RT__)") == 3
    )  # not +, nor the complex product
    report = tmp_path / "report.json"
    main([str(tmp_path / "src"), "--out-dir", str(tmp_path / "again"), "-q", "--report", str(report)])
    assert "HPY116" in report.read_text() and "operator*" in report.read_text()


def test_host_fallback_for_other_compilers_stays_off_under_hipcc(tmp_path: Path) -> None:
    out, _ = _translate(
        tmp_path, {"utils.h": UTILS_H, "atomics.cuh": ATOMICS_CUH, "vector_math.h": VECTOR_MATH_H, "main.cu": MAIN_CU}
    )
    assert "#ifndef __HIPCC__\ninline float max" in (out / "utils.h").read_text()


def test_a_host_source_including_device_code_gets_the_hip_runtime_first(tmp_path: Path) -> None:
    out, _ = _translate(tmp_path, {"config.h": CONFIG_H, "partition.h": PARTITION_H, "host.cpp": HOST_CPP})
    host = (out / "host.cpp").read_text()
    assert host.index("#include <hip/hip_runtime.h>") < host.index("#include <vector>")
    assert "#include <hip/hip_runtime.h>" in (out / "partition.h").read_text()


def test_compat_header_and_defines_never_go_inside_a_ports_own_branch(tmp_path: Path) -> None:
    # A header that already has a HIP branch (taken only when the port defines USE_ROCM) and a CUDA one.
    header = (
        "#pragma once\n#ifdef USE_ROCM\n#include <hip/hip_runtime.h>\n#define SHFL(v, m) __shfl_xor(v, m)\n"
        "#else\n#define SHFL(v, m) __shfl_xor_sync(uint32_t(-1), v, m)\n#endif\n"
        "__device__ inline float twice(float v) { return v + SHFL(v, 1); }\n"
    )
    main_cu = '#include <cstdint>\n#include "compat.h"\n__global__ void k(float *x) { x[0] = twice(x[0]); }\n'
    out, _ = _translate(tmp_path, {"compat.h": header, "main.cu": main_cu})
    text = (out / "compat.h").read_text()
    branch = text.index("#ifdef USE_ROCM")
    assert text.index('#include "hipify_compat.h"') < branch, text
    assert "HIP_ENABLE_WARP_SYNC_BUILTINS" not in text[branch : text.index("#endif", branch)], text


def test_second_run_changes_nothing(tmp_path: Path) -> None:
    out, _ = _translate(
        tmp_path, {"utils.h": UTILS_H, "atomics.cuh": ATOMICS_CUH, "vector_math.h": VECTOR_MATH_H, "main.cu": MAIN_CU}
    )
    again = tmp_path / "again"
    assert main([str(out), "--out-dir", str(again), "--engine", "regex", "-q"]) == 0
    for name in ("utils.h", "atomics.cuh", "vector_math.h", "main.cu"):
        assert (again / name).read_text() == (out / name).read_text(), name


@pytest.mark.hipcc
@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_the_translated_tree_compiles_with_rocm(tmp_path: Path, engine: str) -> None:
    from hipify.validate.toolchain import detect

    toolchains = [t for t in detect() if t.rocm_version >= (6, 2)]
    if not toolchains:
        pytest.skip("no ROCm >= 6.2 hipcc (run .ci/install_hip.sh to build the ROCm 6.4 chroot)")
    tc = toolchains[0]
    base = Path(tc.chroot) / "tmp" if tc.chroot else tmp_path
    work = base / f"hipify-classes-{engine}-{os.getpid()}"
    try:
        files = {"utils.h": UTILS_H, "atomics.cuh": ATOMICS_CUH, "main.cu": MAIN_CU, "config.h": CONFIG_H}
        files.update({"partition.h": PARTITION_H, "vector_math.h": VECTOR_MATH_H})
        out, code = _translate(work, {**files, "host.cpp": HOST_CPP}, engine)
        assert code == 0
        for name in ("main.cu", "host.cpp"):
            source = tc.inner_path(str(out / name))
            cmd = [*tc.hipcc, "--offload-arch=gfx90a", "-std=c++17", "-x", "hip", "-c", source, "-o", "/dev/null"]
            proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **tc.env}, timeout=600)
            assert proc.returncode == 0, name + ": " + proc.stdout + proc.stderr
    finally:
        shutil.rmtree(work, ignore_errors=True)
