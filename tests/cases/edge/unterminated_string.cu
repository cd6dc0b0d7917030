#include <cuda_runtime.h>
const char* s = "never closed cudaFree
void f() { cudaDeviceSynchronize(); }
