// hipify-py-flags: --miopen

#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

void make() {
  miopenHandle_t h;
  miopenCreate(&h);
}
