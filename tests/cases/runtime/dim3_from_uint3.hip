// CUDA's dim3 converts from uint3; HIP's does not: make_uint3(...) going into a dim3 becomes dim3(...).

#include <hip/hip_runtime.h>
__global__ void fill(float* p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }

void launch(float* p, unsigned n) {
    dim3 grid;
    grid = dim3(n, 1, 1);
    dim3 block(dim3(64, 1, 1));
    dim3 other = dim3(1, 1, 1), plain;
    uint3 kept = make_uint3(1, 2, 3);  // a uint3: unchanged
    fill<<<grid, block>>>(p);
    fill<<<dim3(n, 1, 1), dim3(64, 1, 1)>>>(p);
}
