// hipify-py-flags: --engine clang
#include <cuda_runtime.h>
#include "generated/config_that_is_not_here.h"

// Code the parser cannot fully understand (a missing header, unknown macros and types)
// is still translated: AST facts where they exist, tokens for the rest.
__global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void run(int n) {
  float *x, *y;
  CONFIG_ASSERT(n > 0);
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  UnknownType plan = make_plan(cudaMemcpyHostToDevice, n);
  axpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(y);
}
