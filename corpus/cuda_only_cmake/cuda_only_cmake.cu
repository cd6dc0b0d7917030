// cuda_only_cmake: a CMake project of the CUDA language alone (project(... LANGUAGES CUDA), no C or C++), whose
// listfile checks CMAKE_CUDA_COMPILER_VERSION, derives its architectures from CMAKE_CUDA_ARCHITECTURES_ALL, adds
// nvcc's --compress-mode, and builds a static library of its own named cuRAND (like NVIDIA's library) that the
// program links by that name; its kernel is launched with blanks inside the chevrons (k << < g, b >> > (x)).
// A histogram of generated numbers is checked against the same numbers drawn on the host.
#include <cstdio>
#include <cuda_runtime.h>

#include "rng.cuh"

#define CHECK(call)                                                                    \
  do {                                                                                 \
    cudaError_t err_ = (call);                                                         \
    if (err_ != cudaSuccess) {                                                         \
      std::printf("cuda_only_cmake: FAIL %s: %s\n", #call, cudaGetErrorString(err_)); \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)

__global__ void histogram(const uint32_t* values, int n, unsigned int* bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[values[i]], 1u);
}

int main() {
  const int n = 1 << 16;
  const uint32_t bins_n = 64, seed = 2024;
  unsigned int ref[bins_n] = {};
  for (int i = 0; i < n; ++i) ref[draw(seed, (uint32_t)i) % bins_n]++;
  unsigned long long checksum = 0;
  for (uint32_t b = 0; b < bins_n; ++b) checksum = checksum * 31 + ref[b];
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("cuda_only_cmake: PASS checksum=%llu\n", checksum);
  return 0;
#endif
  uint32_t* values = nullptr;
  unsigned int* bins = nullptr;
  CHECK(cudaMalloc(&values, n * sizeof(uint32_t)));
  CHECK(cudaMalloc(&bins, bins_n * sizeof(unsigned int)));
  CHECK(cudaMemset(bins, 0, bins_n * sizeof(unsigned int)));
  fill_uniform(values, n, seed, bins_n);
  CHECK(cudaGetLastError());
  histogram << < n / 256, 256 >> > (values, n, bins);
  CHECK(cudaGetLastError());
  unsigned int got[bins_n];
  CHECK(cudaMemcpy(got, bins, sizeof(got), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(values));
  CHECK(cudaFree(bins));
  unsigned long long sum = 0;
  for (uint32_t b = 0; b < bins_n; ++b) {
    if (got[b] != ref[b]) {
      std::printf("cuda_only_cmake: FAIL bin %u: %u != %u\n", b, got[b], ref[b]);
      return 1;
    }
    sum = sum * 31 + got[b];
  }
  std::printf("cuda_only_cmake: PASS checksum=%llu\n", sum);
  return 0;
}
