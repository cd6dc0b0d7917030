// hipify-py-flags: --hip-kernel-execution-syntax
#include <hip/hip_runtime.h>

__global__ void saxpy(int n, float a, const float* x, float* y) {}

void run(int n, float a, const float* x, float* y, hipStream_t stream) {
  hipLaunchKernelGGL(saxpy, dim3((n + 255) / 256), dim3(256), 0, stream, n,
                    a,  // scale
                    x, y);
}
