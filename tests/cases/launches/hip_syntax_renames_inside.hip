// hipify-py-flags: --hip-kernel-execution-syntax
#include <hip/hip_runtime.h>

__global__ void k(hipStream_t* s, int v) {}

void run(hipStream_t s) {
  hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, hipStreamPerThread, &s, hipSuccess);
}
