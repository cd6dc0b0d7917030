// hipify-py-flags: --hip-kernel-execution-syntax
#include <cuda_runtime.h>
#include <algorithm>

__global__ void k(int* p, int n) {}

int blocks_for(int n, int b) { return (n + b - 1) / b; }

void run(int* p, int n) {
  k<<<blocks_for(n, std::min(256, n)), std::min(256, n)>>>(p, std::max(n, 1));
}
