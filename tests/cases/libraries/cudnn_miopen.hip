// hipify-py-flags: --miopen

#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

void make() {
  cudnnHandle_t h;
  miopenCreate(&h);
}
