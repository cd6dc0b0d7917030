#include <cuda_runtime.h>

void f(void* d, const void* s, size_t n) {
  cudaMemcpy(d, s, n, cudaMemcpyKind::cudaMemcpyHostToDevice);
}
