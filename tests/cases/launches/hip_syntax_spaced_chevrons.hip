// hipify-py-flags: --hip-kernel-execution-syntax
#include <hip/hip_runtime.h>

__global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }

void run(float* x) {
  hipLaunchKernelGGL(scale, dim3(1), dim3(32), 0, 0, x, 2.0f);
}
