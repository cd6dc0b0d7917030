#include <hip/hip_runtime.h>

// A user function that happens to look like a CUDA API: it is declared here, so neither
// it nor its uses are renamed, and it is not reported as unknown.
static hipError_t cudaMallocZeroed(void** p, size_t n) {
  hipError_t e = hipMalloc(p, n);
  if (e == hipSuccess) e = hipMemset(*p, 0, n);
  return e;
}

void f(void** p) { cudaMallocZeroed(p, 16); }
