#include <hip/hip_runtime.h>

#define cudaCheck(x) (x)
#define CUDA_SAFE_CALL(x) cudaCheck(x)

void f(void** p) {
  CUDA_SAFE_CALL(hipMalloc(p, 16));
}
