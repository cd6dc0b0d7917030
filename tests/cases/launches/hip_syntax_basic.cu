// hipify-py-flags: --hip-kernel-execution-syntax
#include <cuda_runtime.h>

__global__ void add(int n, const float* x, float* y) {}
__global__ void noargs() {}

void run(int n, const float* x, float* y, cudaStream_t s) {
  dim3 grid((n + 255) / 256), block(256);
  add<<<grid, block>>>(n, x, y);
  add<<<grid, block, 64>>>(n, x, y);
  add<<<grid, block, 0, s>>>(n, x, y);
  add<<<dim3(4, 4), dim3(16, 16), 0, s>>>(n, x, y);
  noargs<<<1, 1>>>();
  noargs<<<1, 1, 0, s>>>( );
}
