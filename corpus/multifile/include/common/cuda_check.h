// Error-check helpers shared by every translation unit, in the shape widely copied between
// projects: each family of helpers is compiled only when the header that declares its types was
// included first (tested through that header's include-guard macro).
#ifndef COMMON_CUDA_CHECK_H
#define COMMON_CUDA_CHECK_H

#include <cstdio>
#include <cstdlib>

#ifdef __CUDA_RUNTIME_H__
static inline void check_runtime(cudaError_t result, const char* expr, const char* file, int line) {
  if (result != cudaSuccess) {
    std::fprintf(stderr, "%s:%d: CUDA runtime error %s (%s) in %s\n", file, line, cudaGetErrorName(result),
                 cudaGetErrorString(result), expr);
    std::exit(EXIT_FAILURE);
  }
}
#define CHECK_CUDA(expr) check_runtime((expr), #expr, __FILE__, __LINE__)
#define CHECK_LAUNCH() CHECK_CUDA(cudaGetLastError())
#endif  // __CUDA_RUNTIME_H__

#ifdef __DRIVER_TYPES_H__
static inline const char* memcpy_kind_name(cudaMemcpyKind kind) {
  switch (kind) {
    case cudaMemcpyHostToDevice: return "H2D";
    case cudaMemcpyDeviceToHost: return "D2H";
    case cudaMemcpyDeviceToDevice: return "D2D";
    default: return "other";
  }
}
#endif  // __DRIVER_TYPES_H__

// CUDA-version dependent code paths, as real projects keep them.
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
#define COMMON_GRAPH_INSTANTIATE(exec, graph) cudaGraphInstantiate((exec), (graph), 0)
#else
#define COMMON_GRAPH_INSTANTIATE(exec, graph) cudaGraphInstantiate((exec), (graph), nullptr, nullptr, 0)
#endif

#if defined(CUDART_VERSION) && CUDART_VERSION >= 11020
#define COMMON_HAS_STREAM_ORDERED_ALLOC 1
#else
#define COMMON_HAS_STREAM_ORDERED_ALLOC 0
#endif

#endif  // COMMON_CUDA_CHECK_H
