#include <cuda_runtime.h>

void f(void** p) {
  cudaMalloc(p, 4);
  // hipify-py: off
  cudaMalloc(p, 8);
  cudaFree(*p);
  // hipify-py: on
  cudaFree(*p);
}
