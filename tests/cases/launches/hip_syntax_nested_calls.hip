// hipify-py-flags: --hip-kernel-execution-syntax
#include <hip/hip_runtime.h>
#include <algorithm>

__global__ void k(int* p, int n) {}

int blocks_for(int n, int b) { return (n + b - 1) / b; }

void run(int* p, int n) {
  hipLaunchKernelGGL(k, dim3(blocks_for(n, std::min(256, n))), dim3(std::min(256, n)), 0, 0, p, std::max(n, 1));
}
