// A counter-based generator of our own (a 32-bit mix of the index and the seed): the same numbers on the host
// and on any GPU.
#pragma once
#include <cstdint>

__host__ __device__ inline uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

__host__ __device__ inline uint32_t draw(uint32_t seed, uint32_t index) { return mix32(index * 0x9e3779b9U ^ seed); }

// Fills out[0..n) with draws % modulus.
void fill_uniform(uint32_t* d_out, int n, uint32_t seed, uint32_t modulus);
