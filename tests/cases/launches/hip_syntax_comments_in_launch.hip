// hipify-py-flags: --hip-kernel-execution-syntax
#include <hip/hip_runtime.h>

__global__ void k(int a, int b) {}

void run() {
  hipLaunchKernelGGL(k, dim3(1), dim3(/* block */ 64), 0, 0, 1, /* b */ 2);
}
