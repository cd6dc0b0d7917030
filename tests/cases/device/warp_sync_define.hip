// hipify-py-flags: --rocm 6.4
#define HIP_ENABLE_WARP_SYNC_BUILTINS
#include <hip/hip_runtime.h>

__global__ void reduce(float* out, const float* in) {
  float v = in[threadIdx.x];
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_down_sync(0xffffffffffffffffULL, v, off);
  unsigned long long mask = __ballot_sync(0xffffffffffffffffULL, v > 0.f);
  if (threadIdx.x == 0) atomicAdd(out, v + mask);
}
