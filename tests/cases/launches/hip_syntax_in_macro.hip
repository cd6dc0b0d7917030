// hipify-py-flags: --hip-kernel-execution-syntax
#include <hip/hip_runtime.h>

__global__ void k(float* p) {}

#define LAUNCH(kernel, grid, block, ...) \
  hipLaunchKernelGGL(kernel, dim3(grid), dim3(block), 0, 0, __VA_ARGS__)

#define LAUNCH_K(p) hipLaunchKernelGGL(k, dim3(1), dim3(32), 0, 0, p)

void run(float* p) {
  LAUNCH(k, 1, 32, p);
  LAUNCH_K(p);
}
