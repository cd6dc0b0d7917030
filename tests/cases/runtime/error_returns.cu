#include <cuda_runtime.h>

cudaError_t launch_all(int n) {
  if (n <= 0) return cudaSuccess;
  cudaError_t status = cudaGetLastError();
  switch (status) {
    case cudaSuccess:
      break;
    default:
      return status;
  }
  return cudaPeekAtLastError();
}
