"""What the project defines is read under the build the translation produces (project/platforms.py).

A project's own HIP build, or another platform's, is chosen by macros of its own that its build system defines; the
translated build (the CUDA build, compiled by hipcc) defines none of them. A definition only they reach is not the
project's there: the translation supplies the name as if the project had none. A definition hipcc does read
(``#ifdef __HIPCC__``) stays the project's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify.knowledge.table import table_for
from hipify.options import Options
from hipify.project.graph import build_model
from hipify.project.scan import scan_file
from hipify.translation.api import translate_project

VENDOR_HIP = """\
#pragma once
#include <hip/hip_runtime.h>
#define __trap() do { abort(); } while (0)
#define cudaStream_t hipStream_t
static __device__ __forceinline__ int __vsubss4(const int a, const int b) { return a - b; }
typedef hipDeviceProp_t cudaDeviceProp;
"""
VENDOR_OTHER = """\
#pragma once
#include <other_runtime.h>
#define cudaStream_t otherStream_t
#define cudaMemcpyAsync otherMemcpyAsync
"""
VENDOR_CUDA = """\
#pragma once
#include <cuda_runtime.h>
"""
COMMON = """\
#pragma once
#if defined(MYPROJ_USE_HIP)
#include "vendors/hip.h"
#elif defined(MYPROJ_USE_OTHER)
#include "vendors/other.h"
#else
#include "vendors/cuda.h"
#endif
#ifdef MYPROJ_USE_ROCM
#define CUDART_INF_F __int_as_float(0x7f800000)
#else
#include <math_constants.h>
#endif
#ifdef __HIPCC__
#define CUDART_PI_F 3.14159265f
#endif
static __device__ void stop_here() { __trap(); }
static __device__ float infinity() { return CUDART_INF_F + CUDART_PI_F; }
"""
MAIN = """\
#include "common.cuh"
__global__ void k(float* out) { out[0] = infinity(); if (out[1] < 0) stop_here(); }
int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float* d = nullptr;
  cudaMemcpyAsync(d, d, 0, cudaMemcpyDeviceToDevice, s);
  k<<<1, 1, 0, s>>>(d);
  return 0;
}
"""
FILES = {
    "vendors/hip.h": VENDOR_HIP,
    "vendors/other.h": VENDOR_OTHER,
    "vendors/cuda.h": VENDOR_CUDA,
    "common.cuh": COMMON,
    "main.cu": MAIN,
}


def _tree(tmp_path: Path) -> dict[str, str]:
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return {str(tmp_path / name): text for name, text in FILES.items()}


def test_the_options_are_the_macros_around_other_builds(tmp_path: Path) -> None:
    texts = _tree(tmp_path)
    options = Options()
    table = table_for(options)
    scans = [scan_file(p, table, options) for p in texts]
    model = build_model(scans, lambda ps: [scan_file(p, table, options) for p in ps])
    # the HIP build's option (its branch includes HIP's runtime), the other platform's (an alternative to the branch
    # that includes CUDA's), and a guard around a HIP include in the same file
    assert model.platform_options == {"MYPROJ_USE_HIP", "MYPROJ_USE_OTHER", "MYPROJ_USE_ROCM"}
    assert {Path(k).name for k in model.other_builds} == {"hip.h", "other.h"}
    assert "__trap" not in model.shadows and "cudaStream_t" not in model.shadows
    assert "CUDART_PI_F" in model.shadows  # hipcc reads that definition: the project's own


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_names_only_other_builds_define_are_translated(tmp_path: Path, engine: str) -> None:
    texts = _tree(tmp_path)
    results = translate_project(texts, Options(engine=engine)).results
    main, common = results[str(tmp_path / "main.cu")], results[str(tmp_path / "common.cuh")]
    assert "hipStream_t s;" in main.text and "hipMemcpyAsync(" in main.text  # not other.h's aliases
    assert "trap" in common.compat  # the compatibility header's __trap, not vendors/hip.h's
    assert "HIP_INF_F" in common.text  # the ROCm branch's own definition is not read by the translated build
    assert "CUDART_PI_F" in common.text  # hipcc reads this one: the project's own, left as it is
    assert not [d for d in common.diagnostics if d.code in ("HPY101", "HPY010") and "__trap" in d.message]


def test_files_only_other_builds_read_are_left_as_they_are(tmp_path: Path) -> None:
    texts = _tree(tmp_path)
    results = translate_project(texts, Options(engine="regex")).results
    for name in ("vendors/hip.h", "vendors/other.h"):
        result = results[str(tmp_path / name)]
        assert result.text == FILES[name] and not result.edits
        assert [d.code for d in result.diagnostics] == ["HPY032"]
    assert results[str(tmp_path / "vendors/cuda.h")].text != VENDOR_CUDA  # the translated build's own: translated


SCAN_FILE = """\
#include <cub/cub.cuh>
using namespace cub;
#include "types.cuh"
__global__ void k(float* x) { x[0] = 1.0f; }
int main() { k<<<1, 1>>>(nullptr); return 0; }
"""
TYPES = """\
#pragma once
#include <cuda_fp16.h>
#include <cuda_fp8.h>
__device__ inline float widen(__half h) { return __half2float(h); }
"""


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_hip_runtime_headers_come_before_a_vendor_using_directive(tmp_path: Path, engine: str) -> None:
    """``using namespace hipcub;`` read before HIP's fp8 header makes its global ``internal`` ambiguous: the
    translation unit's HIP runtime headers are included before the directive, and a second run adds nothing."""
    (tmp_path / "scan.cu").write_text(SCAN_FILE)
    (tmp_path / "types.cuh").write_text(TYPES)
    texts = {str(tmp_path / n): (tmp_path / n).read_text() for n in ("scan.cu", "types.cuh")}
    translated = translate_project(texts, Options(engine=engine)).results[str(tmp_path / "scan.cu")].text
    before_using = translated[: translated.index("using namespace hipcub;")]
    assert "#include <hip/hip_fp8.h>" in before_using and "#include <hip/hip_fp16.h>" in before_using
    (tmp_path / "scan.cu").write_text(translated)
    (tmp_path / "types.cuh").write_text(
        translate_project(texts, Options(engine=engine)).results[str(tmp_path / "types.cuh")].text
    )
    again = {str(tmp_path / n): (tmp_path / n).read_text() for n in ("scan.cu", "types.cuh")}
    assert translate_project(again, Options(engine=engine)).results[str(tmp_path / "scan.cu")].text == translated


