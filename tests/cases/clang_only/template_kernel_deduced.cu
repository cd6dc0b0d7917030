// hipify-py-flags: --engine clang --hip-kernel-execution-syntax
#include <cuda_runtime.h>

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

void run(float* f, int* d, int n, cudaStream_t stream) {
  fill<<<(n + 255) / 256, 256, 0, stream>>>(d, 7, n);
  fill<<<(n + 255) / 256, 256>>>(f, n);
  fill<double><<<1, 32>>>(nullptr, 1.0, 32);
}
