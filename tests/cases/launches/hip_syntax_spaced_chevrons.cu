// hipify-py-flags: --hip-kernel-execution-syntax
#include <cuda_runtime.h>

__global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }

void run(float* x) {
  scale << < 1, 32 >> > (x, 2.0f);
}
