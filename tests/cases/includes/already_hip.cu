#include <hip/hip_runtime.h>

__global__ void noop() {}
