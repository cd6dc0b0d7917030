#include "hip/hip_runtime.h"
#include "my_kernels.cuh"

void f() { hipDeviceSynchronize(); }
