#include <cuda_runtime.h>

const char* kSrc = R"cuda(
__global__ void k() { cudaMalloc(0, 0); }
)" still inside )cuda";

void f() { cudaDeviceSynchronize(); }
