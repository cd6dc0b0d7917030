#ifndef MULTIFILE_STENCIL_CUH
#define MULTIFILE_STENCIL_CUH

#include <cuda_runtime.h>

namespace stencil {

constexpr int kRadius = 2;

// Shared by host reference and device kernels.
__host__ __device__ inline float weight(int offset) {
  return offset == 0 ? 0.5f : (offset == 1 || offset == -1 ? 0.125f : 0.0625f);
}

__host__ __device__ inline int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

// Launches one smoothing step out = S(in) on `stream`.
void smooth(const float* in, float* out, int n, cudaStream_t stream);

// Runs `steps` smoothing steps as a captured CUDA graph, ping-ponging between a and b;
// returns the buffer holding the result.
float* smooth_steps_graph(float* a, float* b, int n, int steps, cudaStream_t stream);

}  // namespace stencil

#endif  // MULTIFILE_STENCIL_CUH
