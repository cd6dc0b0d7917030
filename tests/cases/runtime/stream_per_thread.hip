#include <hip/hip_runtime.h>

void sync_default() {
  hipStreamSynchronize(hipStreamPerThread);
}
