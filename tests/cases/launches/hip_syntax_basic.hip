// hipify-py-flags: --hip-kernel-execution-syntax
#include <hip/hip_runtime.h>

__global__ void add(int n, const float* x, float* y) {}
__global__ void noargs() {}

void run(int n, const float* x, float* y, hipStream_t s) {
  dim3 grid((n + 255) / 256), block(256);
  hipLaunchKernelGGL(add, dim3(grid), dim3(block), 0, 0, n, x, y);
  hipLaunchKernelGGL(add, dim3(grid), dim3(block), 64, 0, n, x, y);
  hipLaunchKernelGGL(add, dim3(grid), dim3(block), 0, s, n, x, y);
  hipLaunchKernelGGL(add, dim3(4, 4), dim3(16, 16), 0, s, n, x, y);
  hipLaunchKernelGGL(noargs, dim3(1), dim3(1), 0, 0);
  hipLaunchKernelGGL(noargs, dim3(1), dim3(1), 0, s);
}
