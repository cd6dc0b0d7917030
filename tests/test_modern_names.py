"""Modern CUDA names: libcu++, Thrust's and CUB's namespaces and macros, NVTX 3, and names HIP has under another
spelling. The table rows the generator derives for them, and the golden cases of tests/cases/{libcudacxx,nvtx,
spellings,namespaces} translated as a user would and compiled by ROCm's hipcc (both engines)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import CASES, RocmCompiler

from hipify.cli.cli import main
from hipify.knowledge.table import load_table

# Cases that compile once translated (atomic_is_hand_work is reported, not compiled: it needs hand work).
COMPILED = (
    "libcudacxx/std_in_device_code.cu",
    "nvtx/nvtx3_ranges.cu",
    "nvtx/nvtx2_ranges.cu",
    "half/empty_brace_assignment.cu",
    "nvtx/nvtx3_cuda_runtime_header.cu",
    "namespaces/thrust_cuda_backend.cu",
    "namespaces/thrust_cuda_error.cu",
    "namespaces/cub_by_alias_and_using.cu",
    "libraries/cub_dispatch_layer.cu",
    "spellings/other_spellings.cu",
    "spellings/surface_overloads.cu",
)


@pytest.mark.parametrize(
    ("cuda", "hip", "source"),
    [
        # named by CUDA as another name (#define / typedef)
        ("cudaStreamAttrValue", "hipLaunchAttributeValue", "cuda-alias"),
        ("cudaStreamAttributeAccessPolicyWindow", "hipLaunchAttributeAccessPolicyWindow", "cuda-alias"),
        ("cublasDataType_t", "hipDataType", "cuda-alias"),
        ("nv_bfloat162", "__hip_bfloat162", "cuda-alias"),
        # CUDA's alias beats a name-alike guess that HIP declares as a different type (hip_bfloat16)
        ("nv_bfloat16", "__hip_bfloat16", "cuda-alias"),
        # but a guess HIP itself defines as the alias's target stays
        ("cuComplex", "hipComplex", "naming"),
        ("cufftComplex", "hipfftComplex", "naming"),
        # deprecated by CUDA in favour of a name HIP has
        ("cudaDeviceBlockingSync", "hipDeviceScheduleBlockingSync", "cuda-successor"),
        ("CU_DEVICE_ATTRIBUTE_GPU_OVERLAP", "hipDeviceAttributeAsyncEngineCount", "cuda-successor"),
        # the runtime twin of the driver enumerator above, by value
        ("cudaDevAttrGpuOverlap", "hipDeviceAttributeAsyncEngineCount", "value-twin"),
        # an algorithm variant of a function HIP has (the same parameters, the same product)
        ("cublasCgemm3m", "hipblasCgemm_v2", "algorithm-variant"),
        ("cublasZgemm3m", "hipblasZgemm_v2", "algorithm-variant"),
        ("CUBLAS_GEMM_AUTOTUNE", "HIPBLAS_GEMM_DEFAULT", "override"),
        # documented like a function HIP has
        ("__float2bfloat16_rn", "__float2bfloat16", "same-doc"),
        # HIP spells its fp16/bf16 constants HIPRT_
        ("CUDART_ZERO_BF16", "HIPRT_ZERO_BF16", "naming"),
        # Thrust's CUDA backend namespaces and libcu++'s
        ("thrust::cuda", "thrust::hip", "thrust-backend"),
        ("thrust::cuda_cub", "thrust::hip_rocprim", "thrust-backend"),
        ("thrust::system::cuda", "thrust::system::hip", "thrust-backend"),
        # and its backend-named functions
        ("thrust::cuda_category", "thrust::hip_category", "thrust-backend"),
        ("thrust::system::cuda_category", "thrust::system::hip_category", "thrust-backend"),
        ("cuda::std", "std", "libcudacxx"),
        ("cuda/std/type_traits", "type_traits", "libcudacxx"),
        # CUB's macros
        ("CubDebug", "HipcubDebug", "naming"),
        # NVTX's CUDA runtime naming header brings NVTX's core API
        ("nvtx3/nvToolsExtCudaRt.h", "roctracer/roctx.h", "header-naming"),
        # NVTX 2's headers, which CUDA 13 no longer ships, as NVTX 3's
        ("nvToolsExt.h", "roctracer/roctx.h", "header-naming"),
        ("nvToolsExtCudaRt.h", "roctracer/roctx.h", "header-naming"),
    ],
)
def test_generated_rows(cuda: str, hip: str, source: str) -> None:
    row = load_table().lookup(cuda)
    assert row is not None, cuda
    row = row.at("6.4")  # how each mechanism found the pair in ROCm 6.4's headers (7.2 has some under other names)
    assert (row.hip, row.hip_status, row.source) == (hip, "supported", source)


@pytest.mark.parametrize("header", ["cuda/atomic", "cuda/std/atomic", "cuda/barrier", "cuda/pipeline"])
def test_libcudacxx_headers_without_device_counterpart_are_hand_work_naming_what_hip_offers(header: str) -> None:
    row = load_table().lookup(header)
    assert row is not None and row.hip == "" and row.hip_status == "unsupported"
    assert "instead:" in row.note


def test_deprecated_words_are_not_taken_for_successors() -> None:
    """cudaDeviceBlockingSync's doc says "Use blocking synchronization ... replaced with
    ::cudaDeviceScheduleBlockingSync": only an API name is a successor, and only one of the row's own sort."""
    from hipify.tablegen.spellings import _trailing_successors

    text = """
#define cudaDeviceBlockingSync 0x04 /**< Use blocking synchronization
                                     *  \\deprecated replaced with ::cudaDeviceScheduleBlockingSync. */
#define cudaDeviceMapHost 0x08 /**< Support mapped pinned allocations */
"""
    assert _trailing_successors(text) == {"cudaDeviceBlockingSync": ("cudaDeviceScheduleBlockingSync",)}


def test_thrust_backend_namespaces_pair_by_header() -> None:
    from hipify.tablegen.thrust_namespaces import declared_namespaces

    cuda = "THRUST_NAMESPACE_BEGIN\nnamespace cuda_cub {\nstruct x {};\n}\nnamespace system { namespace cuda {\n}}\n"
    assert declared_namespaces(cuda) == {"thrust", "thrust::cuda_cub", "thrust::system", "thrust::system::cuda"}


def test_thrust_backend_functions_at_namespace_scope() -> None:
    from hipify.tablegen.thrust_namespaces import declared_functions

    cuda = (
        "THRUST_NAMESPACE_BEGIN\nnamespace system {\n// cuda_commented()\ninline const error_category& cuda_category();\n"
        "struct s { void cuda_member(); };\ninline void f() { cuda_call(); }\n}\nusing system::cuda_category;\n"
        "THRUST_NAMESPACE_END\n"
    )
    assert declared_functions(cuda) == {"thrust::system::cuda_category", "thrust::system::f", "thrust::cuda_category"}


def _translate(work: Path, engine: str) -> Path:
    src = work / "src"
    for rel in COMPILED:
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(CASES / rel, src / rel)
    out = work / "out"
    assert main([str(src), "--out-dir", str(out), "--engine", engine, "-q"]) == 0
    return out


@pytest.mark.hipcc
@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_translated_cases_compile_with_rocm(rocm: RocmCompiler, engine: str) -> None:
    out = _translate(rocm.work, engine)
    for rel in COMPILED:
        proc = rocm.compile(out / rel)
        assert proc.returncode == 0, rel + ": " + proc.stdout[-3000:] + proc.stderr[-3000:]
