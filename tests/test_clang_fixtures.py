"""A small mapping table for the clang engine's tests, independent of the generated one."""

from __future__ import annotations

from hipify.knowledge.table import MappingTable, Row, Transform


def _s(cuda: str, hip: str, kind: str = "function", **kw: object) -> Row:
    return Row(cuda=cuda, hip=hip, kind=kind, hip_status="supported", **kw)  # type: ignore[arg-type]


ROWS = (
    _s("cuda_runtime.h", "hip/hip_runtime.h", "header"),
    _s("cuda.h", "hip/hip_runtime.h", "header"),
    _s("cudaMalloc", "hipMalloc"),
    _s("cudaFree", "hipFree"),
    _s("cudaMemcpy", "hipMemcpy"),
    _s("cudaMallocHost", "hipHostMalloc"),
    _s("cudaGetLastError", "hipGetLastError"),
    _s("cudaGetErrorString", "hipGetErrorString"),
    _s("cudaDeviceSynchronize", "hipDeviceSynchronize"),
    _s("cudaDeviceReset", "hipDeviceReset"),
    _s("cudaStreamCreate", "hipStreamCreate"),
    _s("cudaEventCreate", "hipEventCreate", transform=Transform("by_arity", arity=((2, "hipEventCreateWithFlags"),))),
    _s("cudaEventRecord", "hipEventRecord"),
    _s("cudaMemcpyToSymbol", "hipMemcpyToSymbol", transform=Transform("wrap_arg", arg=0, wrapper="HIP_SYMBOL")),
    _s("cudaGetDeviceProperties", "hipGetDeviceProperties"),
    _s("cudaError_t", "hipError_t", "type"),
    _s("cudaEvent_t", "hipEvent_t", "type"),
    _s("cudaStream_t", "hipStream_t", "type"),
    _s("cudaDeviceProp", "hipDeviceProp_t", "type"),
    _s("totalGlobalMem", "totalGlobalMem", "field", parent="cudaDeviceProp"),
    _s("cudaError", "hipError_t", "enum"),
    _s("cudaSuccess", "hipSuccess", "enum_constant", parent="cudaError"),
    _s("cudaErrorMemoryAllocation", "hipErrorOutOfMemory", "enum_constant", parent="cudaError"),
    _s("cudaMemcpyKind", "hipMemcpyKind", "enum"),
    _s("cudaMemcpyHostToDevice", "hipMemcpyHostToDevice", "enum_constant", parent="cudaMemcpyKind"),
    _s("cudaMemcpyDeviceToHost", "hipMemcpyDeviceToHost", "enum_constant", parent="cudaMemcpyKind"),
    _s("cudaStreamNonBlocking", "hipStreamNonBlocking", "macro"),
    _s("__syncthreads", "__syncthreads", "device_function"),
    _s("atomicAdd", "atomicAdd", "device_function"),
    _s("cub", "hipcub", "namespace"),
    Row(cuda="cudaBindTexture", kind="function", hip_status="unsupported"),
)

TABLE = MappingTable.from_rows(ROWS)
