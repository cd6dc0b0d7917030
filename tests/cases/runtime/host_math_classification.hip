// nvcc's runtime header makes isfinite, isnan, isinf and signbit callable unqualified in host
// code; the translation keeps them and includes the compatibility header, which provides them.

#include <hip/hip_runtime.h>
#include "hipify_compat.h"
#include <cmath>
#include <cstdio>

template <class T> bool all_finite(const T* ref, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(ref[i]) || isnan(ref[i]) || isinf(ref[i]) || signbit(ref[i])) return false;
  return true;
}

__global__ void clean(float* x) { x[threadIdx.x] = isnan(x[threadIdx.x]) ? 0.0f : x[threadIdx.x]; }

int main() {
  float f[2] = {1.0f, 2.0f};
  std::printf("%d %d\n", all_finite(f, 2), std::isnan(f[0]) ? 1 : 0);
  return 0;
}
