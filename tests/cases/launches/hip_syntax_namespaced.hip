// hipify-py-flags: --hip-kernel-execution-syntax
#include <hip/hip_runtime.h>

namespace kernels {
__global__ void zero(float* p) {}
}

void run(float* p, hipStream_t s) {
  hipLaunchKernelGGL(kernels::zero, dim3(1), dim3(1), 0, s, p);
}
