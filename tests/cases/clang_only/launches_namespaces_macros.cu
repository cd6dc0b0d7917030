// hipify-py-flags: --engine clang --hip-kernel-execution-syntax
#include <cuda_runtime.h>

#define CHECK_LAUNCH(expr) do { (expr); cudaGetLastError(); } while (0)

namespace physics {
namespace kernels {
template <int BLOCK>
__global__ void step(float* state, int n) {
  __shared__ float tile[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  tile[threadIdx.x] = i < n ? state[i] : 0.0f;
  __syncthreads();
  if (i < n) state[i] = tile[threadIdx.x] * 0.5f;
}

template <typename T>
__global__ void scale(T* data, T factor) { data[threadIdx.x] *= factor; }
}  // namespace kernels

// Same name, not a template: its launch needs no HIP_KERNEL_NAME.
namespace legacy {
__global__ void scale(float* data, float factor) { data[threadIdx.x] *= factor; }
}  // namespace legacy

void advance(float* state, int n, cudaStream_t s) {
  CHECK_LAUNCH((kernels::step<256><<<(n + 255) / 256, 256, 0, s>>>(state, n)));
  CHECK_LAUNCH((kernels::scale<<<1, 64>>>(state, 2.0f)));
  CHECK_LAUNCH((legacy::scale<<<1, 64>>>(state, 0.5f)));
}
}  // namespace physics
