// hipify-py-flags: --engine clang
#include <cstdio>
#include <hip/hip_runtime.h>

#define CUDA_CHECK(call)                                                    \
  do {                                                                      \
    hipError_t err_ = (call);                                              \
    if (err_ != hipSuccess) {                                              \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                    \
              hipGetErrorString(err_));                                    \
    }                                                                       \
  } while (0)

__constant__ float coeffs[16];
__device__ int counter;

void sync_symbols(const float* host, int* back) {
  CUDA_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coeffs), host, 16 * sizeof(float)));
  CUDA_CHECK(hipMemcpyFromSymbol(back, HIP_SYMBOL(counter), sizeof(int)));
  void* where = nullptr;
  CUDA_CHECK(hipGetSymbolAddress(&where, HIP_SYMBOL(coeffs)));
}
