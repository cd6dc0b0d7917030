#include <cuda_runtime.h>

void sync_default() {
  cudaStreamSynchronize(cudaStreamPerThread);
}
