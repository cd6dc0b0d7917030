#include <roctracer/roctx.h>
#include "hipify_compat.h"
#include <hip/hip_runtime.h>

void step(hipStream_t stream) {
  NVTX3_FUNC_RANGE();
  nvtx3::scoped_range copy{"copy"};
  roctxRangePushA("inner");
  hipStreamSynchronize(stream);
  roctxRangePop();
  nvtx3::mark("done");
}
