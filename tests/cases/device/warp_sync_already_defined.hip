#define HIP_ENABLE_WARP_SYNC_BUILTINS
#include <hip/hip_runtime.h>

__global__ void k(int* x) { x[0] = __shfl_xor_sync(0xffffffffffffffffULL, x[0], 1); }
