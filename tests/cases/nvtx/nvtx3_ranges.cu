#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvtx3.hpp>
#include <cuda_runtime.h>

void step(cudaStream_t stream) {
  NVTX3_FUNC_RANGE();
  nvtx3::scoped_range copy{"copy"};
  nvtxRangePushA("inner");
  cudaStreamSynchronize(stream);
  nvtxRangePop();
  nvtx3::mark("done");
}
