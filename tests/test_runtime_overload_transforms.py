"""The CUDA runtime's C++ forms HIP lacks: typed-pointer templates (cudaHostGetDevicePointer(float**, ...)) and
default arguments (cudaMalloc3DArray's flags): the transforms derived from the two declarations, and the
translation."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify.knowledge.table import Transform
from hipify.options import Options
from hipify.tablegen.headers import build_index
from hipify.tablegen.transforms import derive_transform
from hipify.translation.api import translate
from hipify.translation.engines import clang_status

CUDA = """
extern cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
extern cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc* desc,
                                     struct cudaExtent extent, unsigned int flags __dv(0));
extern cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags __dv(1));
#if defined(__cplusplus)
template<class T>
static __inline__ __host__ cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags) {
  return ::cudaHostGetDevicePointer((void**)(void*)pDevice, pHost, flags);
}
template<class T>
static __inline__ __host__ cudaError_t cudaMallocManaged(T **devPtr, size_t size, unsigned int flags = 1) {
  return ::cudaMallocManaged((void**)(void*)devPtr, size, flags);
}
#endif
"""
HIP = """
hipError_t hipHostGetDevicePointer(void** devPtr, void* hstPtr, unsigned int flags);
hipError_t hipMalloc3DArray(hipArray_t* array, const struct hipChannelFormatDesc* desc, struct hipExtent extent,
                            unsigned int flags);
hipError_t hipMallocManaged(void** dev_ptr, size_t size, unsigned int flags = 1);
template <class T> static inline hipError_t hipMallocManaged(T** devPtr, size_t size, unsigned int flags = 1);
"""


def _index(tmp_path: Path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text)
    return build_index([(name, path)])


def test_derived_transforms(tmp_path: Path) -> None:
    cuda, hip = _index(tmp_path, "c.h", CUDA), _index(tmp_path, "h.h", HIP)
    assert derive_transform(cuda, hip, "cudaHostGetDevicePointer", "hipHostGetDevicePointer") == Transform(
        kind="wrap_arg", arg=0, wrapper="reinterpret_cast<void**>"
    )
    assert derive_transform(cuda, hip, "cudaMalloc3DArray", "hipMalloc3DArray") == Transform(
        kind="default_args", values=(("3", "0"),)
    )
    # HIP has the template and the default: nothing to do
    assert derive_transform(cuda, hip, "cudaMallocManaged", "hipMallocManaged") is None


SOURCE = """#include <cuda_runtime.h>
void f(float* host, cudaArray_t* a, cudaChannelFormatDesc* desc, cudaExtent e) {
    float* dev;
    cudaHostGetDevicePointer(&dev, host, 0);
    cudaHostGetDevicePointer((void**)&dev, host, 0);
    cudaMalloc3DArray(a, desc, e);
    cudaMalloc3DArray(a, desc, e, cudaArraySurfaceLoadStore);
}
"""


@pytest.mark.parametrize("engine", ["regex", "clang"])
def test_translation(engine: str) -> None:
    usable, reason = clang_status()
    if engine == "clang" and not usable:
        pytest.skip(f"libclang unavailable: {reason}")
    out = translate(SOURCE, "f.cu", Options(engine=engine)).text
    assert "hipHostGetDevicePointer(reinterpret_cast<void**>(&dev), host, 0);" in out
    assert "hipHostGetDevicePointer((void**)&dev, host, 0);" in out
    assert "hipMalloc3DArray(a, desc, e, 0);" in out
    assert "hipMalloc3DArray(a, desc, e, hipArraySurfaceLoadStore);" in out
