#include <cstdio>
#include <hip/hip_runtime.h>

#define CUDA_CHECK(call) do { hipError_t e = (call); if (e != hipSuccess) printf("%s\n", hipGetErrorString(e)); } while (0)

template <typename T, int N>
__global__ void scan(T* data) { extern __shared__ T tile[]; tile[threadIdx.x] = data[threadIdx.x]; }

__global__ void plain(float* data) { data[threadIdx.x] = 0.f; }

// HIP's cudaFuncSetAttribute/cudaFuncGetAttributes take a const void*; CUDA's template
// overloads take the kernel itself: the kernel argument gets a cast (once, also on a re-run).
void configure(size_t bytes) {
  CUDA_CHECK(hipFuncSetAttribute(reinterpret_cast<const void*>(scan<float, 256>), hipFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  CUDA_CHECK(hipFuncSetAttribute(reinterpret_cast<const void*>(plain), hipFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  hipFuncAttributes attr;
  CUDA_CHECK(hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(plain)));
  hipFuncSetAttribute(reinterpret_cast<const void*>(plain), hipFuncAttributePreferredSharedMemoryCarveout, 50);
}
