// header comment

#include <hip/hip_runtime.h>
#include <vector>

__global__ void k() {}
