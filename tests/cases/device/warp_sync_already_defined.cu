#define HIP_ENABLE_WARP_SYNC_BUILTINS
#include <cuda_runtime.h>

__global__ void k(int* x) { x[0] = __shfl_xor_sync(0xffffffff, x[0], 1); }
