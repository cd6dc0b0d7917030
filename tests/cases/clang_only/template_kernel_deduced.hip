// hipify-py-flags: --engine clang --hip-kernel-execution-syntax
#include <hip/hip_runtime.h>

// One name, two kernels: a template and a plain overload. Only the AST knows which one
// each launch calls, so only the template launch gets HIP_KERNEL_NAME.
template <typename T>
__global__ void fill(T* out, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

__global__ void fill(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.0f;
}

void run(float* f, int* d, int n, hipStream_t stream) {
  hipLaunchKernelGGL(HIP_KERNEL_NAME(fill), dim3((n + 255) / 256), dim3(256), 0, stream, d, 7, n);
  hipLaunchKernelGGL(fill, dim3((n + 255) / 256), dim3(256), 0, 0, f, n);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(fill<double>), dim3(1), dim3(32), 0, 0, nullptr, 1.0, 32);
}
