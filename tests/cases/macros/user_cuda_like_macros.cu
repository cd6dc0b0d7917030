#include <cuda_runtime.h>

#define cudaCheck(x) (x)
#define CUDA_SAFE_CALL(x) cudaCheck(x)

void f(void** p) {
  CUDA_SAFE_CALL(cudaMalloc(p, 16));
}
