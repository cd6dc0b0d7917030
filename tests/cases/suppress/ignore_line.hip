#include <hip/hip_runtime.h>

void f(void** p) {
  cudaMalloc(p, 4);  // hipify-py: ignore
  hipFree(*p);
}
