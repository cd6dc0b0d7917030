#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) printf("%s\n", cudaGetErrorString(e)); } while (0)

template <typename T, int N>
__global__ void scan(T* data) { extern __shared__ T tile[]; tile[threadIdx.x] = data[threadIdx.x]; }

__global__ void plain(float* data) { data[threadIdx.x] = 0.f; }

// HIP's cudaFuncSetAttribute/cudaFuncGetAttributes take a const void*; CUDA's template
// overloads take the kernel itself: the kernel argument gets a cast (once, also on a re-run).
void configure(size_t bytes) {
  CUDA_CHECK(cudaFuncSetAttribute(scan<float, 256>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  CUDA_CHECK(cudaFuncSetAttribute(plain, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  cudaFuncAttributes attr;
  CUDA_CHECK(cudaFuncGetAttributes(&attr, plain));
  cudaFuncSetAttribute(reinterpret_cast<const void*>(plain), cudaFuncAttributePreferredSharedMemoryCarveout, 50);
}
