#include <hip/hip_runtime.h>
#include "hipify_compat.h"

// Full 32-bit lane masks become the 64-bit all-lanes mask ROCm >= 6.2 requires, written
// directly or through a macro defined here; any other mask is left as written (HPY107).
#define FULL_MASK 0xffffffffffffffffULL
#define HALF_MASK 0x0000ffffu

__global__ void reduce(float* out, const float* in, unsigned lanes) {
  float v = in[threadIdx.x];
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_down_sync(FULL_MASK, v, off);
  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 1);
  unsigned long long any = __ballot_sync(0xffffffffffffffffULL, v > 0.f);
  v += __shfl_xor_sync(HALF_MASK, v, 2);
  v += __shfl_xor_sync(lanes, v, 4);
  if (threadIdx.x == 0) atomicAdd(out, v + any);
}
