// hipify-py-flags: --hip-kernel-execution-syntax
#include <cuda_runtime.h>

__global__ void k(cudaStream_t* s, int v) {}

void run(cudaStream_t s) {
  k<<<1, 1, 0, cudaStreamPerThread>>>(&s, cudaSuccess);
}
