#include <cuda_runtime.h>

void f(void** p) {
  const long n = 1'000'000;
  cudaMalloc(p, n);
  char q = '\'';
  cudaFree(*p);
}
