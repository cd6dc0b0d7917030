#include <cuda_runtime.h>

void f(void** p) { cudaMalloc(p, 4); }
/* hipify-py: off */
void g(void** p) { cudaMalloc(p, 4); }
