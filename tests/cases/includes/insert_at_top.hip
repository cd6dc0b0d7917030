#include <hip/hip_runtime.h>

__global__ void noop() {}

void run() { noop<<<1, 1>>>(); }
