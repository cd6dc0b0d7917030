#include "cuda_runtime.h"
#include "my_kernels.cuh"

void f() { cudaDeviceSynchronize(); }
