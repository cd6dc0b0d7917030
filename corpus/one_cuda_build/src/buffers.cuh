// Device buffers: stream-ordered allocation where the toolkit has it (CUDA 11.2), plain allocation before.
#pragma once
#include <cuda_runtime.h>

template <typename T>
cudaError_t buffer_alloc(T** p, size_t count, cudaStream_t stream) {
#if CUDART_VERSION >= 11020
  return cudaMallocAsync(reinterpret_cast<void**>(p), count * sizeof(T), stream);
#else
  (void)stream;
  return cudaMalloc(reinterpret_cast<void**>(p), count * sizeof(T));
#endif
}

template <typename T>
cudaError_t buffer_free(T* p, cudaStream_t stream) {
#if CUDART_VERSION >= 11020
  return cudaFreeAsync(p, stream);
#else
  (void)stream;
  return cudaFree(p);
#endif
}
