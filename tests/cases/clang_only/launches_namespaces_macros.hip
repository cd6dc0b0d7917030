// hipify-py-flags: --engine clang --hip-kernel-execution-syntax
#include <hip/hip_runtime.h>

#define CHECK_LAUNCH(expr) do { (expr); hipGetLastError(); } while (0)

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

void advance(float* state, int n, hipStream_t s) {
  CHECK_LAUNCH((hipLaunchKernelGGL(HIP_KERNEL_NAME(kernels::step<256>), dim3((n + 255) / 256), dim3(256), 0, s, state, n)));
  CHECK_LAUNCH((hipLaunchKernelGGL(HIP_KERNEL_NAME(kernels::scale), dim3(1), dim3(64), 0, 0, state, 2.0f)));
  CHECK_LAUNCH((hipLaunchKernelGGL(legacy::scale, dim3(1), dim3(64), 0, 0, state, 0.5f)));
}
}  // namespace physics
