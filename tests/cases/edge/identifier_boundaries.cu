#include <cuda_runtime.h>

int mycudaMalloc = 0;
int cudaMalloc_count = 0;
int x_cudaFree = cudaMalloc_count + mycudaMalloc;
void f(void** p) { cudaMalloc(p, 1); }
