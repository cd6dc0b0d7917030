#include <roctracer/roctx.h>
#include <hip/hip_runtime.h>

void annotate() {
  uint64_t id = roctxRangeStartA("phase");
  roctxMarkA("here");
  roctxRangeStop(id);
}
