#include <cuda_runtime.h>
void f() { cudaDeviceSynchronize(); }
/* never closed cudaFree
