// Device algorithms: the interop header is included whatever the GPU build.
#ifndef MYLIB_ALGORITHMS_CUH
#define MYLIB_ALGORITHMS_CUH

#ifdef MYLIB_USE_GPU
#ifndef MYLIB_USE_ROCM
#include <cuda_runtime.h>
#endif
#include "mylib/gpu_utils.hu"
#include "mylib/interop.h"

// Counts the even values of in[0..n) into *count: per block in shared memory, then once per block globally.
__global__ void count_even(const int* in, int n, unsigned int* count) {
  __shared__ unsigned int block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (in[i] & 1) == 0) atomicAdd_block(&block_count, 1u);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(count, block_count);
}
#endif  // MYLIB_USE_GPU

#endif  // MYLIB_ALGORITHMS_CUH
