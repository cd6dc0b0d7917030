// hipify-py-flags: --rocm 6.4
#include <cstdio>

__global__ void butterfly(int* x) {
  int v = x[threadIdx.x];
  v += __shfl_xor_sync(0xffffffff, v, 1);
  x[threadIdx.x] = v;
}
