// hipify-py-flags: --hip-kernel-execution-syntax
#include <cuda_runtime.h>

__global__ void k(int a, int b) {}

void run() {
  k<<<1, /* block */ 64>>>(1, /* b */ 2);
}
