// hipify-py-flags: --hip-kernel-execution-syntax
#include <cuda_runtime.h>

__global__ void k(float* p) {}

#define LAUNCH(kernel, grid, block, ...) \
  kernel<<<grid, block>>>(__VA_ARGS__)

#define LAUNCH_K(p) k<<<1, 32, 0, 0>>>(p)

void run(float* p) {
  LAUNCH(k, 1, 32, p);
  LAUNCH_K(p);
}
