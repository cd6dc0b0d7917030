// hipify-py-flags: --engine clang
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                    \
  do {                                                                      \
    cudaError_t err_ = (call);                                              \
    if (err_ != cudaSuccess) {                                              \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                    \
              cudaGetErrorString(err_));                                    \
    }                                                                       \
  } while (0)

__constant__ float coeffs[16];
__device__ int counter;

void sync_symbols(const float* host, int* back) {
  CUDA_CHECK(cudaMemcpyToSymbol(coeffs, host, 16 * sizeof(float)));
  CUDA_CHECK(cudaMemcpyFromSymbol(back, counter, sizeof(int)));
  void* where = nullptr;
  CUDA_CHECK(cudaGetSymbolAddress(&where, coeffs));
}
