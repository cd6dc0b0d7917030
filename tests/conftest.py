"""Shared fixtures: the mapping table (shipped one, or a small fixture table until it lands),
golden-case options from a flags line, the ``--update-golden`` switch, and ROCm's hipcc for compile tests."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from hipify.knowledge.table import MappingTable, Row, Transform, load_table, table_files
from hipify.options import Options
from hipify.validate.parts import Part, lacking
from hipify.validate.toolchain import Toolchain

CASES = Path(__file__).parent / "cases"
FLAGS_PREFIX = "// hipify-py-flags:"
WARP = "HIP_ENABLE_WARP_SYNC_BUILTINS"
OCML = "OCML_BASIC_ROUNDED_OPERATIONS"
VOID_CAST = "reinterpret_cast<const void*>"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/cases/**/*.hip from the current output (review the diff!)",
    )


def _row(cuda: str, hip: str, kind: str = "function", api: str = "runtime", **kw: object) -> Row:
    kw.setdefault("hip_status", "supported" if hip else "unsupported")
    return Row(cuda=cuda, hip=hip, kind=kind, api=api, **kw)  # type: ignore[arg-type]


def _sym(arg: int) -> Transform:
    return Transform(kind="wrap_arg", arg=arg, wrapper="HIP_SYMBOL")


# Real, certain pairs (HIP's own documentation names them) plus a few made-up statuses
# for rules that need them (marked "fixture").
FIXTURE_ROWS: tuple[Row, ...] = (
    _row("cudaMalloc", "hipMalloc"),
    _row("cudaFree", "hipFree"),
    _row("cudaMemcpy", "hipMemcpy"),
    _row("cudaMemcpyAsync", "hipMemcpyAsync"),
    _row("cudaMemset", "hipMemset"),
    _row("cudaMallocManaged", "hipMallocManaged"),
    _row("cudaMallocHost", "hipHostMalloc"),
    _row("cudaFreeHost", "hipHostFree"),
    _row("cudaMemcpyKind", "hipMemcpyKind", "enum"),
    _row("cudaMemcpyHostToDevice", "hipMemcpyHostToDevice", "enum_constant", parent="cudaMemcpyKind"),
    _row("cudaMemcpyDeviceToHost", "hipMemcpyDeviceToHost", "enum_constant", parent="cudaMemcpyKind"),
    _row("cudaMemcpyDeviceToDevice", "hipMemcpyDeviceToDevice", "enum_constant", parent="cudaMemcpyKind"),
    _row("cudaError_t", "hipError_t", "type"),
    _row("cudaSuccess", "hipSuccess", "enum_constant"),
    _row("cudaGetErrorString", "hipGetErrorString"),
    _row("cudaGetLastError", "hipGetLastError"),
    _row("cudaPeekAtLastError", "hipPeekAtLastError"),
    _row("cudaDeviceSynchronize", "hipDeviceSynchronize"),
    _row("cudaDeviceReset", "hipDeviceReset"),
    _row("cudaStream_t", "hipStream_t", "type"),
    _row("cudaStreamCreate", "hipStreamCreate"),
    _row("cudaStreamDestroy", "hipStreamDestroy"),
    _row("cudaStreamSynchronize", "hipStreamSynchronize"),
    _row("cudaEvent_t", "hipEvent_t", "type"),
    _row("cudaEventCreate", "hipEventCreate"),
    _row("cudaEventRecord", "hipEventRecord"),
    _row("cudaEventSynchronize", "hipEventSynchronize"),
    _row("cudaEventElapsedTime", "hipEventElapsedTime"),
    _row("cudaEventDestroy", "hipEventDestroy"),
    _row("cudaSetDevice", "hipSetDevice"),
    _row("cudaGetDevice", "hipGetDevice"),
    _row("cudaGetDeviceCount", "hipGetDeviceCount"),
    _row("cudaGetDeviceProperties", "hipGetDeviceProperties"),
    _row("cudaDeviceProp", "hipDeviceProp_t", "type"),
    _row("cudaMemcpyToSymbol", "hipMemcpyToSymbol", transform=_sym(0)),
    _row("cudaMemcpyFromSymbol", "hipMemcpyFromSymbol", transform=_sym(1)),
    _row("cudaGetSymbolAddress", "hipGetSymbolAddress", transform=_sym(1)),
    _row("cudaStreamPerThread", "hipStreamPerThread", "macro"),
    _row("CUDART_VERSION", "HIP_VERSION", "macro"),
    _row("__CUDA_RUNTIME_H__", "HIP_INCLUDE_HIP_HIP_RUNTIME_H", "macro"),
    _row("dim3", "dim3", "type"),
    # driver
    _row("CUresult", "hipError_t", "type", "driver"),
    _row("CUDA_SUCCESS", "hipSuccess", "enum_constant", "driver"),
    _row("CUdevice", "hipDevice_t", "type", "driver"),
    _row("cuInit", "hipInit", api="driver"),
    _row("cuDeviceGet", "hipDeviceGet", api="driver"),
    _row("CUstream", "hipStream_t", "type", "driver"),
    # device
    _row("__syncthreads", "__syncthreads", "device_function", "device"),
    _row("atomicAdd", "atomicAdd", "device_function", "device"),
    _row("__shfl_down_sync", "__shfl_down_sync", "device_function", "device", hip_since="6.2", hip_requires=WARP),
    _row("__shfl_xor_sync", "__shfl_xor_sync", "device_function", "device", hip_since="6.2", hip_requires=WARP),
    _row("__ballot_sync", "__ballot_sync", "device_function", "device", hip_since="6.2", hip_requires=WARP),
    _row("__shfl_down", "__shfl_down", "device_function", "device"),
    # headers
    _row("cuda_runtime.h", "hip/hip_runtime.h", "header"),
    _row("cuda.h", "hip/hip_runtime.h", "header", "driver"),
    _row("cuda_runtime_api.h", "hip/hip_runtime.h", "header"),
    _row("cuda_fp16.h", "hip/hip_fp16.h", "header", "device"),
    _row("cublas_v2.h", "hipblas/hipblas.h", "header", "blas", roc="rocblas/rocblas.h", roc_status="supported"),
    _row("cublas.h", "hipblas/hipblas.h", "header", "blas", roc="rocblas/rocblas.h", roc_status="supported"),
    _row("curand.h", "hiprand/hiprand.h", "header", "rand", roc="rocrand/rocrand.h", roc_status="supported"),
    _row("cufft.h", "hipfft/hipfft.h", "header", "fft"),
    _row("cub/cub.cuh", "hipcub/hipcub.hpp", "header", "cub"),
    _row("cudnn.h", "hipdnn.h", "header", "dnn", roc="miopen/miopen.h", roc_status="supported"),
    # libraries
    _row("cublasHandle_t", "hipblasHandle_t", "type", "blas", roc="rocblas_handle", roc_status="supported"),
    _row("cublasCreate", "hipblasCreate", api="blas", roc="rocblas_create_handle", roc_status="supported"),
    _row("cublasDestroy", "hipblasDestroy", api="blas", roc="rocblas_destroy_handle", roc_status="supported"),
    _row("cublasSgemm", "hipblasSgemm", api="blas", roc="rocblas_sgemm", roc_status="supported"),
    _row("CUBLAS_OP_N", "HIPBLAS_OP_N", "enum_constant", "blas", roc="rocblas_operation_none", roc_status="supported"),
    _row(
        "CUBLAS_STATUS_SUCCESS",
        "HIPBLAS_STATUS_SUCCESS",
        "enum_constant",
        "blas",
        roc="rocblas_status_success",
        roc_status="supported",
    ),
    _row("curandGenerator_t", "hiprandGenerator_t", "type", "rand"),
    _row("curandCreateGenerator", "hiprandCreateGenerator", api="rand"),
    _row("cub::DeviceReduce", "hipcub::DeviceReduce", "type", "cub"),
    _row("cub::BlockReduce", "hipcub::BlockReduce", "type", "cub"),
    _row("cudnnHandle_t", "", "type", "dnn", roc="miopenHandle_t", roc_status="supported"),
    _row("cudnnCreate", "", api="dnn", roc="miopenCreate", roc_status="supported"),
    # fixture-only statuses and transforms
    _row("cudaProfilerInitialize", "", note="fixture"),
    _row("cudaThreadSynchronize", "hipDeviceSynchronize", hip_status="deprecated", note="fixture"),
    _row("cudaBindTexture", "hipBindTexture", hip_status="removed", note="fixture"),
    _row("cudaGraphExperimentalThing", "hipGraphExperimentalThing", hip_status="experimental", note="fixture"),
    _row("cudaFuncNewThing", "hipFuncNewThing", hip_since="7.1", note="fixture"),
    # A row first seen in 6.4 tells the planner 6.4 was scanned, so 7.1 rows are certainly missing in 6.4.
    _row("cudaFuncOlderThing", "hipFuncOlderThing", hip_since="6.4", note="fixture"),
    _row("cudaEventCreateWithFlags", "hipEventCreateWithFlags", note="fixture"),
    _row(
        "cudaStreamCreateFixture",
        "hipStreamCreate",
        transform=Transform(kind="by_arity", arity=((2, "hipStreamCreateWithFlags"),)),
        note="fixture",
    ),
    _row("cudaPos", "hipPos", "field", note="fixture"),
    # transforms and required macros the shipped table is growing (same shapes as its rows)
    _row("CUDART_CB", "", "macro", transform=Transform(kind="remove")),
    _row("CUDARTAPI", "", "macro", transform=Transform(kind="remove")),
    _row("cudaFuncSetAttribute", "hipFuncSetAttribute", transform=Transform(kind="wrap_arg", arg=0, wrapper=VOID_CAST)),
    _row(
        "cudaFuncGetAttributes", "hipFuncGetAttributes", transform=Transform(kind="wrap_arg", arg=1, wrapper=VOID_CAST)
    ),
    _row("cudaFuncSetAttributeOld", "hipFuncSetAttribute", hip_status="deprecated", note="fixture"),
    _row("__fadd_rz", "__fadd_rz", "device_function", "device", hip_requires=OCML),
    _row("__fmul_rz", "__fmul_rz", "device_function", "device", hip_requires=OCML),
    _row("__shfl_sync", "__shfl_sync", "device_function", "device", hip_since="6.2", hip_requires=WARP),
    _row("__syncwarp", "__syncwarp", "device_function", "device"),
    _row("__activemask", "__activemask", "device_function", "device", hip_requires=WARP),
)


def fixture_table() -> MappingTable:
    return MappingTable.from_rows(FIXTURE_ROWS)


def shipped_table_available() -> bool:
    return bool(table_files())


@pytest.fixture(scope="session")
def small_table() -> MappingTable:
    """Fixture rows only: for rule tests that need exact statuses."""
    return fixture_table()


@pytest.fixture(scope="session")
def table() -> MappingTable:
    """The shipped table when generated, else the fixture table."""
    return load_table() if shipped_table_available() else fixture_table()


def options_from_flags(line: str) -> Options:
    """Options for a golden case's flags line, parsed by the CLI's own parser."""
    from hipify.cli.cli import build_parser, options_from_args

    args = build_parser().parse_args(shlex.split(line))
    return options_from_args(args)


def case_flags(text: str) -> str:
    first = text.split("\n", 1)[0]
    return first[len(FLAGS_PREFIX) :].strip() if first.startswith(FLAGS_PREFIX) else ""


@dataclass(frozen=True)
class RocmCompiler:
    """ROCm's hipcc (6.2 or newer) and a folder it can read (inside the ROCm chroot when it runs there)."""

    toolchain: Toolchain
    work: Path

    def compile(
        self, source: Path, archs: Sequence[str] = ("gfx90a",), timeout: int = 900
    ) -> subprocess.CompletedProcess[str]:
        """``hipcc -c`` of one file for the given AMD targets, as translated code is compiled."""
        tc = self.toolchain
        cmd = [*tc.hipcc, *(f"--offload-arch={a}" for a in archs), "-std=c++17", "-x", "hip", "-c"]
        cmd += [tc.inner_path(str(source)), "-o", "/dev/null"]
        return subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **tc.env}, timeout=timeout)


