// A read-only load with an inline-PTX fast path for CUDA 9 and later, and a portable one before.
#pragma once
#include <cuda_runtime.h>

__device__ inline int load_read_only(const int* p) {
#if __CUDACC_VER_MAJOR__ >= 9
  int v;
  asm volatile("ld.global.nc.s32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
#else
  return __ldg(p);
#endif
}
