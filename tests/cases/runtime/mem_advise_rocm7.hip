// On ROCm 7, hipMemAdvise_v2 and hipMemPrefetchAsync_v2 take CUDA 13's cudaMemLocation. A prefetch in
// CUDA 12's form (four arguments: a device number) still becomes hipMemPrefetchAsync, chosen by its count of
// arguments; an advice has as many arguments in both forms, so it is marked for review (HPY113), naming
// hipMemAdvise for CUDA 12's (6.x: mem_advise_cuda13).
#include <hip/hip_runtime.h>

void prefetch(float* data, size_t bytes, int device, hipStream_t stream) {
  hipMemAdvise_v2(data, bytes, hipMemAdviseSetPreferredLocation, device);
  hipMemPrefetchAsync(data, bytes, device, stream);
}
