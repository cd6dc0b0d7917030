// hipify-py-flags: --rocm 6.4
// hipMemAdvise and hipMemPrefetchAsync take the declarations of CUDA 12 (a device number),
// which this code uses; CUDA 13 changed both to take a cudaMemLocation, so each use is
// marked for review (HPY113).
#include <cuda_runtime.h>

void prefetch(float* data, size_t bytes, int device, cudaStream_t stream) {
  cudaMemAdvise(data, bytes, cudaMemAdviseSetPreferredLocation, device);
  cudaMemPrefetchAsync(data, bytes, device, stream);
}
