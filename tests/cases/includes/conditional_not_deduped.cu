#ifdef USE_DRIVER
#include <cuda.h>
#else
#include <cuda_runtime.h>
#endif
#include <cuda_runtime_api.h>

void f() { cudaDeviceSynchronize(); }
