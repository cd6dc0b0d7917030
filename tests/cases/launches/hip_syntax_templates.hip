// hipify-py-flags: --hip-kernel-execution-syntax
#include <hip/hip_runtime.h>

template <typename T, int N>
__global__ void fill(T* out, T v) {}

template <typename T>
__global__ void scale(T* x, T a) {}

void run(float* f, double* d, hipStream_t s) {
  hipLaunchKernelGGL(HIP_KERNEL_NAME(fill<float, 4>), dim3(1), dim3(4), 0, s, f, 1.0f);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale), dim3(2), dim3(128), 0, 0, d, 2.0);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<double>), dim3(2), dim3(128), 0, 0, d, 3.0);
}
