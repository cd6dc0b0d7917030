#include <cuda_runtime.h>

// A user function that happens to look like a CUDA API: it is declared here, so neither
// it nor its uses are renamed, and it is not reported as unknown.
static cudaError_t cudaMallocZeroed(void** p, size_t n) {
  cudaError_t e = cudaMalloc(p, n);
  if (e == cudaSuccess) e = cudaMemset(*p, 0, n);
  return e;
}

void f(void** p) { cudaMallocZeroed(p, 16); }
