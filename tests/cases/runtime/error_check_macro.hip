#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define CUDA_CHECK(call)                                                    \
  do {                                                                      \
    hipError_t err = (call);                                               \
    if (err != hipSuccess) {                                               \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n",                      \
                   hipGetErrorString(err), __FILE__, __LINE__);            \
      std::exit(EXIT_FAILURE);                                              \
    }                                                                       \
  } while (0)

void alloc(float** p, size_t n) {
  CUDA_CHECK(hipMalloc(p, n * sizeof(float)));
  CUDA_CHECK(hipMemset(*p, 0, n * sizeof(float)));
  CUDA_CHECK(hipDeviceSynchronize());
}