@pytest.fixture
def rocm(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[RocmCompiler]:
    """ROCm's hipcc for a compile test, or the test skips and says how to get it."""
    from hipify.validate.toolchain import detect

    toolchains = [t for t in detect() if t.rocm_version >= (6, 2)]
    if not toolchains:
        pytest.skip("no ROCm >= 6.2 hipcc (run .ci/install_hip.sh to build the ROCm 6.4 chroot)")
    tc = toolchains[0]
    base = Path(tc.chroot) / "tmp" if tc.chroot else tmp_path
    work = base / f"hipify-test-{os.getpid()}-{abs(hash(request.node.nodeid))}"
    work.mkdir(parents=True, exist_ok=True)
    try:
        yield RocmCompiler(tc, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def rocm_toolchain(*parts: Part, at_least: tuple[int, int] = (6, 0)) -> Toolchain:
    """ROCm's toolchain (the one validation uses) with the ``parts`` a test needs besides hipcc (make, CMake, the
    host compilers, a library's link file), asked of the toolchain itself; or the test skips, saying what is
    missing and what completes it."""
    from hipify.validate.toolchain import detect

    found = detect(os.environ.get("HIPIFY_HIPCC") or None, os.environ.get("ROCM_CHROOT_DIR") or None)
    modern = [tc for tc in found if tc.rocm_version >= at_least]
    if not modern:
        wanted = ".".join(map(str, at_least))
        seen = ", ".join(tc.describe() for tc in found) or "none"
        pytest.skip(
            f"no ROCm >= {wanted} hipcc (found: {seen}): build the ROCm 6.4 chroot with `hipify-py validate --setup`"
            " (as root), or install ROCm"
        )
    reason = lacking(modern[0], parts)
    if reason:
        pytest.skip(reason)
    return modern[0]
