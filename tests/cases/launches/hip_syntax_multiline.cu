// hipify-py-flags: --hip-kernel-execution-syntax
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float* x, float* y) {}

void run(int n, float a, const float* x, float* y, cudaStream_t stream) {
  saxpy<<<(n + 255) / 256,
          256,
          0,
          stream>>>(n,
                    a,  // scale
                    x, y);
}
