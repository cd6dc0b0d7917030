// hipify-py-flags: --hip-kernel-execution-syntax
#include <cub/cub.cuh>

namespace cub {
template <typename T> __global__ void Helper(T* p) {}
}

void run(float* p) {
  cub::Helper<float><<<1, 1>>>(p);
}
