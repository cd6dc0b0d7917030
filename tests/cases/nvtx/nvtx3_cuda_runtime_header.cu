#include <nvtx3/nvToolsExtCudaRt.h>
#include <cuda_runtime.h>

void annotate() {
  nvtxRangeId_t id = nvtxRangeStartA("phase");
  nvtxMarkA("here");
  nvtxRangeEnd(id);
}
