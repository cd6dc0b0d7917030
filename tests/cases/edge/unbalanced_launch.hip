// hipify-py-flags: --hip-kernel-execution-syntax
#include <hip/hip_runtime.h>

__global__ void k(int) {}

void run() {
  k<<<1, 1>>>(1;
}
