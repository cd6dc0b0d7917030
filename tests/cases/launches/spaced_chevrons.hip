#include <hip/hip_runtime.h>

template <typename T>
struct Box {
  friend Box operator<< <T>(Box, int);
};

__global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }

void run(float* x, hipStream_t stream) {
  scale <<< 1, 32 >>> (x, 2.0f);
  scale<<<1, 32, 0, stream>>>(x, 3.0f);
  scale <<< 1, 32 >>> (x, 4.0f);
  int shifted = 1 << 3;
  bool bigger = shifted >> 1 > 2;
  (void)bigger;
}
