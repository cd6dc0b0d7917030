#include <hip/hip_runtime.h>

extern "C" int real_init(int x) { return x + 1; }
#if !defined(__HIP_DEVICE_COMPILE__)
#pragma weak pinit = real_init
#pragma weak pfinish
#endif

__global__ void k(int *a) { a[threadIdx.x] = 1; }
