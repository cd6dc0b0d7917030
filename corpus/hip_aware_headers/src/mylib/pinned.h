// Page-locked host buffers, recognised by their pointer attributes.
#ifndef MYLIB_PINNED_H
#define MYLIB_PINNED_H

#ifdef MYLIB_USE_GPU
#include "mylib/gpu_utils.hu"

inline bool mylib_is_pinned(const void* p) {
  cudaPointerAttributes attributes;
  if (!MYLIB_CHECK(cudaPointerGetAttributes(&attributes, p))) return false;
#if CUDART_VERSION >= 10000
  return attributes.type == cudaMemoryTypeHost;
#else
  return attributes.memoryType == cudaMemoryTypeHost;
#endif
}
#endif  // MYLIB_USE_GPU

#endif  // MYLIB_PINNED_H
