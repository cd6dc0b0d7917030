#include <nvToolsExt.h>
#include <cuda_runtime.h>

// NVTX 2's bare header (CUDA 12 and older): the same C API as NVTX 3's
void step(cudaStream_t stream) {
  nvtxRangePushA("inner");
  cudaStreamSynchronize(stream);
  nvtxRangePop();
  nvtxMarkA("done");
  nvtxRangeId_t id = nvtxRangeStartA("outer");
  nvtxRangeEnd(id);
}
