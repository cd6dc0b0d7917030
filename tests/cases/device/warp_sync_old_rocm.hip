// hipify-py-flags: --rocm 6.1
#include <hip/hip_runtime.h>

__global__ void k(int* x) {
  x[0] = __shfl_down(x[0], 1);
}
