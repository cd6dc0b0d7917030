#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                    \
  do {                                                                      \
    cudaError_t err = (call);                                               \
    if (err != cudaSuccess) {                                               \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n",                      \
                   cudaGetErrorString(err), __FILE__, __LINE__);            \
      std::exit(EXIT_FAILURE);                                              \
    }                                                                       \
  } while (0)

void alloc(float** p, size_t n) {
  CUDA_CHECK(cudaMalloc(p, n * sizeof(float)));
  CUDA_CHECK(cudaMemset(*p, 0, n * sizeof(float)));
  CUDA_CHECK(cudaDeviceSynchronize());
}
