#include <hip/hip_runtime.h>

void f(void** p) {
  hipMalloc(p, 4);
  // hipify-py: off
  cudaMalloc(p, 8);
  cudaFree(*p);
  // hipify-py: on
  hipFree(*p);
}
