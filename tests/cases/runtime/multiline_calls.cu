#include <cuda_runtime.h>

void copy(float* dst, const float* src, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(dst,
                  src,
                  n * sizeof(float),   // bytes
                  cudaMemcpyDeviceToDevice,
                  s);
  cudaStreamSynchronize(
      s);
}
