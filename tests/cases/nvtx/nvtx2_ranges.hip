#include <roctracer/roctx.h>
#include <hip/hip_runtime.h>

// NVTX 2's bare header (CUDA 12 and older): the same C API as NVTX 3's
void step(hipStream_t stream) {
  roctxRangePushA("inner");
  hipStreamSynchronize(stream);
  roctxRangePop();
  roctxMarkA("done");
  uint64_t id = roctxRangeStartA("outer");
  roctxRangeStop(id);
}
