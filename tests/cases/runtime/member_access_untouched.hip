#include <hip/hip_runtime.h>
#include "wrapper.h"  // struct Wrapper { int cudaMalloc; void cudaFree(); };

void use(Wrapper& w, Wrapper* p) {
  w.cudaMalloc = 1;
  p->cudaFree();
  w . cudaMalloc += 2;
  hipFree(nullptr);
}
