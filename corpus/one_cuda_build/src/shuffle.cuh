// A warp sum written for both sides of CUDA 9's warp-synchronous shuffles.
#pragma once
#include <cuda_runtime.h>

__device__ inline int warp_sum(int v) {
#if CUDART_VERSION >= 9000
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset, 32);
#else
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down(v, offset, 32);
#endif
  return v;
}
