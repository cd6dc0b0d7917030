// hipify-py: skip-file
#include <cuda_runtime.h>

void f(void** p) { cudaMalloc(p, 4); }
