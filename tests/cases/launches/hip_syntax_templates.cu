// hipify-py-flags: --hip-kernel-execution-syntax
#include <cuda_runtime.h>

template <typename T, int N>
__global__ void fill(T* out, T v) {}

template <typename T>
__global__ void scale(T* x, T a) {}

void run(float* f, double* d, cudaStream_t s) {
  fill<float, 4><<<1, 4, 0, s>>>(f, 1.0f);
  scale<<<2, 128>>>(d, 2.0);
  scale<double><<<2, 128>>>(d, 3.0);
}