def test_another_program_of_the_tree_is_no_evidence(tmp_path: Path) -> None:
    """A tree holding a CUDA program and its HIP port (HeCBench's bmf-cuda and bmf-hip): the port's USE_GPU branch
    includes HIP's runtime, which makes USE_GPU no option of the CUDA program, whose build defines it."""
    main = '#ifdef USE_GPU\n#include "gpu.cuh"\n#else\n#include "cpu.h"\n#endif\nint main() { return run(); }\n'
    files = {
        "cuda/main.cu": main,
        "cuda/gpu.cuh": "#pragma once\n#include <cuda_runtime.h>\ninline int run() { return cudaDeviceSynchronize(); }\n",
        "cuda/cpu.h": "#pragma once\ninline int run() { return 0; }\n",
        "hip/main.cpp": main,
        "hip/gpu.cuh": "#pragma once\n#include <hip/hip_runtime.h>\ninline int run() { return hipDeviceSynchronize(); }\n",
        "hip/cpu.h": "#pragma once\ninline int run() { return 0; }\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    texts = {str(tmp_path / name): text for name, text in files.items()}
    translation = translate_project(texts, Options(engine="regex"))
    assert translation.model.options_by_file  # the port's own conditions say it
    assert not any("/cuda/" in k for k in translation.model.other_builds)
    assert "hipDeviceSynchronize" in translation.results[str(tmp_path / "cuda/gpu.cuh")].text


SHARED_TYPES = """\
#pragma once
#if defined(OWN_DECL_CUDA)
#include <cuda_fp16.h>
typedef half own_half;
static __device__ inline float own_widen(own_half h) { return __half2float(h); }
#else
typedef unsigned short own_half;
#endif
"""


@pytest.mark.parametrize("suffix", [".c", ".cpp"])
def test_a_cpu_source_that_reads_no_cuda_code_gets_no_hip_runtime(tmp_path: Path, suffix: str) -> None:
    """A header shared with a CPU backend holds CUDA code only for the files that define its macro: the CPU
    backend's C and C++ sources (gcc and g++ compile them) read none of it and get no HIP runtime include; a unit
    that reads it does, at its top."""
    files = {
        "types.h": SHARED_TYPES,
        f"cpu{suffix}": '#define OWN_DECL_C\n#include <math.h>\n#include "types.h"\n'
        "int cpu_only(double x) { return isnan(x) ? 0 : (int)sizeof(own_half); }\n",
        "gpu.cu": '#define OWN_DECL_CUDA\n#include "types.h"\n__global__ void k(own_half* h) { h[0] = h[1]; }\n',
        f"reads{suffix}": '#define OWN_DECL_CUDA\n#include "types.h"\nint host(void) { return sizeof(own_half); }\n',
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    texts = {str(tmp_path / n): t for n, t in files.items()}
    results = translate_project(texts, Options(engine="regex")).results
    cpu = results[str(tmp_path / f"cpu{suffix}")].text
    assert "hip_runtime" not in cpu and "hipify_compat" not in cpu  # (isnan reads no HIP header here)
    # the header reads HIP's runtime only where its CUDA code is read: not in the CPU source
    assert "#if defined(OWN_DECL_CUDA)\n#include <hip/hip_runtime.h>\n#endif" in results[str(tmp_path / "types.h")].text
    assert "#include <hip/hip_runtime.h>" in results[str(tmp_path / "gpu.cu")].text
    if suffix == ".cpp":  # (a C source reading CUDA code is left as written and reported: test_no_cascades)
        reads = results[str(tmp_path / f"reads{suffix}")].text
        assert 0 <= reads.find("#include <hip/hip_runtime.h>") < reads.index('#include "types.h"')


ADAPTIVE_INTEROP = """\
#pragma once
#ifdef MYLIB_USE_GPU
#if defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
#define atomicAdd_block atomicAdd
#define cudaStream_t hipStream_t
#endif
#endif
"""
ADAPTIVE_UTILS = """\
#pragma once
#ifdef MYLIB_USE_GPU
#ifndef MYLIB_USE_ROCM
#include <cuda_runtime.h>
#endif
#include "interop.h"
inline void check(cudaError_t e) { if (e != cudaSuccess) throw e; }
#endif
"""
ADAPTIVE_MAIN = """\
#include "utils.cuh"
__global__ void count(int* n) { atomicAdd_block(n, 1); }
int main() { int* n; check(cudaMalloc(&n, sizeof(int))); count<<<1, 32>>>(n); return 0; }
"""


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_a_header_adapting_itself_to_hipcc_is_no_other_build(tmp_path: Path, engine: str) -> None:
    """A header that includes HIP's runtime only under ``__HIP_PLATFORM_AMD__`` adapts itself to hipcc, and the
    translated build reads it too: the project option it sits under (``MYLIB_USE_GPU``, which every GPU build
    defines) is no other platform's, and the files under that option are translated; what the header defines for
    hipcc (``atomicAdd_block``) is the project's own there, not left out."""
    files = {"interop.h": ADAPTIVE_INTEROP, "utils.cuh": ADAPTIVE_UTILS, "main.cu": ADAPTIVE_MAIN}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    results = translate_project({str(tmp_path / n): t for n, t in files.items()}, Options(engine=engine)).results
    utils, main = results[str(tmp_path / "utils.cuh")], results[str(tmp_path / "main.cu")]
    assert "#include <hip/hip_runtime.h>" in utils.text and "hipError_t e" in utils.text
    assert "HPY032" not in {d.code for d in utils.diagnostics}
    assert "hipMalloc(" in main.text and "atomicAdd_block(n, 1)" in main.text
    assert not [d for d in main.diagnostics if d.code == "HPY010"]
    # the header's own hipcc branch is left as the project wrote it
    assert results[str(tmp_path / "interop.h")].text == ADAPTIVE_INTEROP


COMPILER_VERSION_HEADER = """\
#pragma once
#if defined(__NVCC__)
#if defined(__CUDACC_VER_MAJOR__) && (__CUDACC_VER_MAJOR__ >= 9)
#define MYLIB_NVCC ((__CUDACC_VER_MAJOR__ * 10000) + (__CUDACC_VER_MINOR__ * 100))
#elif defined(__CUDACC_VER__)
#define MYLIB_NVCC __CUDACC_VER__
#else
#error "nvcc did not say its version"
#endif
#else
#define MYLIB_NVCC 0
#endif
"""
POINTER_KIND = """\
#include <cuda_runtime.h>
#include "version.h"
bool on_host(const void* p) {
  cudaPointerAttributes a;
  cudaPointerGetAttributes(&a, p);
#if CUDART_VERSION >= 10000
  return a.type == cudaMemoryTypeHost;
#else
  return a.memoryType == cudaMemoryTypeHost;
#endif
}
"""


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_a_build_macro_a_branch_spells_is_no_gap(tmp_path: Path, engine: str) -> None:
    """A version branch that spells ``__CUDACC_VER_MAJOR__`` in its body gets the decided build's value there: it
    uses nothing HIP lacks, so it does not hold the program back to a toolkit older than the branch (which would
    take another file's ``memoryType`` branch, a member HIP's attributes do not have)."""
    files = {"version.h": COMPILER_VERSION_HEADER, "kind.cu": POINTER_KIND}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    results = translate_project({str(tmp_path / n): t for n, t in files.items()}, Options(engine=engine)).results
    kind = results[str(tmp_path / "kind.cu")]
    assert "#if 1" in kind.text and "a.type == hipMemoryTypeHost" in kind.text
    assert not [d for d in kind.diagnostics if d.code == "HPY036"]


HIP_AWARE_LIBRARY = """\
#pragma once
#if defined(__NVCC__) && defined(__HIPCC__)
#error "nvcc under hipcc is not supported"
#endif
#if defined(__CUDACC__) || defined(__HIPCC__)
#define MYLIB_DEVICE __host__ __device__
#endif
#if defined(__CUDACC__)
#define MYLIB_CHECK(x) cudaCheck(x)
#elif defined(__HIPCC__)
#define MYLIB_HIP_CHECK(x) hipCheck(x)
#endif
"""


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_a_condition_telling_hips_compiler_apart_keeps_its_cuda_compiler_tests(tmp_path: Path, engine: str) -> None:
    """A condition testing HIP's compiler beside CUDA's was written for hipcc as it is: renamed, ``defined(__NVCC__)
    && defined(__HIPCC__)`` would stop every hipcc compile at its ``#error`` (Eigen's way), and ``defined(__CUDACC__)
    || defined(__HIPCC__)`` would say one half twice; the CUDA tests there stay. A condition of its own is CUDA's
    branch, whose macros the translated CUDA code uses (``MYLIB_CHECK``): translated, as before."""
    (tmp_path / "lib.h").write_text(HIP_AWARE_LIBRARY)
    results = translate_project({str(tmp_path / "lib.h"): HIP_AWARE_LIBRARY}, Options(engine=engine)).results
    lib = results[str(tmp_path / "lib.h")].text
    assert "#if defined(__NVCC__) && defined(__HIPCC__)" in lib
    assert "#if defined(__CUDACC__) || defined(__HIPCC__)" in lib
    assert "#if defined(__HIPCC__)\n#define MYLIB_CHECK" in lib
