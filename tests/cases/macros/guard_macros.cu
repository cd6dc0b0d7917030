#include <cstdio>
#include <cuda_runtime.h>

#ifdef __CUDA_RUNTIME_H__
inline void check(cudaError_t e) {
  if (e != cudaSuccess) std::printf("%s\n", cudaGetErrorString(e));
}
#endif

#if CUDART_VERSION >= 11000
#define HAS_NEW_API 1
#endif
