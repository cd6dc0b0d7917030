"""The single-source header beside HIP's own switches: whichever order the project includes HIP's headers and ours
in, and however it sets HIP_ENABLE_WARP_SYNC_BUILTINS / HIP_DISABLE_WARP_SYNC_BUILTINS, the warp *_sync functions
(with 32-bit masks, as CUDA code passes them) and cooperative groups compile. Compiled with every ROCm hipcc found
(6.x reads HIP_ENABLE_..., 7.x HIP_DISABLE_...)."""

from __future__ import annotations

from pathlib import Path

import pytest
from shim_builds import hipcc_errors, release_workdirs, write_files

from hipify.options import Options
from hipify.shim import PRE_INCLUDED, plan_shim, render_header, render_include_dir

WARP_CODE = """\
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void warp(float* d, unsigned mask) {
  float v = d[threadIdx.x];
  v += __shfl_xor_sync(0xffffffff, v, 1);
  v += __shfl_sync(mask, v, 0) + __shfl_up_sync(mask, v, 1) + __shfl_down_sync(0xffffffffu, v, 1);
  unsigned long long b = __ballot_sync(0xffffffff, v > 0) + __any_sync(mask, v > 1) + __all_sync(0xffffffff, v > 2);
  int p = 0;
  b += __match_any_sync(mask, (int)v) + __match_all_sync(0xffffffff, (int)v, &p);
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  d[threadIdx.x] = v + (float)(b + p) + tile.shfl_down(v, 1);
}
"""
# What the project includes before the header (a HIP header of its own: HIP's device headers are read first).
ORDERS = {"header first": "", "HIP's fp16 header first": "#include <hip/hip_fp16.h>\n"}
SWITCHES = {"none": "", "enable": "-DHIP_ENABLE_WARP_SYNC_BUILTINS", "disable": "-DHIP_DISABLE_WARP_SYNC_BUILTINS"}


@pytest.mark.hipcc
def test_the_header_compiles_in_any_include_order_and_with_any_warp_sync_switch(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    failures: list[str] = []
    for tc, work in release_workdirs(tmp_path, request, "coexist"):
        (work / "warp.cu").write_text(WARP_CODE)
        plan = plan_shim({str(work / "warp.cu"): WARP_CODE}, Options(rocm_version=tc.rocm_version))
        (work / "hip_shim.h").write_text(render_header(plan, "hip_shim.h"))
        body = "\n".join(line for line in WARP_CODE.splitlines() if not line.startswith("#include <c"))
        for i, (order, first) in enumerate(ORDERS.items()):
            source = work / f"order{i}.cu"
            source.write_text(f'{first}#include "hip_shim.h"\n{body}\n')
            for switch, flag in SWITCHES.items():
                errors = hipcc_errors(
                    tc, ["-c", *([flag] if flag else []), tc.inner_path(str(source)), "-o", "/dev/null"]
                )
                if errors:
                    failures.append(f"{tc.describe()}: {order}, switch {switch}: {errors}")
    assert not failures, "\n".join(failures)


LIBRARIES = """\
#include <cuda_runtime.h>
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <curand_kernel.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cublas_v2.h>

__global__ void k(float* d) {
  typedef cub::BlockReduce<float, 64> Reduce;
  __shared__ typename Reduce::TempStorage scratch;
  d[0] = Reduce(scratch).Sum(d[threadIdx.x]);
}
int main() {
  thrust::device_vector<int> v(4);
  thrust::sort(thrust::cuda::par, v.begin(), v.end());
  cublasHandle_t h;
  return cublasCreate(&h) == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
"""


@pytest.mark.hipcc
def test_each_generated_header_compiles_alone_on_every_release_and_warp_sync_setting(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Every header of the include folder by itself (cub/cub.cuh, thrust's execution policy, cooperative groups,
    ...) and the project using them all (thrust::cuda::par: rocThrust's own ``hip`` namespace, never one of ours)."""
    failures: list[str] = []
    for tc, work in release_workdirs(tmp_path, request, "alone"):
        folder = work / "hip-include"
        (work / "main.cu").write_text(LIBRARIES)
        plan = plan_shim({str(work / "main.cu"): LIBRARIES}, Options(rocm_version=tc.rocm_version))
        files = render_include_dir(plan)
        write_files(folder, files)
        sources = [work / "main.cu"]
        for i, relative in enumerate(sorted(f for f in files if f != PRE_INCLUDED)):
            alone = work / f"alone{i}.cu"
            alone.write_text(f"#include <{relative}>\n")
            sources.append(alone)
        for source in sources:
            for switch, flag in SWITCHES.items():
                args = ["-fsyntax-only", "-I", tc.inner_path(str(folder)), *([flag] if flag else [])]
                errors = hipcc_errors(tc, [*args, tc.inner_path(str(source))])
                if errors:
                    what = source.read_text().strip() if source.name.startswith("alone") else source.name
                    failures.append(f"{tc.describe()}: {what}, switch {switch}: {errors}")
    assert not failures, "\n".join(failures)


HOST_CALLS = """\
#include <cuda_runtime.h>
#include <cublas_v2.h>

cudaError_t advise(void* p, size_t n, int device) {
  // CUDA 12's form (a device number) and CUDA 13's (a location): the header takes either
  cudaError_t first = cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, device);
  cudaMemLocation where = {};
  where.type = cudaMemLocationTypeDevice;
  where.id = device;
  cudaError_t second = cudaMemAdvise(p, n, cudaMemAdviseSetPreferredLocation, where);
  return first != cudaSuccess ? first : second;
}

cublasStatus_t batched(cublasHandle_t h, const void** a, const void** b, void** c, int n) {
  const float one = 1.0f;
  return cublasGemmBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_16F, n, b, CUDA_R_16F, n, &one,
                             c, CUDA_R_32F, n, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
"""


@pytest.mark.hipcc
def test_host_calls_whose_hip_form_changed_between_releases_compile_on_each(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """cudaMemAdvise in both CUDA versions' forms (ROCm 7 has a function for each, 6.4 only the older one, which
    the older form needs) and cublasGemmBatchedEx with CUDA's data types (6.4 takes them in its _v2 only)."""
    failures: list[str] = []
    for tc, work in release_workdirs(tmp_path, request, "host"):
        text = (
            HOST_CALLS
            if tc.rocm_version >= (7, 0)
            else HOST_CALLS.replace(
                HOST_CALLS[HOST_CALLS.index("  cudaMemLocation") : HOST_CALLS.index("  return first")],
                "  cudaError_t second = first;\n",
            )
        )
        (work / "host.cu").write_text(text)
        plan = plan_shim({str(work / "host.cu"): text}, Options(rocm_version=tc.rocm_version))
        (work / "hip_shim.h").write_text(render_header(plan, "hip_shim.h"))
        body = "\n".join(line for line in text.splitlines() if not line.startswith("#include <"))
        (work / "use.cu").write_text(f'#include "hip_shim.h"\n{body}\n')
        errors = hipcc_errors(tc, ["-fsyntax-only", tc.inner_path(str(work / "use.cu"))])
        if errors:
            failures.append(f"{tc.describe()}: {errors}")
    assert not failures, "\n".join(failures)
