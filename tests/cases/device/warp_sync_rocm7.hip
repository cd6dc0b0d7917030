// ROCm 7 declares the warp *_sync builtins by default: nothing is defined for them (6.x: warp_sync_define).
#include <hip/hip_runtime.h>

__global__ void reduce(float* out, const float* in) {
  float v = in[threadIdx.x];
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_down_sync(0xffffffffffffffffULL, v, off);
  unsigned long long mask = __ballot_sync(0xffffffffffffffffULL, v > 0.f);
  if (threadIdx.x == 0) atomicAdd(out, v + mask);
}
