#include "rng.cuh"

__global__ void fill_kernel(uint32_t* out, int n, uint32_t seed, uint32_t modulus) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = draw(seed, (uint32_t)i) % modulus;
}

void fill_uniform(uint32_t* d_out, int n, uint32_t seed, uint32_t modulus) {
  int block = 128;
  // nvcc reads a launch written with blanks inside the chevrons; clang does not
  fill_kernel << < (n + block - 1) / block, block >> > (d_out, n, seed, modulus);
}
