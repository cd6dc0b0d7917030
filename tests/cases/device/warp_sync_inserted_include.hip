// hipify-py-flags: --rocm 6.4

#define HIP_ENABLE_WARP_SYNC_BUILTINS
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void butterfly(int* x) {
  int v = x[threadIdx.x];
  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 1);
  x[threadIdx.x] = v;
}
